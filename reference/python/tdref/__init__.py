"""tdref: what TorchDynamo (torch 2.13.0) does with a program, predicted by tdconform's reference.

    >>> import tdref
    >>> outcome = tdref.run("fixtures/seed/example5_graph_break.py")
    >>> [i.trigger.code for i in outcome.invocations]
    ['fn', 'torch_dynamo_resume_in_fn_at_11']

``run`` returns the program's outcome (outputs, exception, the graphs the backend receives,
counters, graph breaks), ``explain`` says what Dynamo decided and why, ``verify`` compares
fixtures with their goldens. Each is the ``tdref`` command of the same name, run in this
process. What the reference does not model is refused (``Unsupported``), never guessed
(DESIGN D13).

A program is a path (``str`` without a newline, or ``os.PathLike``) or its source (a ``str``
with a newline, run from a temporary file ``program.py``, whose path messages then show).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import tempfile
from collections.abc import Iterator, Sequence
from typing import Union

from tdref import _tdref
from tdref.outcome import (ExceptionInfo, Graph, Invocation, Outcome, Trigger,
                           from_section)
from tdref.values import Named, TensorValue

__all__ = ["run", "explain", "verify", "Outcome", "Invocation", "Trigger", "Graph",
           "ExceptionInfo", "TensorValue", "Named", "VerifyResult", "TdrefError",
           "Unsupported", "MODES", "DEFAULT_PROFILE", "DEFAULT_MAX_STEPS"]

MODES = ("eager", "compile")
DEFAULT_PROFILE = "torch-2.13"
DEFAULT_MAX_STEPS: int = _tdref.DEFAULT_MAX_STEPS

Program = Union[str, "os.PathLike[str]"]


class TdrefError(Exception):
    """The reference could not run the program (a missing file, bad options, a syntax error
    outside the subset): ``diagnostic`` is its located message, as the tdref command prints it."""

    def __init__(self, diagnostic: str) -> None:
        super().__init__(diagnostic.strip())
        self.diagnostic = diagnostic


class Unsupported(Exception):
    """The program reached something the reference does not model (DESIGN D13): ``reason``,
    ``where`` (``file:line:col``). ``partial`` is what happened before it, which predicts
    nothing about the rest of the run."""

    def __init__(self, reason: str, where: str, partial: Outcome) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason, self.where, self.partial = reason, where, partial


@contextlib.contextmanager
def _program_file(program: Program) -> Iterator[str]:
    """The path of `program`: itself, or a temporary file holding its source."""
    if isinstance(program, str) and "\n" in program:
        with tempfile.TemporaryDirectory(prefix="tdref-") as tmp:
            path = pathlib.Path(tmp) / "program.py"
            path.write_text(program, encoding="utf-8")
            yield str(path)
    elif isinstance(program, (str, os.PathLike)):
        yield os.fspath(program)
    else:
        raise TypeError(f"tdref: a program is a path or source text, not {type(program).__name__}")


def _checked(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"tdref: unknown mode {mode!r} (the reference runs: {', '.join(MODES)})")
    return mode


def run(program: Program, *, mode: str = "compile", profile: str = DEFAULT_PROFILE,
        disable_rules: Sequence[str] = (), max_steps: int = DEFAULT_MAX_STEPS) -> Outcome:
    """Runs `program` on the reference: eagerly, or (``mode="compile"``, the default) under
    the reference's Dynamo predicting `profile` (``torch-2.13``: torch 2.13.0 as the profile
    configures it; ``torch-2.13-ngb``: nested graph breaks). `disable_rules` switches off
    rules by their SEMANTICS.md label (``R-cache-hit``); `max_steps` bounds the statements run.

    Returns the Outcome. Raises Unsupported where the reference does not model the program,
    TdrefError where it cannot run it."""
    _checked(mode)
    with _program_file(program) as path:
        status, text, diagnostic = _tdref.run(path, mode, profile, list(disable_rules), max_steps)
    if status != 0:
        raise TdrefError(diagnostic)
    document = json.loads(text)
    section = document["eager"] if mode == "eager" else document["compiled"][profile]
    outcome = from_section(section, mode, None if mode == "eager" else profile)
    # A refusal of the aot_eager run is one too (tdref verify counts it alike).
    refusal = section["unsupported"] or (section.get("aot_eager") or {}).get("unsupported")
    if refusal is not None:
        raise Unsupported(refusal["reason"], refusal["where"], outcome)
    return outcome


def explain(program: Program, *, profile: str = DEFAULT_PROFILE,
            disable_rules: Sequence[str] = (), max_steps: int = DEFAULT_MAX_STEPS) -> str:
    """What the reference's Dynamo decided for `program` and why (``tdref explain``'s text):
    the frames converted, where each graph ends and why, what ran eagerly, how each disabled,
    allowed or forbidden callable was treated, then the outcome. Raises TdrefError where the
    program cannot run."""
    with _program_file(program) as path:
        status, text, diagnostic = _tdref.explain(path, profile, list(disable_rules), max_steps)
    if status != 0:
        raise TdrefError(diagnostic)
    return text


class VerifyResult:
    """``tdref verify``'s answer: ``ok`` when every file's outcome equals its golden;
    ``report`` lists each difference and ends with ``N passed, M failed``."""

    def __init__(self, ok: bool, report: str) -> None:
        self.ok, self.report = ok, report

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"VerifyResult(ok={self.ok}, report={self.report!r})"


def verify(paths: Program | Sequence[Program], *, mode: str = "compile",
           profile: str = DEFAULT_PROFILE, masks: Sequence[str] = (),
           max_steps: int = DEFAULT_MAX_STEPS) -> VerifyResult:
    """Runs each fixture and compares its outcome with the golden beside it
    (``<stem>.golden.json``) through tdconform's comparator; `masks` leaves fields out.
    A refusal (Unsupported) counts as a difference. Raises TdrefError where a file cannot be
    read or run, or its golden lacks the mode or profile."""
    _checked(mode)
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files = [os.fspath(p) for p in items]
    status, text, diagnostic = _tdref.verify(files, mode, profile, list(masks), max_steps)
    if status not in (0, 1):
        raise TdrefError(diagnostic or text)
    return VerifyResult(status == 0, text + diagnostic)
