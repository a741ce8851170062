"""`tdconform --engine torch`: one case's program run under real torch.compile (issue 29).

The case's process (forked from tdconform, where the Python backend library started the
interpreter and imported torch under the oracle's environment) runs the fixture exactly as
the oracle records a golden's compiled outcome (conformance/oracle/child.py, the profile's
config, a fresh Dynamo), with one difference: the recorder hands each Dynamo graph to the
vendor's backend callable and runs what it returns, instead of running the graph itself. The
judge then compares the outcome with the golden (Dynamo's partition, outputs, exception):
with the golden's aot_eager outputs and exception when the callable declares
`tdconform_lowers_through_aot = True`.

What the backend did wrong is kept as a fault beside the outcome, so the verdict names it
rather than the program's consequences: an exception from the backend (compiling) or from what
it returned (running), a result that is not a callable, and an output an earlier call
returned that a later call of the same compiled graph changed (output_aliased).

The oracle's files are not changed (their hash is in every golden): its compile run is used
with its recorder class replaced, in this forked process only.
"""

import json
import traceback

import torch

from conformance.oracle import backend as backend_lib
from conformance.oracle import child
from conformance.oracle.normalize import normalize


def _fault(phase, reason, exc=None, message=None):
    text = message if exc is None else "".join(traceback.format_exception(exc)).rstrip()
    summary = (message if exc is None
               else traceback.format_exception_only(exc)[0].strip().splitlines()[0])
    return {"phase": phase, "reason": reason, "summary": summary, "message": normalize(text)}


class _HeldOutputs:
    """A compiled graph's earlier results and their values then: one that changes when the graph
    runs again was handed out twice (the caller holds it)."""

    def __init__(self):
        self.calls = 0
        self.held = []  # (call, index, the tensor returned, its clone)

    def check_then_hold(self, results):
        self.calls += 1
        changed = next((f"output {index} of call {call} changed when the graph ran again (call "
                        f"{self.calls}): the backend handed out memory it writes later"
                        for call, index, tensor, clone in self.held if not _same(tensor, clone)),
                       None)
        flat = results if isinstance(results, (tuple, list)) else (results,)
        for i, r in enumerate(flat):
            if isinstance(r, torch.Tensor) and r.layout == torch.strided and not r.is_meta:
                self.held.append((self.calls, i, r, r.detach().clone()))
        return changed


def _same(a, b):
    """The same shape and elements, NaN where NaN was."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point() or a.is_complex():
        return bool(torch.allclose(a.detach(), b, rtol=0, atol=0, equal_nan=True))
    return bool(torch.equal(a.detach(), b))


class VendorRecorder(backend_lib.RecordingBackend):
    """The oracle's recorder, handing each graph to `vendor` and running what it returns."""

    def __init__(self, vendor, faults):
        super().__init__(capture=False)
        self.vendor, self.faults = vendor, faults

    def __call__(self, gm, example_inputs):
        super().__call__(gm, example_inputs)  # counts and records the Dynamo graph
        try:
            compiled = self.vendor(gm, example_inputs)
        except Exception as exc:
            self.faults.append(_fault("backend_compile", "error", exc))
            raise
        if not callable(compiled):
            message = f"the backend returned a {type(compiled).__name__}, not a callable"
            self.faults.append(_fault("backend_compile", "error", message=message))
            raise TypeError(message)
        held = _HeldOutputs()

        def run(*args):
            try:
                results = compiled(*args)
            except Exception as exc:
                self.faults.append(_fault("backend_run", "error", exc))
                raise
            changed = held.check_then_hold(results)
            if changed:
                self.faults.append(_fault("compare", "output_aliased", message=changed))
            return results

        return run


def run_case(vendor, fixture, profile):
    """The case's outcome as JSON: {"ok", "outcome" | "error", "faults": [...]}."""
    faults = []
    recorder_class = backend_lib.RecordingBackend
    # child's compile run makes its recorder with RecordingBackend(capture=...).
    backend_lib.RecordingBackend = lambda capture: VendorRecorder(vendor, faults)
    try:
        result = child.run(child.Job(fixture, "compile", profile, capture_aten=False))
    finally:
        backend_lib.RecordingBackend = recorder_class
    result["faults"] = faults
    if result["ok"]:
        result["outcome"]["aot_eager"] = None  # one run, judged at the level it computes
        result["computes"] = "aten" if lowers_through_aot(vendor) else "dynamo"
    return json.dumps(result)


def lowers_through_aot(vendor):
    """Whether the callable declares that it lowers each graph through AOTAutograd (as
    aot_eager, inductor and OpenVINO do): it then computes what the ATen forward graphs
    compute, and its outcome is held to the golden's aot_eager one."""
    return getattr(vendor, "tdconform_lowers_through_aot", False) is True
