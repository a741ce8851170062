"""Records torch 2.13.0's behaviour for the runtime's tensor tests.

Writes reference/runtime/testdata/tensor_cases.json: for each case the inputs (dtype,
sizes, strides, storage offset and storage values; floats as float.hex()), the op and
its arguments, and what torch returned (dtype, sizes, strides, values, whether it
aliases its input) or raised (exception type and message). Run with the venv python:

    ATEN_CPU_CAPABILITY=default .venv/bin/python reference/runtime/testing/make_tensor_cases.py
"""

import json
import os
import pathlib

os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")

import torch  # noqa: E402

torch.set_num_threads(1)

OUT = pathlib.Path(__file__).resolve().parent.parent / "testdata" / "tensor_cases.json"
DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
          "bool": torch.bool}
NAMES = {v: k for k, v in DTYPES.items()}


def encode(v, dtype):
    if dtype.is_floating_point:
        return float(v).hex()
    if dtype == torch.bool:
        return bool(v)
    return int(v)


def make(dtype, sizes, strides=None, offset=0, seed=0):
    """A deterministic tensor; with strides, a strided view of a larger storage."""
    if strides is None:
        n = 1
        for s in sizes:
            n *= s
        strides = torch.empty(sizes).stride()
        storage_n = n
    else:
        storage_n = offset + 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
    i = torch.arange(storage_n, dtype=torch.float64)
    if dtype == torch.bool:
        base = ((i * 7 + seed) % 3) == 0
    elif dtype == torch.int64:
        base = ((i * 5 + seed) % 11 - 5).to(torch.int64)
    else:
        base = (((i * 0.37 + seed * 0.11) % 2.9) - 1.3).to(dtype)
    return torch.as_strided(base, sizes, strides, offset)


def tensor_json(t):
    base = t.untyped_storage()
    store = torch.empty(0, dtype=t.dtype).set_(base)
    return {"kind": "tensor", "dtype": NAMES[t.dtype], "sizes": list(t.shape),
            "strides": list(t.stride()), "offset": t.storage_offset(),
            "storage": [encode(v, t.dtype) for v in store.tolist()]}


def arg_json(a):
    if isinstance(a, torch.Tensor):
        return tensor_json(a)
    if isinstance(a, bool):
        return {"kind": "bool", "value": a}
    if isinstance(a, int):
        return {"kind": "int", "value": a}
    return {"kind": "float", "value": float(a).hex()}


def result_json(r, inputs):
    if not isinstance(r, torch.Tensor):
        return {"scalar": arg_json(r)}
    flat = r.reshape(-1).tolist() if r.numel() else []
    aliases = any(isinstance(a, torch.Tensor)
                  and a.untyped_storage().data_ptr() == r.untyped_storage().data_ptr()
                  for a in inputs)
    return {"dtype": NAMES[r.dtype], "sizes": list(r.shape), "strides": list(r.stride()),
            "offset": r.storage_offset(), "aliases_input": aliases,
            "values": [encode(v, r.dtype) for v in flat]}


CASES = []


def case(op, inputs, params=None, fn=None, check_values=True):
    params = params or {}
    rec = {"op": op, "inputs": [arg_json(a) for a in inputs], "params": params,
           "check_values": check_values}
    try:
        rec["expect"] = result_json(fn(*inputs), inputs)
    except Exception as e:  # the error is the recorded outcome
        rec["error"] = {"type": type(e).__name__, "message": str(e)}
    CASES.append(rec)


def binary_cases():
    ops = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
           "pow": torch.pow, "eq": torch.eq, "ne": torch.ne, "lt": torch.lt,
           "le": torch.le, "gt": torch.gt, "ge": torch.ge}
    for name, f in ops.items():
        for da in DTYPES.values():
            for db in DTYPES.values():
                a = make(da, [2, 3])
                b = make(db, [3], seed=1)
                if name == "pow" and da.is_floating_point:
                    a = a.abs() + 0.5
                case(name, [a, b], fn=f)
            for s in [True, 3, -2, 0.1, 2.5]:
                case(name, [make(da, [2, 3]), s], fn=f)
        # Broadcasting, strided and 0-dim operands.
        case(name, [make(torch.float32, [4, 1]), make(torch.float32, [3], seed=2)], fn=f)
        case(name, [make(torch.float32, [3, 2]).t(), make(torch.float32, [2, 3], seed=3)],
             fn=f)
        case(name, [make(torch.int64, [2, 3]), make(torch.float64, [], seed=2)], fn=f)
        case(name, [make(torch.float32, [2, 3]), make(torch.float32, [2], seed=2)], fn=f)


def unary_cases():
    for name in ["neg", "abs", "relu", "sigmoid", "tanh", "sin", "cos", "tan", "exp",
                 "log", "sqrt"]:
        f = getattr(torch, name)
        for d in DTYPES.values():
            case(name, [make(d, [3, 4])], fn=f)
        case(name, [make(torch.float32, [4, 3]).t()], fn=f)
        case(name, [make(torch.float64, [2, 5], strides=[7, 2], offset=1)], fn=f)


