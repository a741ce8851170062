"""A canonical graph (fixtures/SCHEMA.md §7) as the torch.fx.GraphModule torch 2.13.0 hands a backend.

Dynamo level: placeholders named as Dynamo names them (`L['x']` -> target `L_x_`, name `l_x_`)
with `example_value` (a fake tensor of the tracing context's mode); call targets are the real
torch, operator and builtins objects. ATen level: placeholders `arg0_1`, ... with `val`, targets
torch.ops overloads, the graph's tensor constants as attributes of the module (its get_attr
nodes), as AOTAutograd hands its forward compiler.

A node whose target is no object of torch, operator, builtins or an importable module (an
allowed function's qualname, a custom op the fixture registers) is *opaque*: it becomes a
HostNode, which runs the node on tdconform's host (the reference) when called with real
tensors. What cannot be built at all raises NotBuildable: tdconform's limit, not the backend's.
"""

import builtins
import importlib
import math
import operator
import re

import torch
import torch.fx
from torch._subclasses.fake_tensor import is_fake

# tdc_dtype's order (conformance/abi/tdconform_backend.h), which is reference/graph/dtypes.def's.
DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
          torch.complex128, torch.uint8, torch.uint16, torch.uint32, torch.uint64, torch.int8,
          torch.int16, torch.int32, torch.int64, torch.bool)
DTYPE_BY_NAME = {str(d).removeprefix("torch."): d for d in DTYPES}
LAYOUTS = {"strided": torch.strided, "sparse_coo": torch.sparse_coo, "sparse_csr": torch.sparse_csr,
           "sparse_csc": torch.sparse_csc, "sparse_bsr": torch.sparse_bsr,
           "sparse_bsc": torch.sparse_bsc, "mkldnn": torch._mkldnn, "jagged": torch.jagged}
MEMORY_FORMATS = {"contiguous_format": torch.contiguous_format,
                  "channels_last": torch.channels_last,
                  "channels_last_3d": torch.channels_last_3d,
                  "preserve_format": torch.preserve_format}


class NotBuildable(Exception):
    """tdconform cannot give the backend this graph as torch would (its limit, not the backend's)."""


class HostNode:
    """An opaque node: called with real tensors, the host (tdconform's reference) runs it.

    `run_on_host(index, tensors) -> tensors` is the host's run_node; the inputs it takes are
    the tensors among the node's arguments, args then kwargs, depth first (tdc_host_api).
    """

    def __init__(self, index, target, returns_tuple, run_on_host):
        self.index, self.target, self.returns_tuple = index, target, returns_tuple
        self.run_on_host = run_on_host
        self.__name__ = self.__qualname__ = "host_" + re.sub(r"\W", "_", target)

    def __call__(self, *args, **kwargs):
        tensors = [t for t in _flatten((args, kwargs)) if isinstance(t, torch.Tensor)]
        # A backend tracing the graph (AOTAutograd's make_fx) calls it with fake tensors,
        # maybe wrapped (functionalization): anything but a plain tensor with data.
        if any(type(t) is not torch.Tensor or is_fake(t) or t.device.type == "meta"
               for t in tensors):
            raise NotBuildable(f"the opaque node {self.target} was traced with fake tensors: "
                               "tdconform has no fake implementation of it to give the backend")
        results = self.run_on_host(self.index, tensors)
        return tuple(results) if self.returns_tuple else results[0]


