// Python 3.11's re module as fixtures use it: compile, search, match, fullmatch and sub,
// re.Pattern and re.Match, over the matcher of py_regex.h (whose pattern syntax is the
// accepted part; a pattern beyond it is refused). Flags are not modeled: a nonzero flags
// argument is refused, and so is every attribute of the module, a Pattern or a Match
// not listed here (torch_names.def for the module, __getattr__ for the classes).
#include <fmt/format.h>

#include <memory>

#include "reference/base/py_repr.h"
#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_regex.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

struct ReTypes {
  Ref<PyType> pattern_type, match_type;
  // The compiled form of each Pattern object (kept with it for its lifetime).
  std::vector<std::pair<Ref<PyInstance>, std::shared_ptr<const regex::Pattern>>> compiled;

  std::shared_ptr<const regex::Pattern> CompiledOf(const Value& v) const {
    for (const auto& [object, p] : compiled) {
      if (Value(object) == v) return p;
    }
    return nullptr;
  }
};

// re.search / re.match / re.fullmatch and the Pattern methods of those names.
struct Finder {
  std::string_view name;
  regex::Anchor anchor;
};
constexpr Finder kFinders[] = {{"search", regex::Anchor::kSearch},
                               {"match", regex::Anchor::kMatch},
                               {"fullmatch", regex::Anchor::kFullMatch}};

// What one match holds: the subject (code points) and the spans of its groups.
struct MatchState {
  std::u32string subject;
  regex::Spans spans;
};

std::string Truncated(std::string text, size_t width) {
  // %.<width>R of PyUnicode_FromFormat: the repr cut to `width` characters.
  std::u32string chars = regex::Decode(text);
  if (chars.size() <= width) return text;
  return regex::Encode(std::u32string_view(chars).substr(0, width));
}

class ReModule : public std::enable_shared_from_this<ReModule> {
 public:
  explicit ReModule(Interpreter& in) : in_(in), types_(std::make_shared<ReTypes>()) {}

  void Install();

 private:
  Heap& heap() { return in_.heap(); }

  void RejectFlags(const Value& flags) {
    if (!flags) return;
    const auto* i = DynCast<PyInt>(flags);
    if (i == nullptr || i->value() != 0) RefuseNotModeled("re flags are not modeled");
  }

  // A str pattern or a Pattern object, compiled.
  std::shared_ptr<const regex::Pattern> PatternOf(const Value& v) {
    if (std::shared_ptr<const regex::Pattern> compiled = types_->CompiledOf(v)) return compiled;
    const auto* s = DynCast<PyStr>(v);
    if (s == nullptr) {
      if (Is<PyInstance>(v) || Is<PyTensor>(v))
        RefuseNotModeled("re: a non-str pattern is not modeled");
      Raise(heap(), ExcType::kTypeError, "first argument must be string or compiled pattern");
    }
    return std::make_shared<const regex::Pattern>(regex::Parse(s->value()));
  }

  std::u32string SubjectOf(const Value& v) {
    const auto* s = DynCast<PyStr>(v);
    if (s == nullptr) {
      if (Is<PyInstance>(v)) RefuseNotModeled("re: a non-str subject is not modeled");
      Raise(heap(), ExcType::kTypeError,
            fmt::format("expected string or bytes-like object, got '{}'", TypeName(v)));
    }
    return regex::Decode(s->value());
  }

  Value MakePattern(std::shared_ptr<const regex::Pattern> pattern) {
    Ref<PyInstance> object = heap().NewInstance(types_->pattern_type);
    object->attrs->SetStr("pattern", heap().Str(pattern->source));
    object->attrs->SetStr("groups", heap().Int(static_cast<int64_t>(pattern->groups)));
    object->repr = fmt::format("re.compile({})", Truncated(ReprStr(pattern->source), 200));
    types_->compiled.emplace_back(object, std::move(pattern));
    return object;
  }

  Value MakeMatch(const Value& pattern_object, const Value& string,
                  std::shared_ptr<const MatchState> state) {
    Ref<PyInstance> object = heap().NewInstance(types_->match_type);
    object->attrs->SetStr("string", string);
    if (pattern_object) object->attrs->SetStr("re", pattern_object);
    const auto& [b, e] = *state->spans[0];
    object->repr = fmt::format(
        "<re.Match object; span=({}, {}), match={}>", b, e,
        Truncated(ReprStr(regex::Encode(std::u32string_view(state->subject).substr(b, e - b))),
                  50));
    matches_.emplace_back(object, std::move(state));
    return object;
  }