def where_cases():
    c = make(torch.bool, [2, 3], seed=1)
    for da in DTYPES.values():
        for db in DTYPES.values():
            case("where", [c, make(da, [2, 3]), make(db, [3], seed=2)], fn=torch.where)
        case("where", [c, make(da, [2, 3]), 1.5], fn=torch.where)
        case("where", [c, make(da, [2, 3]), 7], fn=torch.where)
    case("where", [make(torch.float32, [3]), make(torch.float32, [3]), 1.0], fn=torch.where)


def view_cases():
    a = make(torch.float32, [2, 3, 4])
    t = a.transpose(0, 2)
    for shape in [[6, 4], [-1], [4, -1, 2], [2, 3, 4, 1], [5, -1], [-1, -1], [1, 24]]:
        case("view", [a], {"shape": shape}, lambda x, s=shape: x.view(s))
        case("reshape", [a], {"shape": shape}, lambda x, s=shape: x.reshape(s))
    for shape in [[12, 2], [4, 6], [-1], [4, 3, 2]]:
        case("view", [t], {"shape": shape}, lambda x, s=shape: x.view(s))
        case("reshape", [t], {"shape": shape}, lambda x, s=shape: x.reshape(s))
    case("view", [make(torch.float32, [])], {"shape": [1, 1]}, lambda x: x.view(1, 1))
    case("view", [make(torch.float32, [0, 3])], {"shape": [3, 0]}, lambda x: x.view(3, 0))
    case("view", [make(torch.int64, [2, 1, 3], strides=[3, 7, 1])], {"shape": [6]},
         lambda x: x.view(6))
    for d0, d1 in [(0, 1), (0, 2), (-1, 0), (1, 3)]:
        case("transpose", [a], {"dim0": d0, "dim1": d1}, lambda x, p=d0, q=d1: x.transpose(p, q))
    for dims in [[2, 0, 1], [0, 1], [0, 0, 1], [-1, 1, 0]]:
        case("permute", [a], {"dims": dims}, lambda x, d=dims: x.permute(d))
    b = make(torch.float64, [3, 1])
    for shape in [[3, 4], [2, 3, 4], [-1, 5], [4, 1], [1], [-1, 3, 1]]:
        case("expand", [b], {"shape": shape}, lambda x, s=shape: x.expand(s))
    c = make(torch.int64, [1, 3, 1, 2])
    case("squeeze", [c], {}, lambda x: x.squeeze())
    for d in [0, 1, 2, -2, 4]:
        case("squeeze_dim", [c], {"dim": d}, lambda x, d=d: x.squeeze(d))
    for d in [0, 2, 4, -1, 5]:
        case("unsqueeze", [c], {"dim": d}, lambda x, d=d: x.unsqueeze(d))
    case("unsqueeze", [make(torch.float32, [3, 2]).t()], {"dim": 1}, lambda x: x.unsqueeze(1))
    inputs = [a, t, a[:, ::2], make(torch.float32, [2, 1, 3]).transpose(0, 2),
              b.expand(2, 3, 4), make(torch.float32, [4, 3]).t()[::2],
              make(torch.bool, [3, 4], strides=[1, 3])]
    for x in inputs:
        case("contiguous", [x], {}, lambda y: y.contiguous())
        case("clone", [x], {}, lambda y: y.clone())
        case("ones_like", [x], {}, torch.ones_like)
        case("zeros_like", [x], {}, torch.zeros_like)
        case("empty_like", [x], {}, torch.empty_like, check_values=False)


def constructor_cases():
    for start, end, step in [(0, 10, 1), (0, 5, 2), (1.0, 2.0, 0.1), (-1.5, 3.7, 0.37),
                             (0, 1, 0.1), (10, 0, -3), (0.5, 17.0, 1.3), (5, 1, 1), (0, 3, 0)]:
        for dt in [None, "float32", "float64", "int64"]:
            p = {"start": arg_json(start), "end": arg_json(end), "step": arg_json(step),
                 "dtype": dt}
            case("arange", [], p, lambda s=start, e=end, st=step, d=dt: torch.arange(
                s, e, st, dtype=DTYPES[d] if d else None))
    for start, end, steps in [(0, 1, 5), (-1.3, 2.7, 7), (0, 1, 100), (3, -2, 11), (1, 1, 1),
                              (0.1, 0.9, 0), (-7, 13.25, 33), (0, 10, 4)]:
        for dt in [None, "float64", "int64"]:
            p = {"start": arg_json(start), "end": arg_json(end), "steps": steps, "dtype": dt}
            case("linspace", [], p, lambda s=start, e=end, n=steps, d=dt: torch.linspace(
                s, e, n, dtype=DTYPES[d] if d else None))
    for v, dt in [(2.5, None), (3, None), (True, None), (-1.25, "float64"), (7, "float32"),
                  (0.7, "int64"), (2, "bool")]:
        p = {"shape": [2, 3], "value": arg_json(v), "dtype": dt}
        case("full", [], p, lambda v=v, d=dt: torch.full([2, 3], v, dtype=DTYPES[d] if d else None))
    for dt in [None, "float64", "int64", "bool"]:
        p = {"shape": [3, 2], "dtype": dt}
        case("ones", [], p, lambda d=dt: torch.ones(3, 2, dtype=DTYPES[d] if d else None))
        case("zeros", [], p, lambda d=dt: torch.zeros(3, 2, dtype=DTYPES[d] if d else None))
    for data in [[[1, 2], [3, 4]], [1.5, 2, True], [True, False], [[0.1, 0.2, 0.3]], 3, 2.5,
                 [[1, 2], [3.0, 4]], []]:
        for dt in [None, "float64"]:
            p = {"data": data, "dtype": dt}
            case("tensor", [], p, lambda x=data, d=dt: torch.tensor(x, dtype=DTYPES[d] if d else None))


