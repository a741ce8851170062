"""A run's outcome (fixtures/SCHEMA.md §5) as Python objects.

The reference prints its outcome as a golden document; these classes give its fields names
and types. ``document`` keeps the section as printed, for what they do not name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tdref.values import decode, torch_available


@dataclasses.dataclass(frozen=True)
class ExceptionInfo:
    """The exception the program ended with: type (module + qualname, builtins bare), message."""

    type: str
    message: str


@dataclasses.dataclass(frozen=True)
class Graph:
    """A graph in canonical form (SCHEMA.md §7): ``nodes`` in FX order, referring to each
    other by index; ``level`` is ``dynamo`` or ``aten``."""

    level: str
    nodes: list[dict]

    def to_graph_module(self) -> Any:
        """The torch.fx.GraphModule torch 2.13.0 would hand a backend for this graph
        (placeholders with fake example values). Needs torch. A node naming no object torch
        can resolve (an allowed function, a custom op) becomes a HostNode that refuses to run
        here; what cannot be built at all raises ``graph_module.NotBuildable``."""
        if not torch_available():
            raise ModuleNotFoundError("tdref: Graph.to_graph_module needs torch")
        from torch._subclasses.fake_tensor import FakeTensorMode

        from tdref import graph_module

        def no_host(index: int, tensors: list) -> list:
            raise graph_module.NotBuildable(
                f"node {index} is opaque: only tdconform's host can run it")

        return graph_module.build_graph_module({"nodes": self.nodes}, self.level, {}, no_host,
                                               FakeTensorMode())


@dataclasses.dataclass(frozen=True)
class Trigger:
    """What compiled a graph: the code object's qualname, whether it is a resume function,
    and the line where tracing of the graph stopped."""

    code: str
    resume: bool
    line: int


@dataclasses.dataclass(frozen=True)
class Invocation:
    """One call of the backend: the Dynamo graph and the ATen forward graph AOTAutograd
    would hand a compiler (or the error it raised instead)."""

    trigger: Trigger
    compile_id: str
    recompile: bool
    dynamo_graph: Graph
    aten_graph: Graph | None
    aten_error: ExceptionInfo | None


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a program did: its ``out`` names' values and its exception; in compile mode also
    the backend invocations, ``counters`` (frame_count, op_count, graph_break by reason) and
    ``graph_breaks`` as the document records them, and ``aot_eager``: the outcome with each
    graph's ATen forward graph run in its place, as under torch's aot_eager (None in eager
    mode)."""

    mode: str
    profile: str | None
    outs: dict[str, Any]
    exception: ExceptionInfo | None
    invocations: list[Invocation]
    counters: dict[str, Any]
    graph_breaks: list[dict]
    aot_eager: "Outcome | None"
    document: dict


def _exception(record: dict | None) -> ExceptionInfo | None:
    return None if record is None else ExceptionInfo(record["type"], record["message"])


def _graph(level: str, doc: dict | None) -> Graph | None:
    return None if doc is None else Graph(level, doc["nodes"])


def _invocation(record: dict) -> Invocation:
    trigger = record["trigger"]
    return Invocation(
        trigger=Trigger(trigger["code"], trigger["resume"], trigger["line"]),
        compile_id=record["compile_id"],
        recompile=record["recompile"],
        dynamo_graph=_graph("dynamo", record["dynamo_graph"]),
        aten_graph=_graph("aten", record["aten_graph"]),
        aten_error=_exception(record["aten_error"]),
    )


def from_section(section: dict, mode: str, profile: str | None) -> Outcome:
    """The Outcome of a golden document's ``eager`` or ``compiled[profile]`` section."""
    return Outcome(
        mode=mode,
        profile=profile,
        outs={name: decode(value) for name, value in section["outs"].items()},
        exception=_exception(section["exception"]),
        invocations=[_invocation(r) for r in section.get("invocations", [])],
        counters=section.get("counters", {}),
        graph_breaks=section.get("graph_breaks", []),
        aot_eager=(None if section.get("aot_eager") is None
                   else from_section(section["aot_eager"], "aot_eager", profile)),
        document=section,
    )
