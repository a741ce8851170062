// torch._dynamo.utils.counters as torch 2.13.0 has it: a collections.defaultdict(Counter)
// of category -> key -> count that Dynamo counts into while it compiles (CompilerState::
// counters, compiler_contract.h). The reference counts the categories of
// kModeledCategories exactly (of "frames" under Dynamo its "total" only; "resumes" until
// Dynamo makes a resume function where the count was not probed: MarkNotExact); the others
// torch fills ("stats", "unimplemented", ...) are refused on read, and so is anything that
// depends on which categories exist (len(counters), iterating it, `in`), since torch makes them as
// it compiles (DESIGN D13).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>

#include "reference/runtime/interp/apis_support.h"
#include "reference/runtime/interp/library.h"
#include "reference/runtime/interp/stdlib_modules_support.h"

namespace tdc::runtime {
namespace {

// "graph_break": key = the break's formatted message (gb type, explanation, hints, context,
// link), count = how many frame compiles took that break (SEMANTICS §8, R-gb-counter).
// "frames": its "total" only under Dynamo: the frames handed to ConvertFrame, resume
// functions' included (eval_frame.cc, resume_functions.cc; golden
// graph_break/frames_total_counter).
// "resumes": key = a resume function's name, count = how many times a compile made its
// code (torch counts each in create_call_resume_at; resume_functions.cc's CountResumeCodes).
constexpr std::array<std::string_view, 3> kModeledCategories = {"graph_break", "frames", "resumes"};

[[noreturn]] void RefuseUnmodeled(std::string_view what) {
  RefuseNotModeled(fmt::format("torch._dynamo.utils.counters: {} is not modeled", what));
}

// Whether `counter` is counters["frames"] under Dynamo, of which only "total" is counted (the
// eager run counts nothing into it: every read of it is right there).
bool TotalOnly(Interpreter& in, const DynamoCounters::Counter& counter) {
  if (!in.process().compiler.make_compile_wrapper) return false;
  for (const auto& [name, c] : in.process().compiler.counters.categories) {
    if (c.get() == &counter) return name == "frames";
  }
  return false;
}

// The Counter objects the program has seen, one per category counter (so that
// counters["graph_break"] is counters["graph_break"], as in torch).
struct CounterViews {
  Ref<PyType> type;
  std::vector<std::pair<std::shared_ptr<DynamoCounters::Counter>, Ref<PyInstance>>> views;

