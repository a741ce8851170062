"""Graph-break records (SCHEMA.md §5 GraphBreak) from Dynamo's ``graph_breaks`` log.

Dynamo reports each graph break as one record of its ``graph_breaks`` log artifact
(``torch._logging.set_logs(graph_breaks=True)``). The capture attaches a handler to the
artifact's loggers and stops them from propagating, so nothing reaches stderr and the
order is Dynamo's. The text of a record is then split into its parts: the location,
the "Graph Break Reason:" line, and the message block Dynamo formats with
``torch._dynamo.exc.format_graph_break_message`` (gb_type, Explanation, Hint lines,
Developer debug context), and the user traceback.

Three record shapes exist in 2.13.0 (symbolic_convert.py, convert_frame.py):
- "Graph break in user code at F:L\\nGraph Break Reason: R\\n[...]\\nUser code traceback:\\n...";
- "Graph break (user stack suppressed due to duplicate graph break) in user code at F:L\\n
  Graph Break Reason: R" (no traceback: user_stack is null);
- "Graph break: torch.compile cannot properly resume from this graph break, which results
  in a skip.\\n...\\nThe graph break occurred in the following user code:\\n..." with the
  exception attached (location null; the message block is the exception's).
"""

import logging
import pathlib
import re
from typing import Any

from conformance.oracle import paths
from conformance.oracle.normalize import normalize

_LOCATION = re.compile(r"Graph break (?:\(user stack suppressed due to duplicate graph "
                       r"break\) )?in user code at (?P<file>.*):(?P<line>\d+)\n")
_DUPLICATE = "(user stack suppressed due to duplicate graph break)"
_SKIP = "Graph break: torch.compile cannot properly resume"
_BLOCK = re.compile(
    r"(?s)(?P<gb_type>[^\n]*)\n  Explanation: (?P<explanation>.*?)\n"
    r"(?P<hints>(?:  Hint: .*?)?)\n\n  Developer debug context: (?P<context>.*?)"
    r"(?:\n\n For more details about this graph break, please visit: \S+)?\s*$")
_FRAME = re.compile(r'^  File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<name>.*)$')
_SECTION_ENDS = ("\n\nStack variable source attribution:\n", "\n\nUser code traceback:\n")


class Capture(logging.Handler):
    """Collects the records of the graph_breaks artifact, in order."""

    def __init__(self, fixture: str | None = None) -> None:
        super().__init__(level=logging.DEBUG)
        self.fixture = fixture
        self.records: list[tuple[str, BaseException | None]] = []

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.records.append((record.getMessage(), exc))

    def install(self) -> None:
        """Turns the artifact on and routes its loggers here only."""
        import torch
        import torch._dynamo  # noqa: F401  (creates the artifact loggers)
        import torch._dynamo.convert_frame  # noqa: F401
        import torch._dynamo.exc  # noqa: F401
        import torch._dynamo.symbolic_convert  # noqa: F401

        torch._logging.set_logs(graph_breaks=True)
        registry = torch._logging._internal.log_registry
        for qname in registry.get_artifact_log_qnames():
            if qname.endswith(".__graph_breaks"):
                log = logging.getLogger(qname)
                log.addHandler(self)
                log.propagate = False

    def parsed(self) -> list[dict]:
        """The records as GraphBreak objects (SCHEMA.md §5)."""
        return [parse(message, exc, self.fixture) for message, exc in self.records]


def _unindent(text: str) -> str:
    """Undoes textwrap.indent(text, "    ") of format_graph_break_message."""
    return text.replace("\n    ", "\n")


def parse_block(text: str) -> dict:
    """Splits a format_graph_break_message block, which starts at the line before the
    first "  Explanation:" line; text without one becomes the gb_type (first line) and
    explanation (the rest)."""
    at = text.find("\n  Explanation: ")
    if at >= 0:
        text = text[text.rfind("\n", 0, at) + 1:]
    m = _BLOCK.match(text)
    if m is None:
        first, _, rest = text.partition("\n")
        return {"gb_type": normalize(first), "explanation": normalize(rest.strip()),
                "hints": [], "context": ""}
    hints = m.group("hints")
    hint_list = [_unindent(h) for h in hints[len("  Hint: "):].split("\n  Hint: ")] if hints else []
    return {
        "gb_type": normalize(m.group("gb_type")),
        "explanation": normalize(_unindent(m.group("explanation"))),
        "hints": [normalize(h) for h in hint_list],
        "context": normalize(_unindent(m.group("context"))),
    }


def _resolve(filename: str) -> pathlib.Path | None:
    if filename.startswith("<"):
        return None
    try:
        return pathlib.Path(filename).resolve()
    except (OSError, ValueError):
        return None


def _in_repository(resolved: pathlib.Path | None) -> bool:
    """A repository file outside the virtual environment."""
    root = paths.REPO_ROOT
    return (resolved is not None and root in resolved.parents
            and ".venv" not in resolved.relative_to(root).parts)


def parse_stack(text: str, fixture: str | None = None) -> list[dict]:
    """Frames of a traceback.format_list text, outermost first: repository files only,
    from the first frame of `fixture` on (the recorder's frames above it are dropped)."""
    start = _resolve(fixture) if fixture else None
    frames = []
    for line in text.split("\n"):
        m = _FRAME.match(line)
        if not m:
            continue
        resolved = _resolve(m.group("file"))
        if start is not None and not frames and resolved != start:
            continue
        if _in_repository(resolved):
            frames.append({"file": normalize(m.group("file")), "line": int(m.group("line")),
                           "name": m.group("name")})
    return frames


def _block_of(exc: BaseException | None) -> dict:
    """The message block of the exception a skip record carries (empty without one)."""
    if exc is None:
        return {"gb_type": "", "explanation": "", "hints": [], "context": ""}
    return parse_block(str(exc).split("\n\nfrom user code:\n")[0])


def parse(message: str, exc: BaseException | None = None, fixture: str | None = None) -> dict:
    """Parses one graph_breaks record into a GraphBreak (SCHEMA.md §5); `fixture` is the
    path of the program run, where the user stack starts."""
    if message.startswith(_SKIP):
        _, _, stack = message.partition("The graph break occurred in the following user code:\n")
        return {"location": None, "reason": normalize(message.split("\n", 1)[0]),
                **_block_of(exc), "user_stack": parse_stack(stack, fixture)}
    m = _LOCATION.match(message)
    location = None
    body = message
    if m:
        location = {"file": normalize(m.group("file")), "line": int(m.group("line"))}
        body = message[m.end():]
    body = body.removeprefix("Graph Break Reason: ")
    ends = [body.find(e) for e in _SECTION_ENDS if e in body]
    reason_text = body[: min(ends)] if ends else body
    stack_at = body.find("\nUser code traceback:\n")
    duplicate = _DUPLICATE in message.split("\n", 1)[0]
    reason_line = reason_text.split("\n", 1)[0]
    block = parse_block(reason_text)
    return {
        "location": location,
        "reason": normalize(reason_line),
        **block,
        "user_stack": None if duplicate or stack_at < 0
        else parse_stack(body[stack_at + len("\nUser code traceback:\n"):], fixture),
    }


def counter_keys(counter: Any) -> dict[str, int]:
    """counters['graph_break'], keys normalized (§8); keys that become equal add up."""
    result: dict[str, int] = {}
    for key, count in counter.items():
        k = normalize(str(key))
        result[k] = result.get(k, 0) + int(count)
    return result
