// str's methods as CPython 3.11 has them: split, rsplit, startswith, endswith, strip,
// lstrip, rstrip, join, replace, find, rfind, index, count, lower, upper and format (with
// `{}`, `{0}`, `{name}` fields and the !s / !r conversions). Positions count code points.
// What needs Unicode tables the reference does not have is refused (D13): case mapping of
// non-ASCII text, whitespace splitting or stripping of non-ASCII text, format specs.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/py_ops.h"
#include "reference/runtime/interp/py_regex.h"

namespace tdc::runtime {
namespace {

using regex::Decode;
using regex::Encode;

bool IsAscii(const std::u32string& s) {
  return std::all_of(s.begin(), s.end(), [](char32_t c) { return c < 0x80; });
}

// str.isspace() of an ASCII character: \t \n \v \f \r, \x1c-\x1f and space.
bool IsAsciiSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) || c == ' ';
}

void RequireAsciiFor(const std::u32string& s, std::string_view what) {
  if (!IsAscii(s)) RefuseNotModeled(fmt::format("str.{} of non-ASCII text is not modeled", what));
}

class StrMethods : public std::enable_shared_from_this<StrMethods> {
 public:
  explicit StrMethods(Interpreter& in) : in_(in) {}
  void Install();

 private:
  Heap& heap() { return in_.heap(); }
  Value Str32(const std::u32string& s) { return heap().Str(Encode(s)); }

  void Def(std::string_view name, std::function<Value(std::u32string, CallArgs&)> body) {
    std::string qualname = "str." + std::string(name);
    in_.process()
        .types()
        .ForKind(ObjectKind::kStr)
        ->dict->SetStr(
            name,
            MakeBuiltin(
                in_, qualname, [this, keep = shared_from_this(), qualname, body](CallArgs& args) {
                  const auto* self = DynCast<PyStr>(args.positional.at(0));
                  if (self == nullptr) {
                    Raise(heap(), ExcType::kTypeError,
                          fmt::format(
                              "descriptor '{}' for 'str' objects doesn't apply to a '{}' object",
                              qualname.substr(4), TypeName(args.positional[0])));
                  }
                  args.positional.erase(args.positional.begin());
                  return body(Decode(self->value()), args);
                }));
  }

  void NoKeywords(const CallArgs& args, std::string_view name) {
    if (!args.keywords.empty()) {
      Raise(heap(), ExcType::kTypeError, fmt::format("str.{}() takes no keyword arguments", name));
    }
  }

  // CPython's argument-count TypeErrors, in the style of the method's parser: kClinic
  // ("strip expected at most 1 argument, got 2"), kTuple ("find() takes at least 1
  // argument (0 given)"), kMethod ("str.lower() takes no arguments (1 given)", "str.join()
  // takes exactly one argument (0 given)").
  enum class Style { kClinic, kTuple, kMethod };
  void ExpectCount(const CallArgs& args, std::string_view name, size_t min, size_t max,
                   Style style) {
    size_t n = args.positional.size();
    if (n >= min && n <= max) return;
    auto plural = [](size_t k) { return k == 1 ? "argument" : "arguments"; };
    std::string message;
    switch (style) {
      case Style::kMethod:
        message = max == 0 ? fmt::format("str.{}() takes no arguments ({} given)", name, n)
                           : fmt::format("str.{}() takes exactly one argument ({} given)", name, n);
        break;
      case Style::kClinic:
        message = n < min
                      ? fmt::format("{} expected at least {} {}, got {}", name, min, plural(min), n)
                      : fmt::format("{} expected at most {} {}, got {}", name, max, plural(max), n);
        break;
      case Style::kTuple:
        message =
            n < min ? fmt::format("{}() takes at least {} {} ({} given)", name, min, plural(min), n)
                    : fmt::format("{}() takes at most {} {} ({} given)", name, max, plural(max), n);
        break;
    }
    Raise(heap(), ExcType::kTypeError, message);
  }

  std::u32string StrArg(const Value& v, std::string_view message_prefix) {
    const auto* s = DynCast<PyStr>(v);
    if (s == nullptr) {
      Raise(heap(), ExcType::kTypeError, fmt::format("{}, not {}", message_prefix, TypeName(v)));
    }
    return Decode(s->value());
  }

  int64_t IntArg(const Value& v) {
    if (const auto* i = DynCast<PyInt>(v)) return i->value();
    if (const auto* b = DynCast<PyBool>(v)) return b->value() ? 1 : 0;
    Raise(heap(), ExcType::kTypeError,
          fmt::format("'{}' object cannot be interpreted as an integer", TypeName(v)));
  }