def _flatten(value):
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _flatten(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _flatten(item)
    else:
        yield value


def _dotted(root, path):
    obj = root
    for part in path:
        obj = getattr(obj, part)
    return obj


def resolve_target(name):
    """The object a canonical call_function target names (§7.1), or None when it is opaque."""
    head, _, rest = name.partition(".")
    try:
        if head == "operator":
            return getattr(operator, rest)
        if head == "builtins":
            return getattr(builtins, rest)
        if head == "torch":
            return _dotted(torch, rest.split("."))
        if head == "higher_order":
            raise NotBuildable(f"{name}: higher-order ops and their subgraphs are not built yet")
        parts = name.split(".")
        if len(parts) == 3 and head != "math":  # <ns>.<op>.<overload>: aten or a custom op
            packet = getattr(getattr(torch.ops, head), parts[1], None)
            overload = getattr(packet, parts[2], None) if packet is not None else None
            if overload is not None:
                return overload
        if len(parts) >= 2:  # <module>.<qualname>, e.g. math.sqrt
            module = importlib.import_module(parts[0])
            return _dotted(module, parts[1:])
    except (AttributeError, ImportError, RuntimeError):
        pass
    return None


def _placeholder_name(node, index, level):
    if level == "aten" or not node.get("source"):
        return f"arg{index}_1", f"arg{index}_1"
    target = re.sub(r"[^0-9A-Za-z_]", "_", node["source"].replace("['", "_").replace("']", "_"))
    target = re.sub(r"__+", "_", target)
    return target, target.lower()


def example_input(node):
    """A real tensor of the placeholder's dtype and shape (the ABI's compile has no values)."""
    if node.get("type") != "tensor":
        raise NotBuildable(f"a {node.get('type')} placeholder: only tensor inputs are built")
    return torch.zeros(node["shape"], dtype=DTYPE_BY_NAME[node["dtype"]])


class _Builder:
    def __init__(self, doc, level, constants, run_on_host, fake_mode, examples):
        self.doc, self.level, self.constants = doc, level, constants
        self.run_on_host, self.fake_mode = run_on_host, fake_mode
        # One a placeholder, in order; None: zeros of each placeholder's dtype and shape.
        self.examples = None if examples is None else iter(examples)
        self.graph = torch.fx.Graph()
        self.root = torch.nn.Module()
        self.nodes = []  # by canonical index
        # Nodes read through operator.getitem return tuples (an opaque node's results).
        self.tuple_nodes = {a["ref"] for n in doc["nodes"] if n.get("target") == "operator.getitem"
                            for a in n["args"][:1] if "ref" in a}

    def arg(self, a):
        (kind, v), = a.items()
        if kind == "ref":
            return self.nodes[v]
        if kind in ("int", "bool", "str"):
            return v
        if kind == "float":
            return float.fromhex(v) if v not in ("inf", "-inf", "nan") else float(v)
        if kind == "none":
            return None
        if kind == "ellipsis":
            return Ellipsis
        if kind == "tuple":
            return tuple(self.arg(x) for x in v)
        if kind == "list":
            return [self.arg(x) for x in v]
        if kind == "dict":
            return {self.arg(k): self.arg(x) for k, x in v}
        if kind == "slice":
            return slice(*(self.arg(x) for x in v))
        if kind == "dtype":
            return DTYPE_BY_NAME[v]
        if kind == "device":
            return torch.device(v)
        if kind == "layout":
            return LAYOUTS[v]
        if kind == "memory_format":
            return MEMORY_FORMATS[v]
        if kind == "callable":
            target = resolve_target(v)
            if target is None:
                raise NotBuildable(f"the callable argument {v} names no object tdconform can build")
            return target
        raise NotBuildable(f"an argument of kind {kind} ({v!r})")

    def node(self, index, n):
        op = n["op"]
        if op == "placeholder":
            target, name = _placeholder_name(n, index, self.level)
            node = self.graph.create_node("placeholder", target, name=name)
            example = example_input(n) if self.examples is None else next(self.examples)
            # Static sizes, as Dynamo's first compile of a graph has them (torch 2.13.0's
            # assume_static_by_default): a ShapeEnv would make them symbols otherwise.
            value = self.fake_mode.from_tensor(example, static_shapes=True)
            node.meta["example_value" if self.level == "dynamo" else "val"] = value
            return node
        args = tuple(self.arg(a) for a in n.get("args", []))
        kwargs = {k: self.arg(a) for k, a in n.get("kwargs", {}).items()}
        if op == "output":
            return self.graph.output(args[0] if len(args) == 1 else args)
        if op == "call_method":
            return self.graph.call_method(n["target"], args, kwargs)
        if op == "get_attr":
            if n["target"] not in self.constants:
                # e.g. the function a nonstrict_trace call hands flat_apply, kept by Dynamo as
                # a module attribute: the program's own code, which runs in the reference.
                raise NotBuildable(f"get_attr {n['target']}: not a tensor constant of the graph "
                                   "(an attribute holding the program's code, which tdconform "
                                   "cannot hand over yet)")
            self.root.register_buffer(n["target"], self.constants[n["target"]])
            return self.graph.get_attr(n["target"])
        if op == "call_function":
            target = resolve_target(n["target"])
            if target is None:
                target = HostNode(index, n["target"], index in self.tuple_nodes, self.run_on_host)
            return self.graph.call_function(target, args, kwargs)
        raise NotBuildable(f"a {op} node")

    def build(self):
        for index, n in enumerate(self.doc["nodes"]):
            self.nodes.append(self.node(index, n))
        self.graph.lint()
        return torch.fx.GraphModule(self.root, self.graph)


def build_graph_module(doc, level, constants, run_on_host, fake_mode, examples=None):
    """The GraphModule of canonical graph `doc` at `level` ("dynamo" or "aten"), its placeholders'
    values fakes of `examples` (the graph's example inputs, one a placeholder; None: zeros)."""
    return _Builder(doc, level, constants, run_on_host, fake_mode, examples).build()
