"""Vendors' torch.compile backends from PyPI, for `tdconform --backend py:conformance.python.vendors:<name>`.

Each is the vendor's own backend as torch.compile finds it by name once its package is
imported, called as torch would call it; nothing is adapted. The packages are pinned in
ci/setup (ci/setup's OPENVINO_PIN). What they are measured to get is in
conformance/python/expectations/, one file a backend, each entry with its reason.
"""

from torch._dynamo.backends.registry import lookup_backend


def openvino(gm, example_inputs):
    """OpenVINO's `openvino` backend, default options."""
    import openvino.torch  # noqa: F401  (registers the "openvino" backend)

    return lookup_backend("openvino")(gm, example_inputs)