  // The [start, end) a method's optional start/end select (slice semantics; None is absent),
  // or nullopt when start is past the end (find gives -1 there, even for "").
  std::optional<std::pair<size_t, size_t>> Bounds(const CallArgs& args, size_t first,
                                                  size_t length) {
    auto bound = [&](size_t i, int64_t absent) -> int64_t {
      if (i >= args.positional.size() || Is<PyNone>(args.positional[i])) return absent;
      const Value& v = args.positional[i];
      if (!Is<PyInt>(v) && !Is<PyBool>(v)) {
        Raise(heap(), ExcType::kTypeError,
              "slice indices must be integers or None or have an __index__ method");
      }
      int64_t n = IntArg(v);
      if (n < 0) n = std::max<int64_t>(0, n + static_cast<int64_t>(length));
      return std::min<int64_t>(n, static_cast<int64_t>(length));
    };
    auto len = static_cast<int64_t>(length);
    // CPython compares the unclamped start with the length: "abc".find("", 4) is -1.
    int64_t raw_start = 0;
    if (first < args.positional.size() && !Is<PyNone>(args.positional[first])) {
      bound(first, 0);  // type check
      raw_start = IntArg(args.positional[first]);
      if (raw_start < 0) raw_start = std::max<int64_t>(0, raw_start + len);
    }
    int64_t end = bound(first + 1, len);
    if (raw_start > len || raw_start > end) return std::nullopt;
    return std::make_pair(static_cast<size_t>(raw_start), static_cast<size_t>(end));
  }

  std::vector<std::u32string> Split(const std::u32string& s, const Value& sep_value,
                                    int64_t maxsplit) {
    std::vector<std::u32string> out;
    if (!sep_value || Is<PyNone>(sep_value)) {
      RequireAsciiFor(s, "split() by whitespace");
      size_t i = 0, n = s.size();
      while (true) {
        while (i < n && IsAsciiSpace(s[i])) ++i;
        if (i == n) break;
        if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
          out.push_back(s.substr(i));
          break;
        }
        size_t j = i;
        while (j < n && !IsAsciiSpace(s[j])) ++j;
        out.push_back(s.substr(i, j - i));
        i = j;
      }
      return out;
    }
    std::u32string sep = StrArg(sep_value, "must be str or None");
    if (sep.empty()) Raise(heap(), ExcType::kValueError, "empty separator");
    size_t i = 0;
    while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
      size_t j = s.find(sep, i);
      if (j == std::u32string::npos) break;
      out.push_back(s.substr(i, j - i));
      i = j + sep.size();
    }
    out.push_back(s.substr(i));
    return out;
  }

  Value ListOf(const std::vector<std::u32string>& parts) {
    std::vector<Value> items;
    for (const auto& p : parts) items.push_back(Str32(p));
    return heap().NewList(std::move(items));
  }

  // strip/lstrip/rstrip: `left`/`right` say which ends.
  Value Strip(const std::u32string& s, CallArgs& args, std::string_view name, bool left,
              bool right) {
    NoKeywords(args, name);
    ExpectCount(args, name, 0, 1, Style::kClinic);
    std::optional<std::u32string> chars;
    if (!args.positional.empty() && !Is<PyNone>(args.positional[0]))
      chars = StrArg(args.positional[0], "strip arg must be None or str");
    if (!chars) RequireAsciiFor(s, std::string(name) + "() of whitespace");
    auto strip = [&](char32_t c) {
      return chars ? chars->find(c) != std::u32string::npos : IsAsciiSpace(c);
    };
    size_t b = 0, e = s.size();
    if (left)
      while (b < e && strip(s[b])) ++b;
    if (right)
      while (e > b && strip(s[e - 1])) --e;
    return Str32(s.substr(b, e - b));
  }

  // startswith/endswith(prefix, start=None, end=None).
  Value Affix(const std::u32string& s, CallArgs& args, std::string_view name, bool start) {
    NoKeywords(args, name);
    ExpectCount(args, name, 1, 3, Style::kTuple);
    std::vector<Value> candidates;
    if (const auto* t = DynCast<PyTuple>(args.positional[0])) {
      candidates = t->items();
    } else {
      candidates.push_back(args.positional[0]);
    }
    for (const Value& c : candidates) {
      if (!Is<PyStr>(c)) {
        Raise(heap(), ExcType::kTypeError,
              Is<PyTuple>(args.positional[0])
                  ? fmt::format("tuple for {} must only contain str, not {}", name, TypeName(c))
                  : fmt::format("{} first arg must be str or a tuple of str, not {}", name,
                                TypeName(c)));
      }
    }
    std::optional<std::pair<size_t, size_t>> bounds = Bounds(args, 1, s.size());
    for (const Value& c : candidates) {
      std::u32string affix = Decode(DynCast<PyStr>(c)->value());
      if (!bounds) continue;
      auto [b, e] = *bounds;
      if (e - b < affix.size()) continue;
      size_t at = start ? b : e - affix.size();
      if (s.compare(at, affix.size(), affix) == 0) return heap().True();
    }
    return heap().False();
  }

  // find/rfind/index/count's sub and bounds.
  struct Search {
    std::u32string sub;
    std::optional<std::pair<size_t, size_t>> bounds;
  };
  Search SearchArgs(const std::u32string& s, CallArgs& args, std::string_view name) {
    NoKeywords(args, name);
    ExpectCount(args, name, 1, 3, Style::kTuple);
    const auto* sub = DynCast<PyStr>(args.positional[0]);
    if (sub == nullptr) {
      Raise(heap(), ExcType::kTypeError,
            fmt::format("must be str, not {}", TypeName(args.positional[0])));
    }
    return {Decode(sub->value()), Bounds(args, 1, s.size())};
  }

  int64_t Find(const std::u32string& s, const Search& q, bool reverse) {
    if (!q.bounds) return -1;
    auto [b, e] = *q.bounds;
    if (e - b < q.sub.size()) return -1;
    std::u32string_view window = std::u32string_view(s).substr(b, e - b);
    size_t at = reverse ? window.rfind(q.sub) : window.find(q.sub);
    return at == std::u32string_view::npos ? -1 : static_cast<int64_t>(b + at);
  }

  Value Format(const std::u32string& s, CallArgs& args);

  Interpreter& in_;
};

