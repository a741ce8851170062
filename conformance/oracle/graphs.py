"""Canonical graph form v1 (SCHEMA.md §7, DESIGN.md D2) from an FX GraphModule.

The same form holds the Dynamo graph a backend receives and the ATen graph AOT autograd
produces from it: FX node names are dropped, arguments refer to earlier nodes by index,
targets are named by the one table of names.py, placeholders carry what the example value
says (type, shape, dtype, requires_grad) and, in Dynamo graphs, the source Dynamo read
the input from (``L['x']``).
"""

from typing import Any

from conformance.oracle import names, values


def _source_name(node: Any) -> str | None:
    """Dynamo's source of a placeholder: node._dynamo_source, else meta['grapharg']."""
    source = getattr(node, "_dynamo_source", None)
    if source is None:
        grapharg = node.meta.get("grapharg")
        source = getattr(grapharg, "source", None)
    if source is None:
        return None
    name = source.name
    return name() if callable(name) else name


def _placeholder(node: Any, dynamo: bool) -> dict:
    import torch

    meta = node.meta
    example = meta.get("example_value", meta.get("val"))
    is_tensor = isinstance(example, torch.Tensor)
    return {
        "op": "placeholder",
        "type": "tensor" if is_tensor else type(example).__name__,
        "shape": [int(s) for s in example.shape] if is_tensor else None,
        "dtype": values.dtype_name(example.dtype) if is_tensor else None,
        "requires_grad": bool(example.requires_grad) if is_tensor else None,
        "source": _source_name(node) if dynamo else None,
    }


def canonical_graph(gm: Any, dynamo: bool) -> dict:
    """Returns {"nodes": [...]} for a GraphModule.

    Args:
      gm: the torch.fx.GraphModule.
      dynamo: True for a Dynamo graph (placeholders carry sources), False for ATen.
    """
    import torch

    index: dict[Any, int] = {}

    def arg(v: Any) -> dict | None:
        if isinstance(v, torch.fx.Node):
            return {"ref": index[v]}
        if isinstance(v, slice):
            return {"slice": [encode_arg(v.start), encode_arg(v.stop), encode_arg(v.step)]}
        if isinstance(v, torch.layout):
            return {"layout": str(v).removeprefix("torch.")}
        if isinstance(v, torch.memory_format):
            return {"memory_format": str(v).removeprefix("torch.")}
        if isinstance(v, torch.Tensor):  # not an Arg kind: a constant tensor is a get_attr
            return {"repr": f"tensor(dtype={values.dtype_name(v.dtype)}, shape={list(v.shape)})"}
        return None

    def encode_arg(v: Any) -> dict:
        return values.encode(v, extra=arg)

    nodes = []
    for i, node in enumerate(gm.graph.nodes):
        index[node] = i
        if node.op == "placeholder":
            nodes.append(_placeholder(node, dynamo))
        elif node.op == "output":
            nodes.append({"op": "output", "args": [encode_arg(a) for a in node.args]})
        else:
            nodes.append({
                "op": node.op,
                "target": names.canonical_target(node.target),
                "args": [encode_arg(a) for a in node.args],
                "kwargs": {k: encode_arg(v) for k, v in node.kwargs.items()},
            })
    return {"nodes": nodes}


def op_count(gm: Any) -> int:
    """Nodes whose op contains "call", as torch._dynamo.testing.CompileCounter counts."""
    return sum(1 for node in gm.graph.nodes if "call" in node.op)
