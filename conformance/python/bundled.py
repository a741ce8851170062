"""The bundled Python backends, for `tdconform --backend py:conformance.python.bundled:<name>`.

A callable gets Dynamo's graphs unless it declares `tdconform_graph_levels` (an ATen-level
backend is a forward compiler: AOTAutograd's graph, fake example inputs, called boxed when it
says `_boxed_call`). eager, aot_eager, inductor and boxed_nop are torch 2.13.0's own, the
known-good references: eager (both levels: it runs the graph it is given), aot_eager and
inductor (Dynamo level: they lower the graph themselves; inductor compiles C++ with the
machine's compiler), boxed_nop (ATen level: aot_eager's forward compiler). The broken
ones, at both levels, each carry one fault, and ctest asserts their verdicts:
- wrong_sin: computes cos where the graph says sin (FAIL compare/value_mismatch);
- raises_on_relu: raises while compiling a graph that holds relu (BACKEND_ERROR
  backend_compile/error, with the traceback);
- reuses_outputs: returns the same output tensors from every call of a compiled graph, written
  again each time, as a backend handing out its inference buffer does (FAIL
  compare/output_aliased where a later call computes other values).
- claims_aot: declares `tdconform_lowers_through_aot` but runs the Dynamo graph (FAIL
  compare/value_mismatch under --engine torch where the golden's aot_eager outcome differs).
Two more are correct but do what torch's own backends do and a careless harness would blame:
- restrides_size1: gives each output's dimensions of size 1 the stride 7, a layout no element
  is read through (inductor leaves such strides otherwise than eager: probes/unsqueeze), so it
  passes; only strides that address elements are compared (torch's
  check_significant_strides).
- layout_specialized: compiles for its example inputs' sizes and strides and raises when a
  run's inputs have others (inductor's assert_size_stride), or when a size is a symbol (torch's
  first compile is static); at the Dynamo level the first run's inputs must also be the
  example inputs' values. It passes only where tdconform hands the example
  inputs torch would (tdc_graph.example_inputs).
- temp_files: writes each graph's code to a file in $TMPDIR (else /tmp) before running it
  eagerly, trying no other directory, as IREE's compiler does; it passes wherever a case can
  make files in the temporary directory, a checkout under /tmp included (run_temp_dir.h).
"""

import os
import tempfile

import torch
from torch._dynamo.backends.debugging import boxed_nop as _torch_boxed_nop
from torch._dynamo.backends.registry import lookup_backend
from torch._subclasses.fake_tensor import is_fake

BOTH_LEVELS = ("dynamo", "aten")


def eager(gm, example_inputs):
    return lookup_backend("eager")(gm, example_inputs)


def aot_eager(gm, example_inputs):
    return lookup_backend("aot_eager")(gm, example_inputs)


def inductor(gm, example_inputs):
    return lookup_backend("inductor")(gm, example_inputs)


def boxed_nop(gm, example_inputs):
    return _torch_boxed_nop(gm, example_inputs)


eager.tdconform_graph_levels = BOTH_LEVELS
boxed_nop.tdconform_graph_levels = ("aten",)
# Under --engine torch their outcome is the golden's aot_eager one (engine_torch.py).
aot_eager.tdconform_lowers_through_aot = True
inductor.tdconform_lowers_through_aot = True


_COS_FOR_SIN = {torch.sin: torch.cos, torch.ops.aten.sin.default: torch.ops.aten.cos.default}


def wrong_sin(gm, example_inputs):
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in _COS_FOR_SIN:
            node.target = _COS_FOR_SIN[node.target]
    gm.recompile()
    return gm.forward


_RELU = (torch.relu, torch.ops.aten.relu.default)


def _check_no_relu(gm):
    for node in gm.graph.nodes:
        if (node.op == "call_function" and node.target in _RELU) or (
                node.op == "call_method" and node.target == "relu"):
            raise NotImplementedError(f"raises_on_relu: the graph holds relu ({node.name})")


def raises_on_relu(gm, example_inputs):
    _check_no_relu(gm)
    return gm.forward


wrong_sin.tdconform_graph_levels = BOTH_LEVELS
raises_on_relu.tdconform_graph_levels = BOTH_LEVELS


def reuses_outputs(gm, example_inputs):
    kept = []

    def run(*args):
        results = gm.forward(*args)
        if not kept:
            kept.extend(r.clone() for r in results)
        return tuple(k.copy_(r) for k, r in zip(kept, results))

    return run


reuses_outputs.tdconform_graph_levels = ("dynamo",)


def claims_aot(gm, example_inputs):
    return gm.forward


# Says it lowers through AOTAutograd but runs the Dynamo graph as it is: where the ATen graphs
# compute otherwise (an allowed body reading is_compiling()), --engine torch fails it.
claims_aot.tdconform_lowers_through_aot = True


def layout_specialized(gm, example_inputs):
    strides = [tuple(t.stride()) for t in example_inputs]
    symbolic = [t.shape for t in example_inputs if not all(type(s) is int for s in t.shape)]
    if symbolic:
        raise AssertionError(f"layout_specialized: symbolic sizes {symbolic} in a static compile")
    # Real tensors at the Dynamo level (torch hands the first call's inputs), fakes at the ATen level.
    first = None if any(is_fake(t) for t in example_inputs) else [
        t.clone() for t in example_inputs]

    def run(*args):
        nonlocal first
        got = [tuple(t.stride()) for t in args]
        if got != strides:
            raise AssertionError(f"layout_specialized: compiled for strides {strides}, run with {got}")
        if first is not None and not all(torch.equal(a, f) for a, f in zip(args, first)):
            raise AssertionError("layout_specialized: the first run's inputs are not the example inputs")
        first = None
        return gm.forward(*args)

    return run


layout_specialized.tdconform_graph_levels = BOTH_LEVELS


def _strides_of_size1_dims_set_to_7(t):
    if not isinstance(t, torch.Tensor) or 1 not in t.shape:
        return t
    strides = [7 if size == 1 else stride for size, stride in zip(t.shape, t.stride())]
    return t.as_strided(t.shape, strides, t.storage_offset())


def restrides_size1(gm, example_inputs):
    def run(*args):
        return tuple(_strides_of_size1_dims_set_to_7(r) for r in gm.forward(*args))

    return run


def temp_files(gm, example_inputs):
    with tempfile.NamedTemporaryFile(dir=os.environ.get("TMPDIR", "/tmp"), suffix=".py") as code:
        code.write(gm.code.encode())
    return eager(gm, example_inputs)


temp_files.tdconform_graph_levels = BOTH_LEVELS
