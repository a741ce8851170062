// torch._dynamo.substitute_in_graph and torch.compiler.substitute_in_graph as torch 2.13.0
// defines them (torch/_dynamo/decorators.py, torch/compiler/__init__.py; spec §2.11): the
// decorator checks that the polyfill's signature matches the original's, registers the pair
// and returns `wrapped`, a Python function that calls the original eagerly. Dynamo calls the
// polyfill in place of the original or of `wrapped` (dynamo/polyfilled_calls.cc).
// What the reference accepts as an original: a def, or a builtin whose signature it knows
// and for which torch 2.13.0 has no rule of its own (inspect_signature.cc's table). Any other
// is refused: torch's own rule maps, which would make its registration a ValueError, are not
// modeled.
#include <map>
#include <memory>
#include <set>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/inspect_signature.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/registries.h"
#include "reference/runtime/interp/run_program.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

using Kind = SignatureParam::Kind;

// `wrapped` at its lines of torch/_dynamo/decorators.py (its `return` at 1053), so that a
// frame Dynamo converts for it is placed as torch's is (torch.compile(polyfill) converts it).
std::string WrappedSource() {
  return std::string(1050, '\n') +
         "def make_wrapped(original_fn):\n"
         "    def wrapped(*args, **kwargs):\n"
         "        return original_fn(*args, **kwargs)\n"
         "    return wrapped\n";
}

// torch's is_function: types.FunctionType, BuiltinFunctionType, MethodDescriptorType or
// WrapperDescriptorType. Some of the runtime's builtins are classes in CPython (zip): only
// those marked as CPython functions are known to be functions.
bool IsFunction(const Value& v) {
  if (Is<PyFunction>(v)) return true;
  if (const auto* b = DynCast<PyBuiltin>(v)) {
    if (!b->cpython_function) {
      RefuseNotModeled(
          fmt::format("substitute_in_graph of the builtin {}: whether CPython's is a function "
                      "is not modeled",
                      b->name()));
    }
    return true;
  }
  return false;
}

// sig_ident: the names of the parameters other than keyword-only and *args/**kwargs, the
// keyword-only names, and each non-variadic parameter's default (annotations ignored).
bool SameIdent(Interpreter& in, const Signature& a, const Signature& b) {
  auto positional = [](const Signature& s) {
    std::vector<std::string> names;
    for (const SignatureParam& p : s.params) {
      if (p.kind == Kind::kPositionalOnly || p.kind == Kind::kPositionalOrKeyword)
        names.push_back(p.name);
    }
    return names;
  };
  auto keyword_only = [](const Signature& s) {
    std::set<std::string> names;
    for (const SignatureParam& p : s.params) {
      if (p.kind == Kind::kKeywordOnly) names.insert(p.name);
    }
    return names;
  };
  auto defaults = [](const Signature& s) {
    std::map<std::string, Value> out;
    for (const SignatureParam& p : s.params) {
      if (p.kind != Kind::kVarPositional && p.kind != Kind::kVarKeyword)
        out.emplace(p.name, p.default_value);
    }
    return out;
  };
  if (positional(a) != positional(b) || keyword_only(a) != keyword_only(b)) return false;
  std::map<std::string, Value> da = defaults(a), db = defaults(b);
  if (da.size() != db.size()) return false;
  for (const auto& [name, value] : da) {
    auto other = db.find(name);
    if (other == db.end()) return false;
    // dict equality: identity, then ==; inspect's `empty` marker is one object.
    if (value == other->second) continue;
    if (!value || !other->second ||
        !Truth(in, CompareOperation(in, lang::CompareOp::kEq, value, other->second)))
      return false;
  }
  return true;
}

bool IsWildcard(const Signature& s) {
  for (const SignatureParam& p : s.params) {
    if (p.kind != Kind::kVarPositional && p.kind != Kind::kVarKeyword) return false;
  }
  return true;
}

void CheckSignatures(Interpreter& in, const Value& original, const Value& traceable) {
  std::optional<Signature> original_sig = SignatureOf(original);
  std::optional<Signature> traceable_sig = SignatureOf(traceable);
  if (!original_sig || !traceable_sig) {
    RefuseNotModeled(fmt::format("inspect.signature of {} is not modeled",
                                 Repr(original_sig ? traceable : original)));
  }
  if (!SameIdent(in, *original_sig, *traceable_sig) && !IsWildcard(*original_sig) &&
      !IsWildcard(*traceable_sig)) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("Signature mismatch between {} and {}: {} != {}", ProgramRepr(original),
                      ProgramRepr(traceable), SignatureText(*original_sig),
                      SignatureText(*traceable_sig)));
  }
}

