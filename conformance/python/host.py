"""What tdconform's Python backend library (python_backend.cc) calls in the embedded interpreter.

compile(): the GraphModule and example inputs as torch 2.13.0 hands them to a backend, checked
against real torch (a recording backend under torch.compile):
- Dynamo level: `backend(gm, example_inputs)` with real tensors, inside a TracingContext with
  a fresh FakeTensorMode on the ShapeEnv of the placeholders' `example_value`s and each example
  input's symbolic context (static sizes), as Dynamo's OutputGraph makes it; grad mode on.
- ATen level, as AOTAutograd calls its forward compiler: `fw_compiler(gm, example_inputs)`
  with fake tensors of the TracingContext's mode (the placeholders' `val`s); grad mode on.
The example inputs are those the graph's first run gets (ABI 1.2's tdc_graph.example_inputs:
values, shapes and strides, as Dynamo hands them); from a host without them, zeros of the
placeholders' dtypes and shapes, contiguous.
run(): the compiled callable on the graph's inputs as torch calls it: Dynamo with the inputs as
arguments; AOTAutograd with one list of them when the callable has `_boxed_call`
(call_func_at_runtime_with_args); its results as tensors.
hold(): the tensors a compiled callable returned stay what the program holds: after each later
run they are copied again into the host's tensors they were first copied into, so an output
the backend changes afterwards (a buffer it hands out again) changes there too, where the host
sees it (FAIL compare/output_aliased).
"""

import importlib
import json
import traceback

import torch
# Imported here, in the process each case's is forked from, not once a case (no op runs here:
# a thread pool started before a fork would not survive it).
import torch._dynamo  # noqa: F401
import torch._functorch.aot_autograd  # noqa: F401
from torch._guards import TracingContext, tracing
from torch._subclasses.fake_tensor import FakeTensorMode
from torch._dynamo.source import ConstantSource
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StatefulSymbolicContext

from conformance.python import graph_module
from conformance.python.graph_module import DTYPES, NotBuildable


def load(module_name, attr):
    """The backend callable MODULE:ATTR names (ImportError, AttributeError, TypeError else)."""
    module = importlib.import_module(module_name)
    backend = getattr(module, attr)
    if not callable(backend):
        raise TypeError(f"{module_name}:{attr} is a {type(backend).__name__}, not a callable")
    return backend


class Compiled:
    def __init__(self, fn, num_outputs, boxed):
        self.fn, self.num_outputs, self.boxed = fn, num_outputs, boxed
        self.held = []  # (the host's buffer, the tensor the backend returned), earlier runs


def _backend_tracing_context(fake_mode, examples, placeholders):
    """The TracingContext Dynamo hands its backend (torch 2.13.0's OutputGraph): a fresh fake
    mode on the tracing's ShapeEnv, which has not memoized the example inputs' fakes, and each
    example input's symbolic context, its sizes static as on a first compile. Faking an example
    input again there gives its static sizes; with a source of its own (make_fx's retrace,
    OpenVINO's), fresh symbolic ones."""
    context = TracingContext(FakeTensorMode(shape_env=fake_mode.shape_env))
    for i, (example, n) in enumerate(zip(examples, placeholders)):
        context.tensor_to_context[example] = StatefulSymbolicContext(
            dynamic_sizes=[DimDynamic.STATIC] * example.dim(),
            dynamic_strides=[DimDynamic.INFER_STRIDE] * example.dim(),
            tensor_source=ConstantSource(n.get("source") or f"input {i}"))
    return context


def compile(backend, graph_text, level, constants, run_on_host, examples=None):
    doc = json.loads(graph_text)
    fake_mode = FakeTensorMode(shape_env=ShapeEnv())
    placeholders = [n for n in doc["nodes"] if n["op"] == "placeholder"]
    if examples is None:
        examples = [graph_module.example_input(n) for n in placeholders]
    if len(examples) != len(placeholders):
        raise ValueError(f"{len(examples)} example inputs for {len(placeholders)} placeholders")
    gm = graph_module.build_graph_module(doc, level, constants, run_on_host, fake_mode, examples)
    if level == "dynamo":
        example_inputs = list(examples)
        context = _backend_tracing_context(fake_mode, examples, placeholders)
    else:
        example_inputs = [n.meta["val"] for n in gm.graph.nodes if n.op == "placeholder"]
        context = TracingContext(fake_mode)
    with tracing(context), torch.enable_grad():
        fn = backend(gm, example_inputs)
    if not callable(fn):
        raise TypeError(f"the backend returned a {type(fn).__name__}, not a callable")
    output = doc["nodes"][-1]["args"][0]
    count = len(next(iter(output.values()))) if isinstance(output, dict) else 1
    return Compiled(fn, count, level == "aten" and hasattr(fn, "_boxed_call"))


def run(compiled, inputs):
    fn = compiled.fn
    inputs = list(inputs)
    results = fn(list(inputs)) if compiled.boxed else fn(*inputs)
    if isinstance(results, torch.Tensor):
        results = (results,)
    results = list(results)
    if len(results) != compiled.num_outputs:
        raise TypeError(f"the compiled graph returned {len(results)} outputs, "
                        f"its output node has {compiled.num_outputs}")
    out = []
    for i, r in enumerate(results):
        if not isinstance(r, torch.Tensor):
            raise TypeError(f"output {i} is a {type(r).__name__}, not a tensor")
        if r.dtype not in DTYPES or r.device.type != "cpu":
            raise TypeError(f"output {i} is a {r.dtype} tensor on {r.device}")
        out.append((DTYPES.index(r.dtype), list(r.shape), r))
    return out


def hold(compiled, buffers, tensors):
    """After a run: the earlier runs' outputs copied again into their host buffers (the
    program's view of them now), then this run's kept too."""
    for buffer, tensor in compiled.held:
        to_host(buffer, tensor)
    compiled.held.extend(zip(buffers, tensors))


def from_host(buffer, dtype, shape, strides):
    """A copy of the host's tensor (its storage as a buffer of elements), strides kept."""
    dt = DTYPES[dtype]
    if any(s == 0 for s in shape) or len(buffer) == 0:
        return torch.empty_strided(shape, strides, dtype=dt)
    base = torch.frombuffer(buffer, dtype=dt)
    return torch.as_strided(base, shape, strides).clone(memory_format=torch.preserve_format)


def to_host(buffer, tensor):
    """Writes `tensor` into the host's contiguous tensor `buffer`."""
    if tensor.numel() == 0:
        return
    torch.frombuffer(buffer, dtype=tensor.dtype).view(tensor.shape).copy_(tensor)


def host_tensor(t):
    """A tensor for the host's run_node: (dtype, shape, contiguous copy); the caller keeps it."""
    t = t.detach().contiguous()
    return DTYPES.index(t.dtype), list(t.shape), t.data_ptr(), t


def describe(exc):
    """(whether tdconform could not build the graph, a one-line summary, the traceback).

    The summary is the first line of the NotBuildable in the chain of causes, else of the
    exception itself (torch appends notes after its message)."""
    seen, e, not_buildable = set(), exc, None
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, NotBuildable):
            not_buildable = e
        e = e.__cause__ or e.__context__
    summary = traceback.format_exception_only(not_buildable or exc)[0].strip().splitlines()[0]
    return (not_buildable is not None, summary,
            "".join(traceback.format_exception(exc)).rstrip())
