#include "reference/runtime/interp/tensor_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "reference/runtime/interp/interpreter.h"
#include "reference/runtime/not_modeled.h"
#include "reference/runtime/walk_path.h"

namespace tdc::runtime {

namespace {

// nullopt for a value the op table has no kind for (a str, a function, ...), or a list or
// tuple met inside itself (torch's argument parser takes no list as a tensor or scalar).
std::optional<OpValue> ToOpValue(const Value& v, WalkPath& path) {
  switch (v->kind()) {
    case ObjectKind::kNone:
      return OpValue::None();
    case ObjectKind::kBool:
    case ObjectKind::kInt:
    case ObjectKind::kFloat:
      return OpValue::Of(ScalarOf(v));
    case ObjectKind::kTensor:
      return OpValue::Of(TensorOf(v));
    case ObjectKind::kDType:
      return OpValue::OfDType(DynCast<PyDType>(v)->dtype());
    case ObjectKind::kList:
    case ObjectKind::kTuple: {
      if (IsInside(path, v)) return std::nullopt;
      Inside inside(path, v);
      std::vector<OpValue> items;
      const auto& source = v->kind() == ObjectKind::kList ? DynCast<PyList>(v)->items()
                                                          : DynCast<PyTuple>(v)->items();
      for (const Value& item : source) {
        std::optional<OpValue> converted = ToOpValue(item, path);
        if (!converted) return std::nullopt;
        items.push_back(std::move(*converted));
      }
      return v->kind() == ObjectKind::kList ? OpValue::List(std::move(items))
                                            : OpValue::Tuple(std::move(items));
    }
    case ObjectKind::kStr:
    case ObjectKind::kDict:
    case ObjectKind::kCell:
    case ObjectKind::kFunction:
    case ObjectKind::kBuiltin:
    case ObjectKind::kModule:
    case ObjectKind::kException:
    case ObjectKind::kType:
    case ObjectKind::kInstance:
    case ObjectKind::kMethod:
      break;
  }
  return std::nullopt;
}

std::optional<OpValue> ToOpValue(const Value& v) {
  WalkPath path;
  return ToOpValue(v, path);
}

}  // namespace

// Positions count from 1, as torch's own argument errors count them.
OpArgs ToOpArgs(std::string_view op_name, const CallArgs& args) {
  OpArgs out;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    std::optional<OpValue> v = ToOpValue(args.positional[i]);
    if (!v) {
      RefuseNotModeled(
          fmt::format("{}() with an argument of type '{}' (position {}) is not modeled", op_name,
                      TypeName(args.positional[i]), i + 1));
    }
    out.positional.push_back(std::move(*v));
  }
  for (const auto& [name, value] : args.keywords) {
    // A device by name: the reference computes on the CPU only. torch's CPU build raises for
    // "cuda"; "meta" or "cpu:0" would make other tensors or other graph arguments.
    if (name == "device" && Is<PyStr>(value)) {
      const std::string& device = DynCast<PyStr>(value)->value();
      if (device != "cpu") {
        RefuseNotModeled(
            fmt::format("{}(device='{}') is not modeled: the reference computes on the CPU only",
                        op_name, device));
      }
      out.keywords.emplace_back(name, OpValue::CpuDevice());
      continue;
    }
    std::optional<OpValue> v = ToOpValue(value);
    if (!v) {
      RefuseNotModeled(fmt::format("{}({}=...) with an argument of type '{}' is not modeled",
                                   op_name, name, TypeName(value)));
    }
    out.keywords.emplace_back(name, std::move(*v));
  }
  return out;
}

namespace {

// The object of the tensor `result` aliases among the inputs: its _base when it has one.
Ref<PyTensor> BaseFor(const Tensor& result, const std::vector<Value>& inputs) {
  for (const Value& v : inputs) {
    if (auto* t = DynCast<PyTensor>(v); t != nullptr && t->tensor().SharesStorageWith(result)) {
      return t->base() ? t->base() : Ref<PyTensor>(t);
    }
  }
  return nullptr;
}

bool SameView(const Tensor& a, const Tensor& b) {
  return a.storage == b.storage && a.sizes == b.sizes && a.strides == b.strides &&
         a.storage_offset == b.storage_offset && a.dtype == b.dtype;
}

}  // namespace

const Tensor& TensorOf(const Value& v) { return DynCast<PyTensor>(v)->tensor(); }

Scalar ScalarOf(const Value& v) {
  if (const auto* b = DynCast<PyBool>(v)) return Scalar::Bool(b->value());
  if (const auto* i = DynCast<PyInt>(v)) return Scalar::Int(i->value());
  return Scalar::Float(DynCast<PyFloat>(v)->value());
}

Value NumberValue(Interpreter& in, const Scalar& s) {
  if (s.dtype == DType::kBool) return in.heap().Bool(s.b);
  if (s.dtype == DType::kInt64) return in.heap().Int(s.i);
  return in.heap().Float(s.AsDouble());
}

namespace {

// A list result of numbers and lists (Tensor.tolist()) as Python lists.
Value ListValue(Interpreter& in, const OpValue& list) {
  std::vector<Value> items;
  for (const OpValue& item : list.items) {
    items.push_back(item.kind == OpValue::Kind::kList ? ListValue(in, item)
                                                      : NumberValue(in, item.scalar));
  }
  return in.heap().NewList(std::move(items));
}

}  // namespace

