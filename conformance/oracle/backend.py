"""The recording backend (DESIGN.md D11): what every fixture's ``backend`` is.

Called by Dynamo once per graph, it records the invocation (SCHEMA.md §5 Invocation):
the statement that triggered it, the compile id, the Dynamo graph, and the ATen forward
graph captured on the side with ``aot_module_simplified``. It then returns
``gm.forward``, so the program runs exactly as under ``CompileCounter``, whose
``frame_count``, ``op_count`` and ``clear()`` it mirrors (fixtures read them).

The capture must not change what Dynamo does or counts. It runs after the Dynamo graph
is recorded and counted, never raises (a failure is recorded as ``aten_error``), and
every piece of state AOT autograd writes that Dynamo would read afterwards is restored:
the tracing context's fields, the AOT guards Dynamo would install, shape-env guards and
``torch._dynamo.utils.counters``. Errors of the recorder itself are kept in
``self.errors`` (the run then fails) instead of being raised into Dynamo, which would
turn them into a BackendCompilerFailed and change the program's behaviour.
"""

import copy
import traceback
from typing import Any

from conformance.oracle import graphs
from conformance.oracle.normalize import normalize

# TracingContext fields AOT autograd sets (torch 2.13.0, _functorch/aot_autograd.py,
# _aot_autograd/graph_compile.py, logging_utils.py).
_TRACING_FIELDS = ("fw_metadata", "params_flat", "params_flat_unwrap_subclasses",
                   "params_unwrapped_to_flat_index", "output_strides", "aot_graph_name")


def exception_record(exc: BaseException) -> dict:
    """{"type", "message"} of SCHEMA.md §5: module + qualname with builtins dropped."""
    cls = type(exc)
    module = cls.__module__
    name = cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"
    return {"type": name, "message": normalize(str(exc))}


class _DynamoStateGuard:
    """Saves, and on exit restores, the Dynamo-visible state AOT autograd may write."""

    def __enter__(self) -> "_DynamoStateGuard":
        import torch
        from torch._dynamo.utils import counters

        self.counters = {k: copy.copy(v) for k, v in counters.items()}  # key -> Counter
        self.context = torch._guards.TracingContext.try_get()
        self.fields = {}
        self.aot_guards = None
        self.shape_guards = None
        if self.context is not None:
            self.fields = {f: getattr(self.context, f, None) for f in _TRACING_FIELDS}
            self.aot_guards = list(self.context.guards_context.aotautograd_guards)
            fake_mode = self.context.fake_mode
            shape_env = getattr(fake_mode, "shape_env", None)
            if shape_env is not None:
                self.shape_env = shape_env
                self.shape_guards = len(shape_env.guards)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        from torch._dynamo.utils import counters

        # In place: Dynamo code may hold references to the inner Counters.
        for k in list(counters):
            if k not in self.counters:
                del counters[k]
            elif counters[k] != self.counters[k]:
                counters[k].clear()
                counters[k].update(self.counters[k])
        if self.context is not None:
            for f, v in self.fields.items():
                setattr(self.context, f, v)
            self.context.guards_context.aotautograd_guards[:] = self.aot_guards
            if self.shape_guards is not None:
                del self.shape_env.guards[self.shape_guards:]


def capture_aten(gm: Any, example_inputs: list[Any]) -> tuple[dict | None, dict | None]:
    """The forward graph AOT autograd hands its forward compiler, canonical; or the error.

    Returns:
      (aten_graph, None) on success, (None, aten_error) when AOT autograd failed.
    """
    from functorch.compile import make_boxed_func
    from torch._functorch.aot_autograd import aot_module_simplified

    captured: list[Any] = []

    def capture(fw_gm: Any, fw_inputs: list[Any]) -> Any:
        captured.append(graphs.canonical_graph(fw_gm, dynamo=False))
        return make_boxed_func(fw_gm.forward)

    try:
        with _DynamoStateGuard():
            aot_module_simplified(gm, example_inputs, fw_compiler=capture)
    except Exception as exc:  # recorded, never raised (D11)
        return None, exception_record(exc)
    if not captured:
        return None, {"type": "tdconform.NoForwardGraph",
                      "message": "aot_module_simplified did not call fw_compiler"}
    return captured[0], None


def _trigger() -> dict:
    """The compiled code and the line where tracing of this graph stopped (§5)."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    tx = InstructionTranslator.current_tx()
    code = tx.f_code.co_qualname
    return {
        "code": code,
        "resume": tx.f_code.co_name.startswith("torch_dynamo_resume_in_"),
        "line": int(tx.lineno),
    }


class RecordingBackend:
    """A Dynamo backend that records each call and returns gm.forward."""

    def __init__(self, capture: bool = True) -> None:
        self.capture = capture
        self.invocations: list[dict] = []
        self.errors: list[str] = []
        self.frame_count = 0
        self.op_count = 0
        self.clear()

    def clear(self) -> None:
        """Resets the counts, like CompileCounter.clear(); the invocations stay recorded."""
        self.frame_count = 0
        self.op_count = 0

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Any:
        self.frame_count += 1
        self.op_count += graphs.op_count(gm)
        try:
            self._record(gm, example_inputs)
        except Exception:  # an error of ours: fail the run, leave Dynamo alone
            self.errors.append(normalize(traceback.format_exc()))
        return gm.forward

    def _record(self, gm: Any, example_inputs: list[Any]) -> None:
        from torch._guards import CompileContext

        compile_id = CompileContext.current_compile_id()
        invocation = {
            "trigger": _trigger(),
            "compile_id": str(compile_id),
            "recompile": compile_id.frame_compile_id > 0,
            "dynamo_graph": graphs.canonical_graph(gm, dynamo=True),
            "aten_graph": None,
            "aten_error": None,
        }
        self.invocations.append(invocation)
        if self.capture:
            invocation["aten_graph"], invocation["aten_error"] = capture_aten(gm, example_inputs)


class AotEagerBackend(RecordingBackend):
    """torch's ``aot_eager`` behind the recorder's counts (SCHEMA.md §5, ``aot_eager``).

    Counts each call as the recorder does (fixtures read ``frame_count`` and ``op_count``)
    and returns what ``aot_eager`` compiles, so the program goes on with the ATen forward
    graphs' values: an AOT-based backend's expected outcome. Records no graphs.
    """

    def __init__(self) -> None:
        super().__init__(capture=False)

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Any:
        from torch._dynamo.backends.debugging import aot_eager

        self.frame_count += 1
        self.op_count += graphs.op_count(gm)
        return aot_eager(gm, example_inputs)