  const MatchState& StateOf(const Value& match) const {
    for (const auto& [object, state] : matches_) {
      if (Value(object) == match) return *state;
    }
    throw std::logic_error("a re.Match without its state");
  }

  // The match of `anchor` for pattern `p` (str or Pattern) in `string`, or None.
  Value Find(const Value& p, const Value& string, regex::Anchor anchor) {
    std::shared_ptr<const regex::Pattern> pattern = PatternOf(p);
    auto state = std::make_shared<MatchState>();
    state->subject = SubjectOf(string);
    std::optional<regex::Spans> spans = regex::Find(*pattern, state->subject, 0, anchor);
    if (!spans) return heap().None();
    state->spans = std::move(*spans);
    Value pattern_object = types_->CompiledOf(p) ? p : MakePattern(pattern);
    return MakeMatch(pattern_object, string, std::move(state));
  }

  // The group index `v` names (ints only: named groups are not modeled).
  size_t GroupIndex(const MatchState& state, const Value& v) {
    std::optional<int64_t> i;
    if (const auto* n = DynCast<PyInt>(v)) i = n->value();
    if (const auto* b = DynCast<PyBool>(v)) i = b->value() ? 1 : 0;
    if (!i || *i < 0 || static_cast<size_t>(*i) >= state.spans.size()) {
      Raise(heap(), ExcType::kIndexError, "no such group");
    }
    return static_cast<size_t>(*i);
  }

  Value GroupText(const MatchState& state, size_t g, const Value& missing) {
    const regex::Span& span = state.spans[g];
    if (!span) return missing;
    return heap().Str(regex::Encode(
        std::u32string_view(state.subject).substr(span->first, span->second - span->first)));
  }