Value WrapTensor(Interpreter& in, Tensor t) { return in.heap().NewTensor(std::move(t)); }

void NotifyTensorOp(Interpreter& in, const OpCallSite& site, const CallArgs& as_called,
                    const Value& result) {
  if (OpObserver* observer = in.process().compiler.op_observer)
    observer->OnTensorOp(site, as_called, result);
}

Value CallTensorOpAt(Interpreter& in, const OpCallSite& site, const OpInfo& op, Surface surface,
                     CallArgs args) {
  if (in.process().compiler.op_observer == nullptr)
    return CallTensorOp(in, op, surface, std::move(args));
  CallArgs as_called = args;
  Value result = CallTensorOp(in, op, surface, std::move(args));
  OpCallSite reached = site;
  reached.op = &op;
  NotifyTensorOp(in, reached, as_called, result);
  return result;
}

namespace {

// torch's meta kernels of the shifts (_meta_registrations.shift_dtype_check) reject a bool
// tensor on either side, which the CPU kernels promote: Dynamo, running the op on fake tensors,
// raises where eager computes (probed).
bool FakeKernelRejects(const OpInfo& op, const OpArgs& args) {
  if (op.name != "lshift" && op.name != "rshift") return false;
  auto is_bool_tensor = [](const OpValue& v) {
    return v.kind == OpValue::Kind::kTensor && v.tensor.dtype == DType::kBool;
  };
  return std::ranges::any_of(args.positional, is_bool_tensor) ||
         std::ranges::any_of(args.keywords,
                             [&](const auto& kw) { return is_bool_tensor(kw.second); });
}

}  // namespace

Value CallTensorOp(Interpreter& in, const OpInfo& op, Surface surface, CallArgs args) {
  // Dynamo runs a traced op on fake tensors first: an error there is TorchRuntimeError
  // "Dynamo failed to run FX node with fake tensors", raised by the compile (probed), which no
  // try block of the traced code catches.
  auto refuse_if_traced = [&in, &op](std::string_view what) {
    const OpObserver* observer = in.process().compiler.op_observer;
    if (observer == nullptr || !observer->RecordsOps()) return;
    RefuseNotModeled(
        fmt::format("{} {} in traced code (torch 2.13.0 raises TorchRuntimeError from the compile)",
                    op.name, what));
  };
  OpValue result;
  try {
    OpArgs converted = ToOpArgs(op.name, args);
    if (FakeKernelRejects(op, converted)) refuse_if_traced("of a bool tensor");
    result = CallOp(op, surface, std::move(converted.positional), std::move(converted.keywords));
  } catch (const TorchError& error) {
    refuse_if_traced("raising an error");
    // A Python exception wherever the op was reached from (an operator too, not only a call).
    throw ToPyError(in.heap(), error);
  } catch (const PyError&) {
    refuse_if_traced("raising an error");
    throw;
  }
  // Autograd's flag: a floating result of a differentiable op on a tensor that requires
  // grad requires grad too, while grad mode is on (factories like zeros_like do not
  // differentiate their input).
  auto needs_grad = [](const Value& v) { return Is<PyTensor>(v) && TensorOf(v).requires_grad; };
  const bool grad = in.process().grad_enabled && !op.Has(kFactory) &&
                    (std::any_of(args.positional.begin(), args.positional.end(), needs_grad) ||
                     std::any_of(args.keywords.begin(), args.keywords.end(),
                                 [&](const auto& keyword) { return needs_grad(keyword.second); }));
  auto mark = [grad](Tensor& t) { t.requires_grad = grad && IsFloating(t.dtype); };
  if (result.kind == OpValue::Kind::kTensor) mark(result.tensor);
  for (OpValue& item : result.items) {
    if (item.kind == OpValue::Kind::kTensor) mark(item.tensor);
  }
  switch (result.kind) {
    case OpValue::Kind::kTensor: {
      // contiguous() of a contiguous tensor returns the same object.
      for (const Value& v : args.positional) {
        if (Is<PyTensor>(v) && op.Has(kMayAlias) && SameView(TensorOf(v), result.tensor)) return v;
      }
      Ref<PyTensor> base = BaseFor(result.tensor, args.positional);
      return in.heap().NewTensor(std::move(result.tensor), std::move(base));
    }
    case OpValue::Kind::kScalar:
      return NumberValue(in, result.scalar);
    case OpValue::Kind::kTuple: {
      std::vector<Value> items;
      for (OpValue& item : result.items) {
        // torch.max(x, dim)'s (values, indices) is a tuple of new tensors.
        if (item.kind == OpValue::Kind::kTensor) {
          Ref<PyTensor> base = BaseFor(item.tensor, args.positional);
          items.push_back(in.heap().NewTensor(std::move(item.tensor), std::move(base)));
        } else {
          items.push_back(NumberValue(in, item.scalar));
        }
      }
      return in.heap().NewTuple(std::move(items), op.name == "size");  // x.size(): a torch.Size
    }
    case OpValue::Kind::kList:
      return ListValue(in, result);
    case OpValue::Kind::kNone:
    case OpValue::Kind::kDType:
    case OpValue::Kind::kCpuDevice:
      break;
  }
  return in.heap().None();
}

}  // namespace tdc::runtime
