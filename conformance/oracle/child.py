"""One run of one fixture, inside a forked child of the fork server (DESIGN.md D11).

A run is (fixture, mode, profile). The child starts from the parent's freshly imported
torch and makes the process-global state a fixture can see the same every time: one
thread, ``torch._dynamo.reset()``, cleared counters, the profile's config (compile) or
``TORCHDYNAMO_DISABLE=1`` (eager). It then executes the fixture with
``runpy.run_path(path, init_globals={"backend": recorder})``. When the program ends with
an uncaught exception, the module's globals are taken from the fixture's ``<module>``
frame in the traceback, so the ``out`` names bound before it survive (D1).

Modes:
  eager     the eager Outcome (SCHEMA.md §5);
  mutation  an eager run under the in-place detector (mutation.py), recording nothing
            but the violations, kept apart so the detector cannot change the outcome;
  compile   the CompiledOutcome of one profile;
  aot_eager the same program and profile with torch's aot_eager behind the recorder's
            counts: the outcome when the ATen forward graphs run (its ``aot_eager`` field).
"""

import dataclasses
import os
import runpy
import traceback
from typing import Any

from conformance.oracle import backend as backend_lib
from conformance.oracle import graph_breaks, lint, profiles, values
from conformance.oracle.normalize import normalize


@dataclasses.dataclass(frozen=True)
class Job:
    """One run: the fixture's absolute path, the mode and (compile only) the profile."""

    fixture: str
    mode: str
    profile: str | None = None
    capture_aten: bool = True

    def label(self) -> str:
        return f"{self.mode}" + (f" {self.profile}" if self.profile else "")


def _module_globals(exc: BaseException, path: str) -> dict | None:
    """The fixture module's globals, from its frame in the exception's traceback."""
    tb = exc.__traceback__
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == path and code.co_name == "<module>":
            found = tb.tb_frame.f_globals
        tb = tb.tb_next
    return found


def _execute(path: str, recorder: Any) -> tuple[dict, BaseException | None]:
    """Runs the fixture; returns its globals and the uncaught exception, if any."""
    try:
        return runpy.run_path(path, init_globals={"backend": recorder}), None
    except Exception as exc:  # the program's outcome, not ours
        found = _module_globals(exc, path)
        return (found if found is not None else {}), exc


def _outs(module_globals: dict) -> dict:
    """The result names (D1) bound when the program ended, sorted by name."""
    names = sorted(n for n in module_globals if lint.RESULT_NAME.fullmatch(n))
    return {n: values.encode(module_globals[n]) for n in names}


def _eager(job: Job) -> dict:
    os.environ["TORCHDYNAMO_DISABLE"] = "1"
    recorder = backend_lib.RecordingBackend()
    module_globals, exc = _execute(job.fixture, recorder)
    if recorder.invocations or recorder.frame_count:
        return {"ok": False, "error": "the backend was called in eager mode: "
                                      "TORCHDYNAMO_DISABLE=1 did not take effect"}
    return {"ok": True, "outcome": {
        "outs": _outs(module_globals),
        "exception": backend_lib.exception_record(exc) if exc else None,
        "unsupported": None,  # only the reference refuses (DESIGN D13)
    }}


def _mutation(job: Job) -> dict:
    from conformance.oracle.mutation import InPlaceDetector

    os.environ["TORCHDYNAMO_DISABLE"] = "1"
    detector = InPlaceDetector(job.fixture)
    with detector:
        _execute(job.fixture, backend_lib.RecordingBackend())
    return {"ok": True, "violations": [list(v) for v in detector.violations]}


def _compile(job: Job) -> dict:
    from torch._dynamo.utils import counters

    profiles.apply(job.profile)
    capture = graph_breaks.Capture(job.fixture)
    capture.install()
    recorder = backend_lib.RecordingBackend(capture=job.capture_aten)
    module_globals, exc = _execute(job.fixture, recorder)
    if recorder.errors:
        return {"ok": False, "error": "recording backend failed:\n" + recorder.errors[0]}
    return {"ok": True, "outcome": {
        "outs": _outs(module_globals),
        "exception": backend_lib.exception_record(exc) if exc else None,
        "unsupported": None,
        "invocations": recorder.invocations,
        "counters": {
            "frame_count": recorder.frame_count,
            "op_count": recorder.op_count,
            "graph_break": graph_breaks.counter_keys(counters["graph_break"]),
        },
        "graph_breaks": capture.parsed(),
    }}


def _aot_eager(job: Job) -> dict:
    profiles.apply(job.profile)
    module_globals, exc = _execute(job.fixture, backend_lib.AotEagerBackend())
    return {"ok": True, "outcome": {
        "outs": _outs(module_globals),
        "exception": backend_lib.exception_record(exc) if exc else None,
        "unsupported": None,
    }}


_MODES = {"eager": _eager, "mutation": _mutation, "compile": _compile, "aot_eager": _aot_eager}


def run(job: Job) -> dict:
    """Runs one job in this (already forked) process; returns a JSON-able result:
    {"ok": True, "outcome" | "violations": ...} or {"ok": False, "error": "..."}."""
    try:
        import torch
        import torch._dynamo
        from torch._dynamo.utils import counters

        torch.set_num_threads(1)
        torch._dynamo.reset()
        counters.clear()
        return _MODES[job.mode](job)
    except BaseException:  # an error of the recorder, reported to the parent
        return {"ok": False, "error": normalize(traceback.format_exc())}