def reduction_cases():
    for name in ["sum", "mean", "amax"]:
        f = getattr(torch, name)
        for d in DTYPES.values():
            x = make(d, [3, 4, 5])
            for dims, keep in [(None, False), ([0], False), ([1, 2], True), ([-1], True),
                               ([0, 0], False)]:
                p = {"dims": dims, "keepdim": keep}
                if dims is None:
                    case(name, [x], p, lambda y, f=f: f(y))
                else:
                    case(name, [x], p, lambda y, f=f, ds=dims, k=keep: f(y, ds, keepdim=k))
        case(name, [make(torch.float32, [4, 3]).t()], {"dims": [1], "keepdim": False},
             lambda y, f=f: f(y, [1]))
        case(name, [make(torch.float32, [0, 3])], {"dims": None, "keepdim": False},
             lambda y, f=f: f(y))


def misc_cases():
    for da, db in [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                   ((5, 2, 3), (5, 3, 4)), ((2, 1, 2, 3), (3, 3, 2)), ((2, 3), (2, 3)),
                   ((3,), (2,)), ((4, 2, 3), (3,))]:
        for d in [torch.float32, torch.float64, torch.int64]:
            case("matmul", [make(d, list(da)), make(d, list(db), seed=1)], {}, torch.matmul)
    case("matmul", [make(torch.float32, [3, 2]).t(), make(torch.float32, [3, 2], seed=1)], {},
         torch.matmul)
    for tensors, dim in [([[2, 3], [2, 3]], 0), ([[2, 3], [2, 1]], 1), ([[2, 3], [3, 3]], 1),
                         ([[2, 3], [0], [1, 3]], 0), ([[2, 3], [2, 3]], -1)]:
        ts = [make(torch.float32, s, seed=i) for i, s in enumerate(tensors)]
        case("cat", ts, {"dim": dim}, lambda *xs, d=dim: torch.cat(xs, d))
    case("cat", [make(torch.int64, [2, 2]), make(torch.float64, [1, 2]), make(torch.bool, [1, 2])],
         {"dim": 0}, lambda *xs: torch.cat(xs, 0))
    case("cat", [make(torch.float32, [])], {"dim": 0}, lambda *xs: torch.cat(xs, 0))
    for x in [make(torch.int64, [3, 4]), make(torch.bool, [2, 3, 2]), make(torch.float32, [5]),
              make(torch.int64, []), make(torch.float32, [4, 3]).t()]:
        case("nonzero", [x], {}, torch.nonzero)
    for x in [make(torch.float32, []), make(torch.int64, [1, 1]), make(torch.bool, [1]),
              make(torch.float64, [2, 3])]:
        case("item", [x], {}, lambda y: y.item())


def result_type_cases():
    """torch.result_type for every pair of {tensor, 0-dim tensor, Python scalar}."""
    operands = []
    for name, d in DTYPES.items():
        operands.append(("tensor", name, make(d, [2])))
        operands.append(("zerodim", name, make(d, [])))
    operands += [("scalar", "bool", True), ("scalar", "int", 3), ("scalar", "float", 1.5)]
    table = []
    for ka, na, a in operands:
        for kb, nb, b in operands:
            row = {"a": [ka, na], "b": [kb, nb]}
            try:
                row["result"] = NAMES[torch.result_type(a, b)]
            except Exception as e:  # recorded in case a pair is rejected
                row["error"] = type(e).__name__
            table.append(row)
    return table


def main():
    binary_cases()
    unary_cases()
    where_cases()
    view_cases()
    constructor_cases()
    reduction_cases()
    misc_cases()
    doc = {"torch": torch.__version__, "capability": os.environ["ATEN_CPU_CAPABILITY"],
           "cases": CASES, "result_type": result_type_cases()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
