"""Vendors' torch.compile backends from PyPI, for `tdconform --backend py:conformance.python.vendors:<name>`.

Each is the vendor's own backend as torch.compile finds it by name once its package is
imported, called as torch would call it; nothing is adapted. The packages are pinned in
ci/setup (OPENVINO_PIN, IREE_TURBINE_PINS). What they are measured to get is in
conformance/python/expectations/, one file a backend, each entry with its reason.
"""

from torch._dynamo.backends.registry import lookup_backend


def openvino(gm, example_inputs):
    """OpenVINO's `openvino` backend, default options."""
    import openvino.torch  # noqa: F401  (registers the "openvino" backend)

    return lookup_backend("openvino")(gm, example_inputs)


# It retraces each graph to ATen itself (openvino/frontend/pytorch/torchdynamo/backend.py:
# fx_openvino's make_fx with its decompositions; aot_autograd when options ask for it), with
# is_compiling() True as under AOTAutograd, so it computes what the ATen graphs compute
# (measured: it gives the golden's aot_eager values on allow_in_graph's level-dependent fixture).
openvino.tdconform_lowers_through_aot = True


def iree_turbine(gm, example_inputs):
    """IREE-turbine's `iree_turbine` backend (its torch_dynamo_backends entry point), CPU."""
    return lookup_backend("iree_turbine")(gm, example_inputs)


# aot_autograd(fw_compiler=...) (iree/turbine/dynamo/backends/base.py): its compiler is handed
# AOTAutograd's forward graph, so it computes what the ATen graphs compute.
iree_turbine.tdconform_lowers_through_aot = True
