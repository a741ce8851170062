"""Records torch 2.13.0's values for every op of the runtime's op table (ops.def).

Run as `ci/oracle op-values`. Writes reference/runtime/testdata/ops/<op>.json for each
ops.def row: calls of the op through each of its surfaces (`torch.<function>(...)`,
`tensor.<method>(...)`) with their arguments (tensors with dtype, sizes, strides,
storage offset and storage values; floats as float.hex(); lists, tuples, dtypes, None)
and what torch returned (a tensor's dtype, sizes, strides, offset, values and whether
it aliases an input; a tuple of tensors as {"tuple": [...]}; a complex tensor as
torch.view_as_real of it with "complex": true, SEMANTICS.md §5.6; any other value) or
raised (exception type and message). Also
writes testdata/result_type.json (torch.result_type over operand kinds). An op without
a case generator here is an error, as is a generator for an op the table lacks, and an
op whose `function` column is not the canonical Dynamo target (fixtures/SCHEMA.md §7.1).
Computed under ATEN_CPU_CAPABILITY=default with one thread, and MKL's conditional numerical
reproducibility (MKL_CBWR=COMPATIBLE): torch computes tan, log, sqrt, fft and matmul through
MKL, whose code path, and so the last bit of some values, otherwise depends on the CPU (seen
2026-12-02: five ops' files stale on an AVX-512 machine, four of them fresh again under
COMPATIBLE).
Even under COMPATIBLE, MKL picks its code path by CPU vendor: on an AMD EPYC machine sqrt gave
the correctly rounded float32 0x1.7bb59ap-1 where the committed file, recorded on an Intel
machine, has 0x1.7bb598p-1 (seen 2026-12-05). So --check lets a result value of the ops MKL
computes (CPU_DEPENDENT_OPS) differ from the committed one by at most one unit in the last
place of its dtype, and says how many did; everything else must be byte-identical.
"""

import json
import os
import pathlib
import re
import sys

os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")
os.environ.setdefault("MKL_CBWR", "COMPATIBLE")  # read when torch loads MKL

import numpy  # noqa: E402
import torch  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from conformance.oracle import names  # noqa: E402

torch.set_num_threads(1)

RUNTIME = ROOT / "reference" / "runtime"
OUT_DIR = RUNTIME / "testdata" / "ops"
DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
          "bool": torch.bool}
NAMES = {v: k for k, v in DTYPES.items()}
ROW = re.compile(r'^TDC_OP\((\w+), (\w+), "([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)", (.+)\)$')


def read_table():
    """ops.def's rows: name → (function, method)."""
    table = {}
    for line in (RUNTIME / "ops.def").read_text().splitlines():
        m = ROW.match(line)
        if m:
            table[m.group(1)] = (m.group(3), m.group(4))
    return table


def encode(v, dtype):
    if dtype.is_floating_point:
        return float(v).hex()
    if dtype == torch.bool:
        return bool(v)
    return int(v)


def make(dtype, sizes, strides=None, offset=0, seed=0):
    """A deterministic tensor; with strides, a strided view of a larger storage."""
    if strides is None:
        strides = torch.empty(sizes).stride()
        storage_n = 1
        for s in sizes:
            storage_n *= s
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


def value_json(a):
    """A call argument or a non-tensor result, as the C++ test reads it."""
    if isinstance(a, torch.Tensor):
        store = torch.empty(0, dtype=a.dtype).set_(a.untyped_storage())
        return {"kind": "tensor", "dtype": NAMES[a.dtype], "sizes": list(a.shape),
                "strides": list(a.stride()), "offset": a.storage_offset(),
                "storage": [encode(v, a.dtype) for v in store.tolist()]}
    if a is None:
        return {"kind": "none"}
    if isinstance(a, torch.dtype):
        return {"kind": "dtype", "value": NAMES[a]}
    if isinstance(a, bool):
        return {"kind": "bool", "value": a}
    if isinstance(a, int):
        return {"kind": "int", "value": a}
    if isinstance(a, float):
        return {"kind": "float", "value": a.hex()}
    if isinstance(a, (list, tuple)):  # torch.Size is a tuple
        return {"kind": "list" if isinstance(a, list) else "tuple",
                "items": [value_json(x) for x in a]}
    raise TypeError(f"cannot record {type(a).__name__}")