Value StrMethods::Format(const std::u32string& s, CallArgs& args) {
  std::u32string out;
  size_t next_auto = 0;
  bool manual = false, automatic = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c == '}') {
      if (i + 1 < s.size() && s[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      Raise(heap(), ExcType::kValueError, "Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = s.find('}', i + 1);
    if (close == std::u32string::npos)
      RefuseNotModeled("str.format: an unclosed '{' field is not modeled");
    std::u32string field = s.substr(i + 1, close - i - 1);
    i = close;
    char32_t conversion = 's';
    if (size_t bang = field.find('!'); bang != std::u32string::npos) {
      if (bang + 2 != field.size() || (field[bang + 1] != 's' && field[bang + 1] != 'r'))
        RefuseNotModeled("str.format: a conversion other than !s and !r is not modeled");
      conversion = field[bang + 1];
      field.resize(bang);
    }
    if (field.find_first_of(U":{[.") != std::u32string::npos)
      RefuseNotModeled("str.format: a format spec, attribute or index in a field is not modeled");
    Value v;
    if (field.empty() ||
        std::all_of(field.begin(), field.end(), [](char32_t d) { return d >= '0' && d <= '9'; })) {
      size_t index = 0;
      if (field.empty()) {
        automatic = true;
        index = next_auto++;
      } else {
        manual = true;
        if (field.size() > 9)
          RefuseNotModeled("str.format: a field index this large is not modeled");
        index = std::stoul(Encode(field));
      }
      if (manual && automatic)
        RefuseNotModeled("str.format: automatic and manual field numbering mixed is not modeled");
      if (index >= args.positional.size()) {
        Raise(heap(), ExcType::kIndexError,
              fmt::format("Replacement index {} out of range for positional args tuple", index));
      }
      v = args.positional[index];
    } else {
      std::string name = Encode(field);
      for (const auto& [k, value] : args.keywords) {
        if (k == name) v = value;
      }
      if (!v)
        throw PyError(heap().NewException(ExcType::kKeyError, heap().NewTuple({heap().Str(name)})));
    }
    out += Decode(conversion == 'r' ? ProgramRepr(v) : ProgramStr(v));
  }
  return Str32(out);
}

void StrMethods::Install() {
  Def("split", [this](std::u32string s, CallArgs& args) {
    ExpectCount(args, "split", 0, 2, Style::kTuple);
    Value sep = args.positional.empty() ? nullptr : args.positional[0];
    Value maxsplit = args.positional.size() > 1 ? args.positional[1] : nullptr;
    for (const auto& [k, v] : args.keywords) {
      if (k == "sep")
        sep = v;
      else if (k == "maxsplit")
        maxsplit = v;
      else
        Raise(heap(), ExcType::kTypeError,
              fmt::format("'{}' is an invalid keyword argument for split()", k));
    }
    return ListOf(Split(s, sep, maxsplit ? IntArg(maxsplit) : -1));
  });
  Def("strip",
      [this](std::u32string s, CallArgs& args) { return Strip(s, args, "strip", true, true); });
  Def("lstrip",
      [this](std::u32string s, CallArgs& args) { return Strip(s, args, "lstrip", true, false); });
  Def("rstrip",
      [this](std::u32string s, CallArgs& args) { return Strip(s, args, "rstrip", false, true); });
  Def("startswith",
      [this](std::u32string s, CallArgs& args) { return Affix(s, args, "startswith", true); });
  Def("endswith",
      [this](std::u32string s, CallArgs& args) { return Affix(s, args, "endswith", false); });
  Def("join", [this](std::u32string s, CallArgs& args) {
    NoKeywords(args, "join");
    ExpectCount(args, "join", 1, 1, Style::kMethod);
    std::u32string out;
    std::vector<Value> items;
    try {
      items = in_.Iterate(args.positional[0]);
    } catch (const PyError& e) {
      // PySequence_Fast's message; the subset's iterables raise nothing else while iterating.
      if (e.type() != ExcType::kTypeError) throw;
      Raise(heap(), ExcType::kTypeError, "can only join an iterable");
    }
    for (size_t i = 0; i < items.size(); ++i) {
      const auto* item = DynCast<PyStr>(items[i]);
      if (item == nullptr) {
        Raise(heap(), ExcType::kTypeError,
              fmt::format("sequence item {}: expected str instance, {} found", i,
                          TypeName(items[i])));
      }
      if (i > 0) out += s;
      out += Decode(item->value());
    }
    return Str32(out);
  });
  Def("replace", [this](std::u32string s, CallArgs& args) {
    NoKeywords(args, "replace");
    ExpectCount(args, "replace", 2, 3, Style::kClinic);
    std::u32string old = StrArg(args.positional[0], "replace() argument 1 must be str");
    std::u32string with = StrArg(args.positional[1], "replace() argument 2 must be str");
    int64_t count = args.positional.size() > 2 ? IntArg(args.positional[2]) : -1;
    std::u32string out;
    size_t i = 0;
    int64_t done = 0;
    if (old.empty()) {
      // An empty `old` matches before every character and at the end.
      for (; i <= s.size(); ++i) {
        if (count >= 0 && done == count) break;
        out += with;
        ++done;
        if (i < s.size()) out += s[i];
      }
      if (i < s.size()) out += s.substr(i);
      return Str32(out);
    }
    while (count < 0 || done < count) {
      size_t j = s.find(old, i);
      if (j == std::u32string::npos) break;
      out += s.substr(i, j - i) + with;
      i = j + old.size();
      ++done;
    }
    return Str32(out + s.substr(i));
  });
  Def("find", [this](std::u32string s, CallArgs& args) {
    return heap().Int(Find(s, SearchArgs(s, args, "find"), false));
  });
  Def("rfind", [this](std::u32string s, CallArgs& args) {
    return heap().Int(Find(s, SearchArgs(s, args, "rfind"), true));
  });
  Def("index", [this](std::u32string s, CallArgs& args) {
    int64_t at = Find(s, SearchArgs(s, args, "index"), false);
    if (at < 0) Raise(heap(), ExcType::kValueError, "substring not found");
    return heap().Int(at);
  });
  Def("count", [this](std::u32string s, CallArgs& args) {
    Search q = SearchArgs(s, args, "count");
    if (!q.bounds) return heap().Int(0);
    auto [b, e] = *q.bounds;
    if (q.sub.empty()) return heap().Int(static_cast<int64_t>(e - b + 1));
    int64_t n = 0;
    std::u32string_view window = std::u32string_view(s).substr(b, e - b);
    for (size_t at = window.find(q.sub); at != std::u32string_view::npos;
         at = window.find(q.sub, at + q.sub.size()))
      ++n;
    return heap().Int(n);
  });
  for (bool upper : {false, true}) {
    std::string_view name = upper ? "upper" : "lower";
    Def(name, [this, upper, name](std::u32string s, CallArgs& args) {
      NoKeywords(args, name);
      ExpectCount(args, name, 0, 0, Style::kMethod);
      RequireAsciiFor(s, std::string(name) + "()");
      for (char32_t& c : s) {
        if (upper && c >= 'a' && c <= 'z') c -= 'a' - 'A';
        if (!upper && c >= 'A' && c <= 'Z') c += 'a' - 'A';
      }
      return Str32(s);
    });
  }
  Def("format", [this](std::u32string s, CallArgs& args) { return Format(s, args); });
}

}  // namespace

// Each method's closure holds the installer (the heap drops them when the process ends).
void InstallStrMethods(Interpreter& in) { std::make_shared<StrMethods>(in)->Install(); }

}  // namespace tdc::runtime
