"""Values of a golden document (fixtures/SCHEMA.md §6) as Python values.

A tensor becomes a ``torch.Tensor`` of the recorded dtype, shape and strides when torch can
be imported, else a ``TensorValue`` whose ``values`` are nested lists of the shape. Values the
document only names (callables, reprs) become ``Named`` objects; nothing is guessed.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
from typing import Any


def torch_available() -> bool:
    """Whether torch can be imported (outputs as tensors, graphs as GraphModules)."""
    return importlib.util.find_spec("torch") is not None


@dataclasses.dataclass(frozen=True)
class TensorValue:
    """A tensor where torch is not importable: ``values`` nested to ``shape``."""

    dtype: str
    shape: list[int]
    strides: list[int]
    requires_grad: bool
    values: Any


@dataclasses.dataclass(frozen=True)
class Named:
    """A value the document records by name only: ``kind`` is ``callable`` (its
    ``__qualname__``) or ``repr`` (its normalized repr)."""

    kind: str
    text: str


def _element(x: Any) -> Any:
    """One tensor element: floats are float.hex strings or inf/-inf/nan; ints and bools as is."""
    if isinstance(x, str):
        return float(x) if x in ("inf", "-inf", "nan") else float.fromhex(x)
    return x


def _nest(flat: list[Any], shape: list[int]) -> Any:
    if not shape:
        return flat[0]
    step = math.prod(shape[1:])
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _tensor(body: dict) -> Any:
    flat = [_element(x) for x in body["values"]]
    if not torch_available():
        return TensorValue(body["dtype"], body["shape"], body["strides"], body["requires_grad"],
                           _nest(flat, body["shape"]))
    import torch

    dtype = getattr(torch, body["dtype"])
    dense = torch.tensor(flat, dtype=dtype).reshape(body["shape"])
    tensor = torch.empty_strided(body["shape"], body["strides"], dtype=dtype).copy_(dense)
    return tensor.requires_grad_(body["requires_grad"])


def decode(value: dict) -> Any:
    """The Python value of one encoded Value."""
    (kind, body), = value.items()
    if kind == "tensor":
        return _tensor(body)
    if kind in ("int", "bool", "str"):
        return body
    if kind == "float":
        return _element(body)
    if kind == "none":
        return None
    if kind == "ellipsis":
        return Ellipsis
    if kind == "tuple":
        return tuple(decode(x) for x in body)
    if kind == "list":
        return [decode(x) for x in body]
    if kind == "dict":
        return {decode(k): decode(v) for k, v in body}
    if kind in ("dtype", "device") and torch_available():
        import torch

        return getattr(torch, body) if kind == "dtype" else torch.device(body)
    return Named(kind, body)
