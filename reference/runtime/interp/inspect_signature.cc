#include "reference/runtime/interp/inspect_signature.h"

#include <fmt/format.h>

#include "reference/lang/ast.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

using Kind = SignatureParam::Kind;

// The builtins whose __text_signature__ the reference carries (CPython 3.11's), by name.
struct BuiltinSignature {
  std::string_view name;
  std::vector<SignatureParam> params;
};

const std::vector<BuiltinSignature>& BuiltinSignatures() {
  static const auto* table = new std::vector<BuiltinSignature>{
      {"indexOf",
       {{"a", Kind::kPositionalOnly, {}}, {"b", Kind::kPositionalOnly, {}}}},  // operator
  };
  return *table;
}

Signature DefSignature(const PyFunction& f) {
  const lang::Node& def = *std::get<UserCode>(f.code).def;
  const bool is_def = def.kind == lang::NodeKind::kFunctionDef;
  const lang::Arguments& args = lang::ParametersOf(def);
  auto annotated = [](const lang::ArgPtr& a) { return a != nullptr && a->annotation != nullptr; };
  bool has_annotation = (is_def && lang::As<lang::FunctionDef>(def).returns != nullptr) ||
                        annotated(args.vararg) || annotated(args.kwarg);
  for (const auto* list : {&args.posonlyargs, &args.args, &args.kwonlyargs}) {
    for (const lang::ArgPtr& a : *list) has_annotation = has_annotation || annotated(a);
  }
  if (has_annotation) {
    RefuseNotModeled(
        fmt::format("inspect.signature of {}, whose parameters are annotated", f.qualname_text()));
  }
  Signature out;
  const auto* defaults = DynCast<PyTuple>(f.defaults);
  const size_t n_positional = args.posonlyargs.size() + args.args.size();
  const size_t n_defaults = defaults != nullptr ? defaults->size() : 0;
  if (n_defaults > n_positional) {
    RefuseNotModeled(
        fmt::format("inspect.signature of {}, whose __defaults__ was made longer "
                    "than its parameters",
                    f.qualname_text()));
  }
  const size_t first_default = n_positional - n_defaults;
  size_t i = 0;
  for (const auto* list : {&args.posonlyargs, &args.args}) {
    for (const lang::ArgPtr& a : *list) {
      out.params.push_back(
          {a->arg, list == &args.posonlyargs ? Kind::kPositionalOnly : Kind::kPositionalOrKeyword,
           i >= first_default ? defaults->items()[i - first_default] : Value()});
      ++i;
    }
  }
  if (args.vararg) out.params.push_back({args.vararg->arg, Kind::kVarPositional, {}});
  const auto* kwdefaults = DynCast<PyDict>(f.kwdefaults);
  for (const lang::ArgPtr& a : args.kwonlyargs) {
    out.params.push_back(
        {a->arg, Kind::kKeywordOnly, kwdefaults != nullptr ? kwdefaults->GetStr(a->arg) : Value()});
  }
  if (args.kwarg) out.params.push_back({args.kwarg->arg, Kind::kVarKeyword, {}});
  return out;
}

}  // namespace

std::optional<Signature> SignatureOf(const Value& fn) {
  if (const auto* f = DynCast<PyFunction>(fn); f != nullptr && !f->is_native()) {
    return DefSignature(*f);
  }
  if (const auto* b = DynCast<PyBuiltin>(fn)) {
    for (const BuiltinSignature& row : BuiltinSignatures()) {
      if (row.name == b->name()) return Signature{row.params};
    }
  }
  return std::nullopt;
}

std::string SignatureText(const Signature& signature) {
  std::vector<std::string> parts;
  bool keyword_only_marked = false;
  for (size_t i = 0; i < signature.params.size(); ++i) {
    const SignatureParam& p = signature.params[i];
    std::string text = p.name;
    if (p.kind == Kind::kVarPositional) {
      text = "*" + text;
      keyword_only_marked = true;
    }
    if (p.kind == Kind::kVarKeyword) text = "**" + text;
    if (p.kind == Kind::kKeywordOnly && !keyword_only_marked) {
      parts.emplace_back("*");
      keyword_only_marked = true;
    }
    if (p.default_value) text += "=" + ProgramRepr(p.default_value);
    parts.push_back(std::move(text));
    const bool last_positional_only =
        p.kind == Kind::kPositionalOnly &&
        (i + 1 == signature.params.size() || signature.params[i + 1].kind != Kind::kPositionalOnly);
    if (last_positional_only) parts.emplace_back("/");
  }
  return fmt::format("({})", fmt::join(parts, ", "));
}

}  // namespace tdc::runtime