  Value ViewOf(Interpreter& in, const std::shared_ptr<DynamoCounters::Counter>& counter) {
    for (const auto& [c, view] : views) {
      if (c == counter) return view;
    }
    Ref<PyInstance> view = in.heap().NewInstance(type);
    view->repr_not_modeled = true;  // Counter({...}) shows live counts
    return views.emplace_back(counter, std::move(view)).second;
  }
  DynamoCounters::Counter& CounterOf(const Value& view) const {
    for (const auto& [c, v] : views) {
      if (Value(v) == view) return *c;
    }
    throw std::logic_error("a Counter view without its counter");
  }
};

// Reading counters inside a compiled region is Dynamo tracing torch's own module state,
// which the reference does not model.
void RefuseInCompiledRegion(Interpreter& in) {
  if (in.process().compiler.eval_frame_callback) RefuseUnmodeled("a read inside a compiled region");
}

void ExpectPositional(Interpreter& in, const CallArgs& args, std::string_view name, size_t min,
                      size_t max) {
  size_t given = args.positional.size() - 1;  // self
  if (!args.keywords.empty()) RefuseUnmodeled(fmt::format("{}() with keywords", name));
  if (given < min || given > max) {
    Raise(in.heap(), ExcType::kTypeError,
          min == max ? fmt::format("{}() takes exactly {} argument{} ({} given)", name, min,
                                   min == 1 ? "" : "s", given)
                     : fmt::format("{} expected at most {} argument{}, got {}", name, max,
                                   max == 1 ? "" : "s", given));
  }
}

// collections.Counter over one category: a dict of str -> int whose missing keys read 0.
void InstallCounterMethods(Interpreter& in, const std::shared_ptr<CounterViews>& views) {
  const Ref<PyType>& type = views->type;
  // `whole`: the read depends on every key (len, iteration, `in`), which counters["frames"]
  // under Dynamo does not model (only its "total" is counted).
  auto counter_of = [views, &in](const CallArgs& args,
                                 bool whole = true) -> DynamoCounters::Counter& {
    RefuseInCompiledRegion(in);
    DynamoCounters::Counter& counter = views->CounterOf(args.positional.at(0));
    if (whole && TotalOnly(in, counter)) RefuseUnmodeled("counters['frames'] beyond its 'total'");
    if (auto why = in.process().compiler.counters.WhyNotExact(counter)) RefuseNotModeled(*why);
    return counter;
  };
  // Every key Dynamo counts is a str; another key's hashing is not modeled here.
  auto find = [&in](DynamoCounters::Counter& counter, const Value& key) -> int64_t* {
    const auto* k = DynCast<PyStr>(key);
    if (k == nullptr) RefuseUnmodeled(fmt::format("a {} key", TypeName(key)));
    if (TotalOnly(in, counter) && k->value() != "total") {
      RefuseUnmodeled(fmt::format("counters['frames'][{}]", Repr(key)));
    }
    for (auto& [name, count] : counter) {
      if (name == k->value()) return &count;
    }
    return nullptr;
  };
  AddMethod(in, type, "__getitem__", [&in, counter_of, find](CallArgs& args) {
    ExpectPositional(in, args, "__getitem__", 1, 1);
    const int64_t* count = find(counter_of(args, false), args.positional[1]);
    return in.heap().Int(count != nullptr ? *count : 0);  // Counter.__missing__
  });
  AddMethod(in, type, "__setitem__",
            [](CallArgs&) -> Value { RefuseUnmodeled("writing a Counter's item"); });
  AddMethod(in, type, "__len__", [&in, counter_of](CallArgs& args) {
    return in.heap().Int(static_cast<int64_t>(counter_of(args).size()));
  });
  AddMethod(in, type, "__contains__", [&in, counter_of, find](CallArgs& args) {
    ExpectPositional(in, args, "__contains__", 1, 1);
    return in.heap().Bool(find(counter_of(args), args.positional[1]) != nullptr);
  });
  auto keys = [&in, counter_of](CallArgs& args) {
    std::vector<Value> out;
    for (const auto& [k, n] : counter_of(args)) out.push_back(in.heap().Str(k));
    return Value(in.heap().NewList(std::move(out)));
  };
  // Iterating a Counter gives its keys; keys()/values()/items() give views in CPython,
  // lists here (what len(), iteration, `in` and sum() read of them is the same).
  AddMethod(in, type, "__iter_items__", keys);
  AddMethod(in, type, "keys", keys);
  AddMethod(in, type, "values", [&in, counter_of](CallArgs& args) {
    std::vector<Value> out;
    for (const auto& [k, n] : counter_of(args)) out.push_back(in.heap().Int(n));
    return Value(in.heap().NewList(std::move(out)));
  });
  AddMethod(in, type, "items", [&in, counter_of](CallArgs& args) {
    std::vector<Value> out;
    for (const auto& [k, n] : counter_of(args))
      out.push_back(in.heap().NewTuple({in.heap().Str(k), in.heap().Int(n)}));
    return Value(in.heap().NewList(std::move(out)));
  });
  AddMethod(in, type, "get", [&in, counter_of, find](CallArgs& args) {
    ExpectPositional(in, args, "get", 1, 2);
    const int64_t* count = find(counter_of(args, false), args.positional[1]);
    if (count != nullptr) return in.heap().Int(*count);
    return args.positional.size() > 2 ? args.positional[2] : in.heap().None();
  });
  AddMethod(in, type, "clear", [&in, counter_of](CallArgs& args) {
    counter_of(args, false).clear();
    return in.heap().None();
  });
  RefuseOtherAttributes(in, type);
}

}  // namespace

void InstallDynamoCounters(Interpreter& in) {
  auto views = std::make_shared<CounterViews>();
  views->type = LibraryClass(in, "Counter", "collections");
  InstallCounterMethods(in, views);
  Ref<PyType> defaultdict = LibraryClass(in, "defaultdict", "collections");
  AddMethod(in, defaultdict, "__getitem__", [&in, views](CallArgs& args) {
    ExpectPositional(in, args, "__getitem__", 1, 1);
    RefuseInCompiledRegion(in);
    const auto* category = DynCast<PyStr>(args.positional[1]);
    if (category == nullptr || std::find(kModeledCategories.begin(), kModeledCategories.end(),
                                         category->value()) == kModeledCategories.end()) {
      RefuseUnmodeled(fmt::format("category {}", Repr(args.positional[1])));
    }
    return views->ViewOf(in, in.process().compiler.counters.Category(category->value()));
  });
  AddMethod(in, defaultdict, "clear", [&in](CallArgs& args) {
    ExpectPositional(in, args, "clear", 0, 0);
    RefuseInCompiledRegion(in);
    in.process().compiler.counters.categories.clear();
    return in.heap().None();
  });
  // Which categories exist depends on everything torch counts.
  for (std::string_view name : {"__len__", "__contains__", "__iter_items__", "__setitem__"}) {
    AddMethod(in, defaultdict, name,
              [name](CallArgs&) -> Value { RefuseUnmodeled(fmt::format("counters.{}", name)); });
  }
  RefuseOtherAttributes(in, defaultdict);
  Ref<PyInstance> counters = in.heap().NewInstance(defaultdict);
  counters->repr_not_modeled = true;
  in.process().modules()[ModuleId::kTorchDynamoUtils]->SetAttr("counters", counters);
}

}  // namespace tdc::runtime