// The decorator substitute_in_graph returns: registers `traceable` for `original`.
Value Register(Interpreter& in, const Value& original, const Value& traceable,
               const Value& can_constant_fold_through, bool skip_signature_check,
               const Value& make_wrapped) {
  if (!IsFunction(traceable)) {
    Raise(in.heap(), ExcType::kTypeError,
          fmt::format("@substitute_in_graph(...) expects a function but got {}",
                      apis::TypeRepr(in, traceable)));
  }
  if (!skip_signature_check) CheckSignatures(in, original, traceable);
  DynamoRegistries& reg = in.process().compiler.registries;
  if (reg.polyfills.contains(original->id())) {
    Raise(in.heap(), ExcType::kValueError,
          fmt::format("Duplicate dispatch rule for {}: already registered in VariableBuilder's "
                      "id dispatch map",
                      ProgramRepr(original)));
  }
  const auto* f = DynCast<PyFunction>(original);
  if (!SignatureOf(original) || (f != nullptr && f->is_native())) {
    RefuseNotModeled(fmt::format(
        "substitute_in_graph of {}: torch's own rules for it are not modeled", Repr(original)));
  }
  Value wrapped = in.CallDirect(make_wrapped, CallArgs{{original}, {}});
  apis::UpdateWrapper(in, wrapped, traceable);
  reg.polyfills[original->id()] = wrapped;
  reg.polyfills[wrapped->id()] = wrapped;
  in.SetAttr(wrapped, "__torch_dynamo_original__", original);
  in.SetAttr(wrapped, "__torch_dynamo_polyfill__", traceable);
  in.SetAttr(wrapped, "__torch_dynamo_can_constant_fold_through__", can_constant_fold_through);
  return wrapped;
}

const std::vector<apis::Param> kParams = {{"original_fn"},
                                          {"can_constant_fold_through", true, true},
                                          {"skip_signature_check", true, true},
                                          {"is_embedded_type", true, true}};

}  // namespace

void InstallSubstituteInGraph(Interpreter& in) {
  Value decorators = apis::LibGlobals(in, "torch._dynamo.decorators");
  auto make_wrapped = std::make_shared<Value>();
  Ref<PyFunction> dynamo_api = apis::MakeLibFunction(
      in, decorators, "substitute_in_graph",
      [&in, decorators, make_wrapped](PyFunction&, CallArgs& args) -> Value {
        std::vector<Value> bound = apis::BindParams(in, "substitute_in_graph", kParams, args);
        const Value original = bound[0];
        const Value fold = bound[1] ? bound[1] : in.heap().False();
        const bool skip_check = bound[2] && Truth(in, bound[2]);
        if (bound[3] && Truth(in, bound[3])) {
          RefuseNotModeled("substitute_in_graph(is_embedded_type=True) is not modeled");
        }
        if (!IsFunction(original)) {
          Raise(in.heap(), ExcType::kTypeError,
                fmt::format("substitute_in_graph expects a function but got {}",
                            apis::TypeRepr(in, original)));
        }
        if (!*make_wrapped) {
          *make_wrapped = RunLibrarySource(in, WrappedSource(), "<torch>/_dynamo/decorators.py",
                                           "torch._dynamo.decorators", "make_wrapped");
        }
        return apis::MakeLibFunction(
            in, decorators, "substitute_in_graph.<locals>.wrapper",
            [&in, original, fold, skip_check, make_wrapped](PyFunction&, CallArgs& call) {
              Value traceable = apis::BindParams(in, "wrapper", {{"traceable_fn"}}, call)[0];
              return Register(in, original, traceable, fold, skip_check, *make_wrapped);
            });
      });
  in.process().modules()[ModuleId::kTorchDynamo]->SetAttr("substitute_in_graph", dynamo_api);
  // torch.compiler's passes its arguments on (it has no is_embedded_type).
  in.process().modules()[ModuleId::kTorchCompiler]->SetAttr(
      "substitute_in_graph",
      apis::MakeLibFunction(
          in, apis::LibGlobals(in, "torch.compiler"), "substitute_in_graph",
          [&in, dynamo_api](PyFunction&, CallArgs& args) -> Value {
            std::vector<Value> bound = apis::BindParams(in, "substitute_in_graph",
                                                        {kParams[0], kParams[1], kParams[2]}, args);
            CallArgs forwarded{{bound[0]}, {}};
            if (bound[1]) forwarded.keywords.emplace_back("can_constant_fold_through", bound[1]);
            if (bound[2]) forwarded.keywords.emplace_back("skip_signature_check", bound[2]);
            return in.CallDirect(dynamo_api, std::move(forwarded));
          }));
}

}  // namespace tdc::runtime
