// A value's tensors and a value as a graph node's argument: the two walks through a call's
// arguments that the graph builder and Dynamo's calls share (declared in graph_builder.h).
#include <functional>

#include "reference/dynamo/graph_builder.h"
#include "reference/runtime/interp/slices.h"
#include "reference/runtime/walk_path.h"

namespace tdc::dynamo {

using runtime::DynCast;
using runtime::Inside;
using runtime::PyTensor;
using runtime::RefuseIfInside;
using runtime::WalkPath;

namespace {

void CollectTensors(const Value& v, std::vector<const PyTensor*>& out, WalkPath& path) {
  if (const auto* t = DynCast<PyTensor>(v)) {
    out.push_back(t);
    return;
  }
  const auto* tuple = DynCast<runtime::PyTuple>(v);
  const auto* list = DynCast<runtime::PyList>(v);
  const auto* dict = DynCast<runtime::PyDict>(v);
  if (tuple == nullptr && list == nullptr && dict == nullptr) return;
  RefuseIfInside(path, v, "a container holding itself, walked for the tensors it holds");
  Inside inside(path, v);
  if (tuple != nullptr) {
    for (const Value& item : tuple->items()) CollectTensors(item, out, path);
  } else if (list != nullptr) {
    for (const Value& item : list->items()) CollectTensors(item, out, path);
  } else {
    for (const auto& [key, value] : dict->Items()) CollectTensors(value, out, path);
  }
}

}  // namespace

void CollectTensors(const Value& v, std::vector<const PyTensor*>& out) {
  WalkPath path;
  CollectTensors(v, out, path);
}

std::vector<const PyTensor*> TensorsOf(const CallArgs& args) {
  std::vector<const PyTensor*> out;
  for (const Value& v : args.positional) CollectTensors(v, out);
  for (const auto& [name, v] : args.keywords) CollectTensors(v, out);
  return out;
}

namespace {

graph::Arg ArgOf(const Value& v, const std::function<int64_t(const PyTensor&)>& ref_of,
                 WalkPath& path) {
  using graph::Arg;
  switch (v->kind()) {
    case runtime::ObjectKind::kNone:
      return Arg::None();
    case runtime::ObjectKind::kBool:
      return Arg::Bool(DynCast<runtime::PyBool>(v)->value());
    case runtime::ObjectKind::kInt:
      return Arg::Int(DynCast<runtime::PyInt>(v)->value());
    case runtime::ObjectKind::kFloat:
      return Arg::Float(DynCast<runtime::PyFloat>(v)->value());
    case runtime::ObjectKind::kStr:
      return Arg::Str(DynCast<runtime::PyStr>(v)->value());
    case runtime::ObjectKind::kTensor:
      return Arg::Ref(ref_of(*DynCast<PyTensor>(v)));
    case runtime::ObjectKind::kDType: {
      Arg arg;
      arg.kind = graph::ValueKind::kDtype;
      arg.dtype = DynCast<runtime::PyDType>(v)->dtype();
      return arg;
    }
    case runtime::ObjectKind::kTuple:
    case runtime::ObjectKind::kList: {
      RefuseIfInside(path, v, "a list or tuple holding itself, as an argument of a graph's node");
      Inside inside(path, v);
      bool tuple = v->kind() == runtime::ObjectKind::kTuple;
      const auto& items =
          tuple ? DynCast<runtime::PyTuple>(v)->items() : DynCast<runtime::PyList>(v)->items();
      std::vector<Arg> args;
      for (const Value& item : items) args.push_back(ArgOf(item, ref_of, path));
      return Arg::Sequence(tuple ? graph::ValueKind::kTuple : graph::ValueKind::kList,
                           std::move(args));
    }
    case runtime::ObjectKind::kInstance:
      // A tensor index's slice and Ellipsis (SCHEMA §7: {"slice": [start, stop, step]}).
      if (std::optional<runtime::SliceParts> parts = runtime::SliceOf(v)) {
        Arg arg;
        arg.kind = graph::ValueKind::kSlice;
        arg.items = {ArgOf(parts->start, ref_of, path), ArgOf(parts->stop, ref_of, path),
                     ArgOf(parts->step, ref_of, path)};
        return arg;
      }
      if (runtime::IsEllipsis(v)) {
        Arg arg;
        arg.kind = graph::ValueKind::kEllipsis;
        return arg;
      }
      break;
    case runtime::ObjectKind::kDict:
    case runtime::ObjectKind::kCell:
    case runtime::ObjectKind::kFunction:
    case runtime::ObjectKind::kBuiltin:
    case runtime::ObjectKind::kModule:
    case runtime::ObjectKind::kException:
    case runtime::ObjectKind::kType:
    case runtime::ObjectKind::kMethod:
      break;
  }
  Arg arg;
  arg.kind = graph::ValueKind::kRepr;
  arg.text = std::string(runtime::TypeName(v));
  return arg;
}

}  // namespace

graph::Arg ArgOf(const Value& v, const std::function<int64_t(const PyTensor&)>& ref_of) {
  WalkPath path;
  return ArgOf(v, ref_of, path);
}

}  // namespace tdc::dynamo