  // sre_parse.parse_template's pieces of a str replacement: literal text and group refs.
  struct Template {
    std::vector<std::pair<std::u32string, int>> pieces;  // (literal, -1) or ({}, group)
  };
  Template ParseTemplate(const std::string& repl, size_t groups) {
    Template t;
    std::u32string text = regex::Decode(repl), literal;
    auto group = [&](size_t g) {
      if (g > groups)
        RefuseNotModeled("re.sub: a replacement naming an unknown group is not modeled");
      t.pieces.emplace_back(std::move(literal), -1);
      literal.clear();
      t.pieces.emplace_back(std::u32string(), static_cast<int>(g));
    };
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\\') {
        literal += text[i];
        continue;
      }
      if (i + 1 >= text.size())
        RefuseNotModeled("re.sub: a replacement ending in a backslash is not modeled");
      char32_t c = text[++i];
      if (c >= '1' && c <= '9') {
        size_t g = c - '0';
        if (i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
          if (i + 2 < text.size() && text[i + 2] >= '0' && text[i + 2] <= '9')
            RefuseNotModeled("re.sub: an octal escape in a replacement is not modeled");
          g = g * 10 + (text[++i] - '0');
        }
        group(g);
      } else if (c == 'g') {
        size_t close = text.find('>', i);
        if (i + 1 >= text.size() || text[i + 1] != '<' || close == std::u32string::npos)
          RefuseNotModeled("re.sub: a malformed \\g<...> in a replacement is not modeled");
        std::string name = regex::Encode(std::u32string_view(text).substr(i + 2, close - i - 2));
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
          RefuseNotModeled("re.sub: a named group in a replacement is not modeled");
        group(std::stoul(name));
        i = close;
      } else if (c == '\\') {
        literal += '\\';
      } else if (c == 'n' || c == 't' || c == 'r' || c == 'f' || c == 'v' || c == 'a' || c == 'b') {
        static const std::u32string kFrom = U"ntrfvab", kTo = U"\n\t\r\f\v\a\b";
        literal += kTo[kFrom.find(c)];
      } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '0') {
        RefuseNotModeled(
            "re.sub: this escape in a replacement is not modeled");  // re.error or octal
      } else {
        literal += '\\';  // an unknown non-letter escape stays as it is
        literal += c;
      }
    }
    t.pieces.emplace_back(std::move(literal), -1);
    return t;
  }

  // pattern_subx: each match replaced, an empty match right after the previous one taken
  // only when it advances (sre's must_advance).
  Value Sub(const Value& p, const Value& repl, const Value& string, const Value& count_value) {
    std::shared_ptr<const regex::Pattern> pattern = PatternOf(p);
    std::u32string subject = SubjectOf(string);
    int64_t limit = 0;
    if (count_value) {
      const auto* c = DynCast<PyInt>(count_value);
      if (c == nullptr) RefuseNotModeled("re.sub: a non-int count is not modeled");
      limit = c->value();
    }
    std::optional<Template> tmpl;
    if (const auto* r = DynCast<PyStr>(repl)) {
      tmpl = ParseTemplate(r->value(), pattern->groups);
    } else if (!apis::IsCallable(in_, repl)) {
      RefuseNotModeled("re.sub: a replacement that is neither a str nor callable is not modeled");
    }
    Value pattern_object = types_->CompiledOf(p) ? p : MakePattern(pattern);
    std::u32string out;
    size_t i = 0, start = 0;
    bool must_advance = false;
    for (int64_t n = 0; limit <= 0 || n < limit; ++n) {
      std::optional<regex::Spans> spans =
          regex::Find(*pattern, subject, start, regex::Anchor::kSearch, must_advance);
      if (!spans) break;
      auto [b, e] = *(*spans)[0];
      out += subject.substr(i, b - i);
      if (tmpl) {
        for (const auto& [literal, g] : tmpl->pieces) {
          if (g < 0) {
            out += literal;
          } else if (const regex::Span& s = (*spans)[static_cast<size_t>(g)]) {
            out += subject.substr(s->first, s->second - s->first);
          }
        }
      } else {
        auto state = std::make_shared<MatchState>(MatchState{subject, *spans});
        Value piece = in_.Call(repl, {{MakeMatch(pattern_object, string, state)}, {}});
        const auto* s = DynCast<PyStr>(piece);
        if (s == nullptr)
          RefuseNotModeled("re.sub: a replacement function returning a non-str is not modeled");
        out += regex::Decode(s->value());
      }
      i = e;
      must_advance = e == b;
      start = e;
    }
    out += subject.substr(i);
    return heap().Str(regex::Encode(out));
  }

  void InstallFunctions();
  void InstallPatternMethods();
  void InstallMatchMethods();

  Interpreter& in_;
  std::shared_ptr<ReTypes> types_;
  std::vector<std::pair<Ref<PyInstance>, std::shared_ptr<const MatchState>>> matches_;
};

void ReModule::InstallFunctions() {
  PyModule& re = *in_.process().modules()[ModuleId::kRe];
  Value globals = apis::LibGlobals(in_, "re");
  auto def = [&](std::string_view name, std::vector<apis::Param> params, auto body) {
    std::string qualname(name);
    re.SetAttr(name,
               apis::MakeLibFunction(in_, globals, name,
                                     [this, keep = shared_from_this(), qualname, params, body](
                                         PyFunction&, CallArgs& args) -> Value {
                                       return body(apis::BindParams(in_, qualname, params, args));
                                     }));
  };
  for (const Finder& f : kFinders) {
    def(f.name, {{"pattern"}, {"string"}, {"flags", true}},
        [this, keep = shared_from_this(), anchor = f.anchor](const std::vector<Value>& a) {
          RejectFlags(a[2]);
          return Find(a[0], a[1], anchor);
        });
  }
  def("sub", {{"pattern"}, {"repl"}, {"string"}, {"count", true}, {"flags", true}},
      [this, keep = shared_from_this()](const std::vector<Value>& a) {
        RejectFlags(a[4]);
        return Sub(a[0], a[1], a[2], a[3]);
      });
  def("compile", {{"pattern"}, {"flags", true}},
      [this, keep = shared_from_this()](const std::vector<Value>& a) {
        RejectFlags(a[1]);
        if (types_->CompiledOf(a[0])) return a[0];
        return MakePattern(PatternOf(a[0]));
      });
}

