#include "reference/runtime/interp/py_binding.h"

#include <fmt/format.h>

#include "reference/runtime/heap.h"

namespace tdc::runtime {
namespace {

// "'a'", "'a' and 'b'", "'a', 'b', and 'c'" (CPython's format_missing).
std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

[[noreturn]] void Missing(Heap& heap, std::string_view qualname,
                          const std::vector<std::string>& names, std::string_view kind) {
  Raise(heap, ExcType::kTypeError,
        fmt::format("{}() missing {} required {} argument{}: {}", qualname, names.size(), kind,
                    names.size() == 1 ? "" : "s", NameList(names)));
}

}  // namespace

BoundCall BindCall(Heap& heap, std::string_view qualname, const ParamSpec& spec,
                   const CallArgs& args) {
  size_t n_positional = spec.positional.size();
  BoundCall bound;
  bound.params.resize(n_positional + spec.keyword_only.size());
  size_t given = args.positional.size();
  for (size_t i = 0; i < given; ++i) {
    if (i < n_positional) {
      bound.params[i] = args.positional[i];
    } else if (spec.varargs) {
      bound.extra_positional.push_back(args.positional[i]);
    }
  }
  for (const auto& [name, value] : args.keywords) {
    size_t index = bound.params.size();
    for (size_t i = spec.positional_only; i < n_positional; ++i) {
      if (spec.positional[i] == name) index = i;
    }
    for (size_t i = 0; i < spec.keyword_only.size(); ++i) {
      if (spec.keyword_only[i] == name) index = n_positional + i;
    }
    if (index == bound.params.size()) {
      if (!spec.varkw) {
        Raise(heap, ExcType::kTypeError,
              fmt::format("{}() got an unexpected keyword argument '{}'", qualname, name));
      }
      bound.extra_keywords.emplace_back(name, value);
      continue;
    }
    if (bound.params[index]) {
      Raise(heap, ExcType::kTypeError,
            fmt::format("{}() got multiple values for argument '{}'", qualname, name));
    }
    bound.params[index] = value;
  }
  if (given > n_positional && !spec.varargs) {
    size_t required = n_positional - spec.positional_defaults;
    std::string takes =
        spec.positional_defaults == 0
            ? fmt::format("{} positional argument{}", n_positional, n_positional == 1 ? "" : "s")
            : fmt::format("from {} to {} positional arguments", required, n_positional);
    Raise(heap, ExcType::kTypeError,
          fmt::format("{}() takes {} but {} {} given", qualname, takes, given,
                      given == 1 ? "was" : "were"));
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i + spec.positional_defaults < n_positional; ++i) {
    if (!bound.params[i]) missing.push_back(spec.positional[i]);
  }
  if (!missing.empty()) Missing(heap, qualname, missing, "positional");
  for (size_t i = 0; i < spec.keyword_only.size(); ++i) {
    if (!bound.params[n_positional + i] && !spec.keyword_only_has_default[i])
      missing.push_back(spec.keyword_only[i]);
  }
  if (!missing.empty()) Missing(heap, qualname, missing, "keyword-only");
  return bound;
}

}  // namespace tdc::runtime