def tensors_in(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from tensors_in(a)


def result_json(r, args):
    if isinstance(r, tuple) and r and all(isinstance(x, torch.Tensor) for x in r):
        # A tuple of tensors (torch.return_types.max is one): each recorded as a result.
        return {"tuple": [result_json(x, args) for x in r]}
    if isinstance(r, torch.Tensor) and r.is_complex():
        # The runtime has no complex dtype (SEMANTICS.md §5.6): view_as_real of the result.
        return {**result_json(torch.view_as_real(r), args), "complex": True}
    if not isinstance(r, torch.Tensor):
        return {"value": value_json(r)}
    flat = r.reshape(-1).tolist() if r.numel() else []
    ptr = r.untyped_storage().data_ptr()
    aliases = any(a.untyped_storage().data_ptr() == ptr for a in tensors_in(args))
    return {"dtype": NAMES[r.dtype], "sizes": list(r.shape), "strides": list(r.stride()),
            "offset": r.storage_offset(), "aliases_input": aliases,
            "values": [encode(v, r.dtype) for v in flat]}


class Recorder:
    """Collects the calls of one op through its surfaces."""

    def __init__(self, name, function, method):
        self.name, self.function_name, self.method_name = name, function, method
        self.cases = []

    def _record(self, surface, fn, args, kwargs, check_values):
        rec = {"surface": surface, "args": [value_json(a) for a in args],
               "kwargs": {k: value_json(v) for k, v in kwargs.items()},
               "check_values": check_values}
        try:
            rec["expect"] = result_json(fn(*args, **kwargs), args)
            if not check_values:  # uninitialized memory (empty_like): not recorded
                rec["expect"].pop("values", None)
        except Exception as e:  # the error is the recorded outcome
            rec["error"] = {"type": type(e).__name__, "message": str(e)}
        self.cases.append(rec)

    def function(self, *args, check_values=True, **kwargs):
        fn = torch
        for part in self.function_name.split(".")[1:]:
            fn = getattr(fn, part)
        self._record("function", fn, args, kwargs, check_values)

    def method(self, receiver, *args, check_values=True, **kwargs):
        def call(recv, *rest, **kw):
            return getattr(recv, self.method_name)(*rest, **kw)
        self._record("method", call, (receiver,) + args, kwargs, check_values)

    def call(self, *args, check_values=True, **kwargs):
        """Through every surface the op has: torch.op(*args) and args[0].op(*args[1:])."""
        if self.function_name:
            self.function(*args, check_values=check_values, **kwargs)
        if self.method_name:
            self.method(*args, check_values=check_values, **kwargs)


GENERATORS = {}


def generates(*ops):
    def register(f):
        for op in ops:
            GENERATORS[op] = f
        return f
    return register


@generates("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge")
def binary(r):
    for da in DTYPES.values():
        for db in DTYPES.values():
            a = make(da, [2, 3])
            if r.name == "pow" and da.is_floating_point:
                a = a.abs() + 0.5
            r.function(a, make(db, [3], seed=1))
        for s in [True, 3, -2, 0.1, 2.5]:
            r.function(make(da, [2, 3]), s)
    # Broadcasting, strided and 0-dim operands, through both surfaces.
    r.call(make(torch.float32, [4, 1]), make(torch.float32, [3], seed=2))
    r.call(make(torch.float32, [3, 2]).t(), make(torch.float32, [2, 3], seed=3))
    r.call(make(torch.int64, [2, 3]), make(torch.float64, [], seed=2))
    r.call(make(torch.float32, [2, 3]), make(torch.float32, [2], seed=2))
    r.method(make(torch.float64, [3]), 1.5)


@generates("lshift", "rshift")
def shift(r):
    """Tensor.__lshift__ / __rshift__: shift amounts past the width and negative ones, tensor
    amounts with broadcasting, a bool tensor (promoted by an int), and the dtypes without a
    kernel (float, a float amount, two bool tensors)."""
    x = torch.tensor([1, -8, 5, 2**62, -1, 0])
    for amount in [0, 1, 3, 63, 64, 65, -1, -64, True]:
        r.method(x, amount)
    r.method(x, torch.tensor([1, 64, -1, 2, 70, 3]))
    r.method(make(torch.int64, [2, 3]), make(torch.int64, [3], seed=1).abs() % 5)
    r.method(torch.tensor([True, False]), 2)
    for a, b in [(make(torch.float32, [3]), 1), (x, 1.5), (torch.tensor([True]), torch.tensor([True])),
                 (x, make(torch.float64, [6]))]:
        r.method(a, b)


@generates("neg", "abs", "relu", "sigmoid", "tanh", "sin", "cos", "tan", "exp", "log", "sqrt")
def unary(r):
    for d in DTYPES.values():
        r.function(make(d, [3, 4]))
    r.call(make(torch.float32, [4, 3]).t())
    r.call(make(torch.float64, [2, 5], strides=[7, 2], offset=1))


@generates("gelu")
def gelu(r):
    for d in DTYPES.values():
        r.function(make(d, [3, 4]))
    r.function(make(torch.float32, [4, 3]).t())
    r.function(make(torch.float64, [2, 5], strides=[7, 2], offset=1))
    r.function(torch.linspace(-6.0, 6.0, 25))
    r.function(input=make(torch.float32, [2, 2]))


@generates("where")
def where(r):
    c = make(torch.bool, [2, 3], seed=1)
    for da in DTYPES.values():
        for db in DTYPES.values():
            r.function(c, make(da, [2, 3]), make(db, [3], seed=2))
        r.function(c, make(da, [2, 3]), 1.5)
        r.function(c, make(da, [2, 3]), 7)
    r.function(make(torch.float32, [3]), make(torch.float32, [3]), 1.0)
    r.method(make(torch.float32, [2, 3]), c, make(torch.float32, [3], seed=2))
    r.method(make(torch.int64, [2, 3]), c, 2.5)


@generates("view", "reshape")
def reshape_like(r):
    a = make(torch.float32, [2, 3, 4])
    t = a.transpose(0, 2)
    for shape in [[6, 4], [-1], [4, -1, 2], [2, 3, 4, 1], [5, -1], [-1, -1], [1, 24]]:
        r.method(a, shape)
    for shape in [[12, 2], [4, 6], [-1], [4, 3, 2]]:
        r.method(t, shape)
    r.method(a, 6, 4)      # sizes as separate ints
    r.method(a, (4, 6))    # sizes as a tuple
    r.method(make(torch.float32, []), [1, 1])
    r.method(make(torch.float32, [0, 3]), [3, 0])
    r.method(make(torch.int64, [2, 1, 3], strides=[3, 7, 1]), [6])
    if r.function_name:
        r.function(t, [4, 6])
        r.function(a, (24,))


@generates("transpose")
def transpose(r):
    a = make(torch.float32, [2, 3, 4])
    for d0, d1 in [(0, 1), (0, 2), (-1, 0), (1, 3)]:
        r.call(a, d0, d1)


@generates("permute")
def permute(r):
    a = make(torch.float32, [2, 3, 4])
    for dims in [[2, 0, 1], [0, 1], [0, 0, 1], [-1, 1, 0]]:
        r.call(a, dims)
    r.method(a, 1, 2, 0)


@generates("expand")
def expand(r):
    b = make(torch.float64, [3, 1])
    for shape in [[3, 4], [2, 3, 4], [-1, 5], [4, 1], [1], [-1, 3, 1]]:
        r.method(b, shape)
    r.method(b, 2, 3, 2)


@generates("squeeze")
def squeeze(r):
    c = make(torch.int64, [1, 3, 1, 2])
    r.call(c)
    for d in [0, 1, 2, -2, 4]:
        r.call(c, d)


@generates("unsqueeze")
def unsqueeze(r):
    c = make(torch.int64, [1, 3, 1, 2])
    for d in [0, 2, 4, -1, 5]:
        r.call(c, d)
    r.call(make(torch.float32, [3, 2]).t(), 1)


def layout_inputs():
    a = make(torch.float32, [2, 3, 4])
    b = make(torch.float64, [3, 1])
    return [a, a.transpose(0, 2), a[:, ::2], make(torch.float32, [2, 1, 3]).transpose(0, 2),
            b.expand(2, 3, 4), make(torch.float32, [4, 3]).t()[::2],
            make(torch.bool, [3, 4], strides=[1, 3])]


@generates("contiguous", "clone", "ones_like", "zeros_like", "empty_like")
def layout(r):
    for x in layout_inputs():
        r.call(x, check_values=r.name != "empty_like")
    if r.name.endswith("_like"):
        r.function(make(torch.int64, [2, 3]), dtype=torch.float64,
                   check_values=r.name != "empty_like")


@generates("arange")
def arange(r):
    for start, end, step in [(0, 10, 1), (0, 5, 2), (1.0, 2.0, 0.1), (-1.5, 3.7, 0.37),
                             (0, 1, 0.1), (10, 0, -3), (0.5, 17.0, 1.3), (5, 1, 1), (0, 3, 0)]:
        for dt in [None, torch.float32, torch.float64, torch.int64]:
            r.function(start, end, step, dtype=dt)
    r.function(5)
    r.function(2.5)
    r.function(1, 4)
    r.function(0, 1, step=0.25, dtype=torch.float64)


@generates("linspace")
def linspace(r):
    for start, end, steps in [(0, 1, 5), (-1.3, 2.7, 7), (0, 1, 100), (3, -2, 11), (1, 1, 1),
                              (0.1, 0.9, 0), (-7, 13.25, 33), (0, 10, 4)]:
        for dt in [None, torch.float64, torch.int64]:
            r.function(start, end, steps, dtype=dt)


@generates("full")
def full(r):
    for v, dt in [(2.5, None), (3, None), (True, None), (-1.25, torch.float64),
                  (7, torch.float32), (0.7, torch.int64), (2, torch.bool)]:
        r.function([2, 3], v, dtype=dt)
    r.function((4,), 1.5)


@generates("ones", "zeros")
def ones_zeros(r):
    for dt in [None, torch.float64, torch.int64, torch.bool]:
        r.function([3, 2], dtype=dt)
    r.function(3, 2)
    r.function((2, 0, 1))
    r.function([])


@generates("tensor")
def tensor(r):
    for data in [[[1, 2], [3, 4]], [1.5, 2, True], [True, False], [[0.1, 0.2, 0.3]], 3, 2.5,
                 [[1, 2], [3.0, 4]], [], [[1, 2], [3]]]:
        for dt in [None, torch.float64]:
            r.function(data, dtype=dt)


@generates("sum", "mean", "amax")
def reductions(r):
    for d in DTYPES.values():
        x = make(d, [3, 4, 5])
        r.function(x)
        for dims, keep in [([0], False), ([1, 2], True), ([-1], True), ([0, 0], False)]:
            r.function(x, dims, keepdim=keep)
    x = make(torch.float32, [3, 4, 5])
    r.method(x, 1)
    r.method(x, (0, 2), True)
    r.call(make(torch.float32, [4, 3]).t(), [1])
    r.call(make(torch.float32, [0, 3]))


@generates("max")
def max_(r):
    nan = float("nan")
    for d in DTYPES.values():
        x = make(d, [3, 4, 5])
        r.call(x)
        for dim, keep in [(0, False), (1, True), (-1, False), (2, True)]:
            r.call(x, dim, keep)
    x = torch.tensor([[1.0, nan, 3.0, nan], [nan, 2.0, 2.0, 0.5], [4.0, 4.0, -1.0, 4.0]])
    r.call(x)
    for dim in [0, 1]:
        r.call(x, dim)
    r.call(make(torch.int64, [6, 4]), 0)
    r.call(make(torch.float32, [4, 3]).t(), 1)
    r.call(make(torch.float32, [3, 4]), 1, keepdim=True)
    r.call(make(torch.float32, []))
    r.call(make(torch.float32, []), 0)
    r.call(make(torch.float32, [3, 4]), 2)
    empty = torch.empty(0, 3)  # (max(empty, 1) is left out: torch's empty results share
    r.call(empty)              # data_ptr 0, which the alias check would read as a view)
    for dim in [0, -2]:
        r.call(empty, dim)


@generates("vector_norm")
def vector_norm(r):
    for d in DTYPES.values():
        r.function(make(d, [3, 4]))
    x = make(torch.float32, [3, 4, 5])
    inf = float("inf")
    for ord_ in [2, 1, 0, inf, -inf, 3, 0.5, -1, 2.5]:
        r.function(x, ord_)
    r.function(x, 2, [1], True)
    r.function(x, 2, -1)
    r.function(x, dim=(0, 2))
    r.function(x, ord=inf, dim=1, keepdim=True)
    r.function(make(torch.float64, [2, 5], strides=[7, 2], offset=1))
    r.function(make(torch.float32, [4, 3]).t(), 1, 0)
    r.function(torch.linspace(-1.0, 2.0, 4))
    r.function(torch.empty(0))
    r.function(torch.empty(0), inf)
    r.function(input=make(torch.float32, [2, 2]))


@generates("fft")
def fft(r):
    for d in DTYPES.values():
        r.function(make(d, [4]))
    x = make(torch.float32, [3, 5])
    r.function(x)
    r.function(x, 8)
    r.function(x, 3)
    r.function(x, dim=0)
    r.function(x, None, -2)
    y = make(torch.float32, [2, 3, 4]).permute(2, 0, 1)
    for dim in [0, 1, 2]:
        r.function(y, dim=dim)
        r.function(y, 5, dim)
    r.function(y, 1, 0)
    r.function(make(torch.float32, [4, 3]).t())
    r.function(make(torch.float64, [2, 6]))
    r.function(make(torch.float32, [16], seed=3))
    r.function(torch.linspace(0.5, 2.0, 4))
    r.function(torch.linspace(1.0, 4.0, 4))
    r.function(make(torch.float32, []))
    r.function(x, 0)
    r.function(input=make(torch.float32, [3]))


@generates("matmul")
def matmul(r):
    for da, db in [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                   ((5, 2, 3), (5, 3, 4)), ((2, 1, 2, 3), (3, 3, 2)), ((2, 3), (2, 3)),
                   ((3,), (2,)), ((4, 2, 3), (3,))]:
        for d in [torch.float32, torch.float64, torch.int64]:
            r.function(make(d, list(da)), make(d, list(db), seed=1))
    r.call(make(torch.float32, [3, 2]).t(), make(torch.float32, [3, 2], seed=1))


@generates("cat")
def cat(r):
    for shapes, dim in [([[2, 3], [2, 3]], 0), ([[2, 3], [2, 1]], 1), ([[2, 3], [3, 3]], 1),
                        ([[2, 3], [0], [1, 3]], 0), ([[2, 3], [2, 3]], -1)]:
        r.function([make(torch.float32, s, seed=i) for i, s in enumerate(shapes)], dim)
    r.function((make(torch.int64, [2, 2]), make(torch.float64, [1, 2]),
                make(torch.bool, [1, 2])))
    r.function([make(torch.float32, [])], 0)


@generates("nonzero")
def nonzero(r):
    for x in [make(torch.int64, [3, 4]), make(torch.bool, [2, 3, 2]), make(torch.float32, [5]),
              make(torch.int64, []), make(torch.float32, [4, 3]).t()]:
        r.call(x)


@generates("item")
def item(r):
    for x in [make(torch.float32, []), make(torch.int64, [1, 1]), make(torch.bool, [1]),
              make(torch.float64, [2, 3])]:
        r.method(x)


@generates("tolist")
def tolist(r):
    for x in [make(torch.float32, [2, 3]), make(torch.int64, []), make(torch.bool, [3]),
              make(torch.float64, [3, 2]).t(), make(torch.int64, [0, 2])]:
        r.method(x)


@generates("size", "dim", "numel")
def metadata(r):
    for x in [make(torch.float32, [2, 3, 4]), make(torch.int64, []),
              make(torch.float32, [4, 3]).t()]:
        r.call(x)
    if r.name == "size":
        for d in [0, -1, 3]:
            r.method(make(torch.float32, [2, 3, 4]), d)
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


def json_text(doc):
    """One top-level entry per line, so a re-recording diffs by case."""
    lines = []
    for key in sorted(doc):
        v = doc[key]
        if isinstance(v, list):
            items = ",\n".join(json.dumps(x, sort_keys=True) for x in v)
            lines.append(f"{json.dumps(key)}: [\n{items}\n]")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(v, sort_keys=True)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# The ops torch computes through MKL on the CPU, whose last bit depends on the CPU (above).
CPU_DEPENDENT_OPS = {"tan", "log", "sqrt", "fft", "matmul"}
NUMPY_FLOATS = {"float32": numpy.float32, "float64": numpy.float64}


def one_ulp_apart(a, b, dtype):
    """Whether two recorded floats (float.hex) of `dtype` are at most one ULP apart."""
    x, y = (NUMPY_FLOATS[dtype](float.fromhex(v)) for v in (a, b))
    return bool(numpy.isfinite(x) and numpy.isfinite(y)
                and abs(x - y) <= numpy.spacing(max(abs(x), abs(y))))


def cpu_rounding_only(committed, recorded):
    """How many result values differ, each by one ULP, if that is all two recordings of a
    CPU-dependent op differ in; None if they differ in anything else."""
    if committed.keys() != recorded.keys() or len(committed["cases"]) != len(recorded["cases"]):
        return None
    ulps = 0
    for old, new in zip(committed["cases"], recorded["cases"]):
        old_values = old.get("expect", {}).get("values")
        new_values = new.get("expect", {}).get("values")
        dtype = new.get("expect", {}).get("dtype")
        same_rest = ({**old, "expect": {**old["expect"], "values": None}} if old_values else old) \
            == ({**new, "expect": {**new["expect"], "values": None}} if new_values else new)
        if not same_rest or (old_values is None) != (new_values is None):
            return None
        if old_values is None or old_values == new_values:
            continue
        if dtype not in NUMPY_FLOATS or len(old_values) != len(new_values):
            return None
        for a, b in zip(old_values, new_values):
            if a != b:
                if not one_ulp_apart(a, b, dtype):
                    return None
                ulps += 1
    return ulps


def fresh(path, text, op):
    """Whether the committed file at `path` is what torch gives now (`text`); for a
    CPU-dependent op, one-ULP differences in result values are reported and allowed."""
    if not path.exists():
        return False
    committed = path.read_text()
    if committed == text:
        return True
    if op not in CPU_DEPENDENT_OPS:
        return False
    ulps = cpu_rounding_only(json.loads(committed), json.loads(text))
    if ulps is None:
        return False
    print(f"{path.name}: {ulps} value(s) one ULP from the committed ones "
          "(this CPU's MKL code path)")
    return True


def write_atomically(path, text):
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def check_targets(table):
    """The function column is the canonical Dynamo target of the torch function itself."""
    bad = []
    for name, (function, _) in table.items():
        if function:
            obj = torch
            for part in function.split(".")[1:]:
                obj = getattr(obj, part)
            if names.canonical_target(obj) != function:
                bad.append(f"{name}: {function} is canonically {names.canonical_target(obj)}")
    return bad


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        print("usage: record_op_values.py [--check]", file=sys.stderr)
        return 2
    table = read_table()
    problems = check_targets(table)
    problems += [f"{op}: no case generator" for op in table if op not in GENERATORS]
    problems += [f"{op}: a generator for an op ops.def lacks" for op in GENERATORS
                 if op not in table]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    meta = {"torch": torch.__version__, "capability": os.environ["ATEN_CPU_CAPABILITY"]}
    files = {}
    ops_of = {}
    total = 0
    for name, (function, method) in table.items():
        r = Recorder(name, function, method)
        GENERATORS[name](r)
        files[OUT_DIR / f"{name}.json"] = json_text({"op": name, **meta, "cases": r.cases})
        ops_of[OUT_DIR / f"{name}.json"] = name
        total += len(r.cases)
    files[RUNTIME / "testdata" / "result_type.json"] = json_text(
        {**meta, "result_type": result_type_cases()})
    stale = [p for p in OUT_DIR.glob("*.json") if p not in files]
    if check:
        # --check: the committed files are exactly what torch gives now.
        differ = [p for p, text in files.items() if not fresh(p, text, ops_of.get(p))]
        for p in differ + stale:
            print(f"stale: {p.relative_to(ROOT)} (run ci/oracle op-values)", file=sys.stderr)
        print(f"op values: {len(files) - len(differ)} fresh, {len(differ) + len(stale)} stale")
        return 1 if differ or stale else 0
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.unlink()
    for p, text in files.items():
        write_atomically(p, text)
    print(f"wrote {total} calls of {len(table)} ops to {OUT_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