void ReModule::InstallPatternMethods() {
  const Ref<PyType>& type = types_->pattern_type;
  for (const Finder& f : kFinders) {
    std::string qualname = "Pattern." + std::string(f.name);
    AddMethod(in_, type, f.name,
              [this, keep = shared_from_this(), qualname, anchor = f.anchor](CallArgs& args) {
                Value self = args.positional.at(0);
                args.positional.erase(args.positional.begin());
                // pos and endpos are not modeled.
                std::vector<Value> a = apis::BindParams(in_, qualname, {{"string"}}, args);
                return Find(self, a[0], anchor);
              });
  }
  AddMethod(in_, type, "sub", [this, keep = shared_from_this()](CallArgs& args) {
    Value self = args.positional.at(0);
    args.positional.erase(args.positional.begin());
    std::vector<Value> a =
        apis::BindParams(in_, "Pattern.sub", {{"repl"}, {"string"}, {"count", true}}, args);
    return Sub(self, a[0], a[1], a[2]);
  });
  RefuseOtherAttributes(in_, type);
}

void ReModule::InstallMatchMethods() {
  const Ref<PyType>& type = types_->match_type;
  auto self_state = [this, keep = shared_from_this()](const CallArgs& args) -> const MatchState& {
    return StateOf(args.positional.at(0));
  };
  AddMethod(in_, type, "group", [this, keep = shared_from_this(), self_state](CallArgs& args) {
    if (!args.keywords.empty()) RefuseNotModeled("re.Match.group() with keywords is not modeled");
    const MatchState& state = self_state(args);
    if (args.positional.size() == 1) return GroupText(state, 0, heap().None());
    std::vector<Value> out;
    for (size_t i = 1; i < args.positional.size(); ++i)
      out.push_back(GroupText(state, GroupIndex(state, args.positional[i]), heap().None()));
    return out.size() == 1 ? out[0] : Value(heap().NewTuple(std::move(out)));
  });
  AddMethod(in_, type, "__getitem__",
            [this, keep = shared_from_this(), self_state](CallArgs& args) {
              const MatchState& state = self_state(args);
              return GroupText(state, GroupIndex(state, args.positional.at(1)), heap().None());
            });
  AddMethod(in_, type, "groups", [this, keep = shared_from_this(), self_state](CallArgs& args) {
    const MatchState& state = self_state(args);
    Value missing = ArgOrKeyword(args, 1, "default");
    if (!missing) missing = heap().None();
    std::vector<Value> out;
    for (size_t g = 1; g < state.spans.size(); ++g) out.push_back(GroupText(state, g, missing));
    return Value(heap().NewTuple(std::move(out)));
  });
  // start/end/span: -1 for a group that did not take part.
  auto span_of = [this, keep = shared_from_this(), self_state](CallArgs& args) {
    const MatchState& state = self_state(args);
    Value g = ArgOrKeyword(args, 1, "group");
    const regex::Span& span = state.spans[g ? GroupIndex(state, g) : 0];
    if (!span) return std::pair<int64_t, int64_t>{-1, -1};
    return std::pair<int64_t, int64_t>{static_cast<int64_t>(span->first),
                                       static_cast<int64_t>(span->second)};
  };
  AddMethod(in_, type, "start", [this, keep = shared_from_this(), span_of](CallArgs& args) {
    return heap().Int(span_of(args).first);
  });
  AddMethod(in_, type, "end", [this, keep = shared_from_this(), span_of](CallArgs& args) {
    return heap().Int(span_of(args).second);
  });
  AddMethod(in_, type, "span", [this, keep = shared_from_this(), span_of](CallArgs& args) {
    auto [b, e] = span_of(args);
    return Value(heap().NewTuple({heap().Int(b), heap().Int(e)}));
  });
  RefuseOtherAttributes(in_, type);
}

void ReModule::Install() {
  types_->pattern_type = LibraryClass(in_, "Pattern", "re");
  types_->match_type = LibraryClass(in_, "Match", "re");
  InstallFunctions();
  InstallPatternMethods();
  InstallMatchMethods();
  PyModule& re = *in_.process().modules()[ModuleId::kRe];
  re.SetAttr("Pattern", types_->pattern_type);
  re.SetAttr("Match", types_->match_type);
}

}  // namespace

void InstallReModule(Interpreter& in) {
  // The module's state lives as long as one of its functions or methods does (each
  // closure holds it; the heap drops them all when the process ends).
  std::make_shared<ReModule>(in)->Install();
}

}  // namespace tdc::runtime
