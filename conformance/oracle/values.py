"""Value encoding of SCHEMA.md §6: what a fixture's ``out`` names held, as JSON.

Every value becomes an object with exactly one key naming its kind, so the C++ side can
read it without guessing. Floating-point numbers are written with ``float.hex`` so no
digit is lost or invented on the way; the comparator applies the tolerances.
"""

import math
import types
from typing import Any, Callable

from conformance.oracle.normalize import normalize

_CALLABLE_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
)


def hex_float(x: float) -> str:
    """float.hex, with every NaN written "nan" (SCHEMA.md §6)."""
    if math.isnan(x):
        return "nan"
    return float.hex(x)


def dtype_name(dtype: Any) -> str:
    """torch.float32 -> "float32"."""
    return str(dtype).removeprefix("torch.")


def encode_tensor(t: Any) -> dict:
    """{"tensor": {dtype, shape, strides, requires_grad, values}}, or a repr when the
    tensor's elements are not real numbers (complex, quantized, sparse: not covered)."""
    import torch

    if t.layout != torch.strided or t.is_complex() or t.is_quantized or t.is_meta:
        return {"repr": normalize(repr(t))}
    flat = t.detach().reshape(-1).tolist()
    if t.is_floating_point():
        values = [hex_float(v) for v in flat]
    else:
        values = flat  # ints as JSON integers, bools as JSON booleans
    return {"tensor": {
        "dtype": dtype_name(t.dtype),
        "shape": list(t.shape),
        "strides": list(t.stride()),
        "requires_grad": bool(t.requires_grad),
        "values": values,
    }}


def _is_callable(v: Any) -> bool:
    """Functions, builtins and wrappers (anything callable that is neither a class nor a
    plain object with __call__ only) whose __qualname__ names them."""
    if isinstance(v, type) or not callable(v):
        return False
    if isinstance(v, _CALLABLE_TYPES):
        return True
    # functools.wraps-style wrappers (torch.compile's, torch.compiler.disable's).
    return hasattr(v, "__wrapped__") and isinstance(getattr(v, "__qualname__", None), str)


def encode(v: Any, extra: Callable[[Any], dict | None] | None = None) -> dict:
    """Encodes one value (SCHEMA.md §6).

    Args:
      v: the value.
      extra: tried first on every (nested) value; graphs.py passes one that encodes node
        references, slices, layouts and memory formats (the Arg kinds of §7).
    """
    import torch

    if extra is not None:
        special = extra(v)
        if special is not None:
            return special
    if isinstance(v, torch.Tensor):
        return encode_tensor(v)
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": hex_float(v)}
    if isinstance(v, str):
        return {"str": v}
    if v is None:
        return {"none": None}
    if v is Ellipsis:
        return {"ellipsis": None}
    if isinstance(v, tuple):  # torch.Size, named tuples and structseqs included
        return {"tuple": [encode(x, extra) for x in v]}
    if isinstance(v, list):
        return {"list": [encode(x, extra) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[encode(k, extra), encode(x, extra)] for k, x in v.items()]}
    if isinstance(v, torch.dtype):
        return {"dtype": dtype_name(v)}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if _is_callable(v):
        return {"callable": v.__qualname__}
    return {"repr": normalize(repr(v))}


def small_floats(value: dict, tolerant_dtypes: set[str]) -> list[str]:
    """Paths of nonzero float tensor elements with |v| < 1e-3 (DESIGN.md D1), skipping
    dtypes the header gives a tolerance for. `value` is an encoded Value."""
    found: list[str] = []

    def walk(v: dict, path: str) -> None:
        kind, body = next(iter(v.items()))
        if kind == "tensor":
            if body["dtype"] in tolerant_dtypes:
                return
            for i, x in enumerate(body["values"]):
                if isinstance(x, str) and x not in ("inf", "-inf", "nan"):
                    f = float.fromhex(x)
                    if f != 0.0 and abs(f) < 1e-3:
                        found.append(f"{path}.values[{i}] = {f!r}")
        elif kind in ("tuple", "list"):
            for i, x in enumerate(body):
                walk(x, f"{path}[{i}]")
        elif kind == "dict":
            for i, (_, x) in enumerate(body):
                walk(x, f"{path}[{i}]")

    walk(value, "")
    return found
