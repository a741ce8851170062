"""The target-name table of SCHEMA.md §7.1 (DESIGN.md D2): one table, one function.

FX stores a node's target as a live Python object (``torch.relu``, ``_operator.add``, an
``OpOverload``, the user's function). Goldens need a name that the C++ reference can
produce without those objects, so each kind of object maps to one canonical spelling.
The rows are tried in the order of the table below; the first that applies wins.
"""

import builtins
import operator
import types
from typing import Any, Callable

from conformance.oracle.normalize import normalize

# The namespaces searched for a torch builtin or function, in order (SCHEMA.md §7.1).
TORCH_NAMESPACES = (
    "torch",
    "torch.nn.functional",
    "torch.linalg",
    "torch.fft",
    "torch.special",
)


def _string_target(target: Any) -> str | None:
    """call_method / call_module / get_attr: FX already stores the name."""
    return target if isinstance(target, str) else None


def _op_overload(target: Any) -> str | None:
    """aten.<op>.<overload>, or <ns>.<op>.<overload> for a custom op."""
    import torch

    if isinstance(target, torch._ops.OpOverload):
        return f"{target.namespace}.{target._opname}.{target._overloadname}"
    if isinstance(target, torch._ops.OpOverloadPacket):
        return f"{target._qualified_op_name.replace('::', '.')}"
    return None


def _higher_order(target: Any) -> str | None:
    """higher_order.<name>."""
    import torch

    if isinstance(target, torch._ops.HigherOrderOperator):
        return f"higher_order.{target.name()}"
    return None


def _operator_function(target: Any) -> str | None:
    """operator.<name> for the functions of _operator / operator."""
    name = getattr(target, "__name__", None)
    if name and getattr(operator, name, None) is target:
        return f"operator.{name}"
    return None


def _python_builtin(target: Any) -> str | None:
    """builtins.<name> (len, getattr, ...)."""
    name = getattr(target, "__name__", None)
    if name and getattr(builtins, name, None) is target:
        return f"builtins.{name}"
    return None


def _torch_public(target: Any) -> str | None:
    """The public dotted path under the first of TORCH_NAMESPACES that holds target.

    Within one namespace the target's own ``__name__`` is preferred, then the
    alphabetically first public name bound to the same object.
    """
    import importlib

    name = getattr(target, "__name__", None)
    for module_name in TORCH_NAMESPACES:
        namespace = vars(importlib.import_module(module_name))
        if name and not name.startswith("_") and namespace.get(name) is target:
            return f"{module_name}.{name}"
        for key in sorted(namespace):
            if not key.startswith("_") and namespace[key] is target:
                return f"{module_name}.{key}"
    return None


def _user_function(target: Any) -> str | None:
    """A user function (allow_in_graph, nonstrict_trace): its __qualname__."""
    if isinstance(target, types.FunctionType):
        module = getattr(target, "__module__", None) or ""
        if module != "torch" and not module.startswith("torch."):
            return target.__qualname__
    return None


def _anything_else(target: Any) -> str:
    """<module>.<qualname>, normalized (§8)."""
    qualname = getattr(target, "__qualname__", None) or type(target).__qualname__
    module = getattr(target, "__module__", None)
    if module is None:
        owner = getattr(target, "__objclass__", None)  # method descriptors
        module = getattr(owner, "__module__", None)
    return normalize(f"{module}.{qualname}" if module else qualname)


# (row of SCHEMA.md §7.1, rule); the order is the table's precedence.
TABLE: tuple[tuple[str, Callable[[Any], str | None]], ...] = (
    ("call_method / call_module / get_attr name", _string_target),
    ("ATen or custom op overload", _op_overload),
    ("higher-order op", _higher_order),
    ("operator module function", _operator_function),
    ("Python builtin", _python_builtin),
    ("torch builtin or function", _torch_public),
    ("user function", _user_function),
)


ANYTHING_ELSE = "anything else"


def classify(target: Any) -> tuple[str, str]:
    """Returns (row of the table that applies, canonical name)."""
    for row, rule in TABLE:
        name = rule(target)
        if name is not None:
            return row, name
    return ANYTHING_ELSE, _anything_else(target)


def canonical_target(target: Any) -> str:
    """Returns the canonical name of an FX node target (SCHEMA.md §7.1)."""
    return classify(target)[1]
