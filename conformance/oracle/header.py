"""The fixture header of SCHEMA.md §2: leading ``# tdc: <directive> <words>`` lines.

The header carries a fixture's metadata (profiles, rules, scenarios, tolerances). It is
parsed here once, for the lint (which reports malformed directives with their position)
and for the golden's ``meta.header`` (which records the parsed form).
"""

import dataclasses
import math
import re

from conformance.oracle import profiles

_DIRECTIVE = re.compile(r"#\s*tdc:")
_RULE = re.compile(r"R-[A-Za-z0-9][A-Za-z0-9_.-]*")
_SCENARIO = re.compile(r"S[0-9]+[a-z]?")
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
VARIANT_TRANSFORMS = ("rename", "wrap", "constants")
# What a fixture the reference cannot predict yet waits for (`# tdc: awaits <what>`), and the
# issue that builds it. Such a fixture is recorded like any other; its ctest asserts that the
# reference refuses it (outcome `unsupported`, DESIGN D13) until that issue lands.
AWAITS = {
    "classes": "issue 27 (classes and nn.Module)",
    "nn-module": "issue 27 (classes and nn.Module)",
    "export": "issue 28 (torch.export)",
    "dynamic-shapes": "issue 33 (dynamic shapes)",
}


@dataclasses.dataclass
class HeaderError:
    """A malformed header line: 1-based line and column, and the message."""

    line: int
    col: int
    message: str


@dataclasses.dataclass
class Header:
    """The parsed header, in the shape of the golden's meta.header (SCHEMA.md §4)."""

    profiles: list[str] = dataclasses.field(default_factory=list)
    rules: list[str] = dataclasses.field(default_factory=list)
    scenarios: list[str] = dataclasses.field(default_factory=list)
    seed_example: int | None = None
    version_probe: str | None = None
    tolerance: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)
    variant_of: dict[str, str] | None = None
    # Not in meta.header: it says what the reference lacks, not what torch did.
    awaits: list[str] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict:
        """Returns meta.header, keys in SCHEMA.md order."""
        return {
            "profiles": list(self.profiles),
            "rules": list(self.rules),
            "scenarios": list(self.scenarios),
            "seed_example": self.seed_example,
            "version_probe": self.version_probe,
            "tolerance": {k: dict(v) for k, v in self.tolerance.items()},
            "variant_of": dict(self.variant_of) if self.variant_of else None,
        }


def _parse_float(word: str, key: str) -> float | None:
    if not word.startswith(key + "="):
        return None
    try:
        value = float(word[len(key) + 1:])
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


class _Parser:
    """Parses one directive at a time into a Header, collecting errors."""

    def __init__(self) -> None:
        self.header = Header()
        self.errors: list[HeaderError] = []
        self.seen: set[str] = set()

    def error(self, line: int, col: int, message: str) -> None:
        self.errors.append(HeaderError(line, col, message))

    def directive(self, line: int, col: int, name: str, words: list[str]) -> None:
        handler = _HANDLERS.get(name)
        if handler is None:
            known = ", ".join(sorted(_HANDLERS))
            self.error(line, col, f"unknown tdc directive '{name}' (known: {known})")
            return
        if name in self.seen and name != "tolerance":
            self.error(line, col, f"tdc directive '{name}' given twice")
            return
        self.seen.add(name)
        handler(self, line, col, words)

    def profiles(self, line: int, col: int, words: list[str]) -> None:
        if words == ["all"]:
            self.header.profiles = list(profiles.PROFILES)
            return
        if not words:
            self.error(line, col, "tdc profiles: expected 'all' or profile names")
            return
        for w in words:
            if w not in profiles.PROFILES:
                known = ", ".join(profiles.PROFILES)
                self.error(line, col, f"tdc profiles: unknown profile '{w}' (known: all, {known})")
                return
            if w in self.header.profiles:
                self.error(line, col, f"tdc profiles: '{w}' listed twice")
                return
        # Recorded in the table's order, whatever the header's order.
        self.header.profiles = [p for p in profiles.PROFILES if p in words]

    def rules(self, line: int, col: int, words: list[str]) -> None:
        for w in words:
            if not _RULE.fullmatch(w):
                self.error(line, col, f"tdc rules: '{w}' is not a rule label R-<label>")
                return
        self.header.rules = list(words)

    def scenarios(self, line: int, col: int, words: list[str]) -> None:
        for w in words:
            if not _SCENARIO.fullmatch(w):
                self.error(line, col, f"tdc scenarios: '{w}' is not a scenario S<n> (or S<n><letter>)")
                return
        self.header.scenarios = list(words)

    def seed_example(self, line: int, col: int, words: list[str]) -> None:
        if len(words) != 1 or not words[0].isdigit():
            self.error(line, col, "tdc seed-example: expected one example number")
            return
        self.header.seed_example = int(words[0])

    def version_probe(self, line: int, col: int, words: list[str]) -> None:
        if len(words) != 1 or not _KEY.fullmatch(words[0]):
            self.error(line, col, "tdc version-probe: expected one key")
            return
        self.header.version_probe = words[0]

    def tolerance(self, line: int, col: int, words: list[str]) -> None:
        usage = "tdc tolerance: expected '<dtype> rtol=<x> atol=<y>'"
        if len(words) != 3:
            self.error(line, col, usage)
            return
        dtype, rtol, atol = words[0], _parse_float(words[1], "rtol"), _parse_float(words[2], "atol")
        if dtype not in FLOAT_DTYPES:
            self.error(line, col, f"tdc tolerance: '{dtype}' is not a floating dtype "
                                  f"({', '.join(FLOAT_DTYPES)})")
        elif rtol is None or atol is None:
            self.error(line, col, usage + " with finite, non-negative x and y")
        elif dtype in self.header.tolerance:
            self.error(line, col, f"tdc tolerance: '{dtype}' given twice")
        else:
            self.header.tolerance[dtype] = {"rtol": rtol, "atol": atol}

    def variant_of(self, line: int, col: int, words: list[str]) -> None:
        if len(words) != 2 or not words[0].endswith(".py") or words[1] not in VARIANT_TRANSFORMS:
            self.error(line, col, "tdc variant-of: expected '<fixture path> <transform>' with "
                                  f"transform one of {', '.join(VARIANT_TRANSFORMS)}")
            return
        self.header.variant_of = {"fixture": words[0], "transform": words[1]}

    def awaits(self, line: int, col: int, words: list[str]) -> None:
        unknown = [w for w in words if w not in AWAITS]
        if not words or unknown:
            self.error(line, col, "tdc awaits: expected one or more of " + ", ".join(AWAITS))
            return
        self.header.awaits = list(words)


# directive -> handler (SCHEMA.md §2's table).
_HANDLERS = {
    "profiles": _Parser.profiles,
    "rules": _Parser.rules,
    "scenarios": _Parser.scenarios,
    "seed-example": _Parser.seed_example,
    "version-probe": _Parser.version_probe,
    "tolerance": _Parser.tolerance,
    "variant-of": _Parser.variant_of,
    "awaits": _Parser.awaits,
}


def parse(source: str, code_lines: set[int]) -> tuple[Header, list[HeaderError]]:
    """Parses the header of a fixture.

    Args:
      source: the fixture's text.
      code_lines: the 1-based lines that hold code (from the AST); a directive on or after
        the first of them is an error, since the header comes before any code.
    Returns:
      The header and the errors found (``profiles`` missing is one of them).
    """
    parser = _Parser()
    first_code = min(code_lines) if code_lines else None
    for number, text in enumerate(source.splitlines(), start=1):
        stripped = text.lstrip()
        match = _DIRECTIVE.match(stripped)
        if not match:
            continue
        col = len(text) - len(stripped) + 1
        if first_code is not None and number >= first_code:
            parser.error(number, col, "tdc directive after code: the header comes first")
            continue
        if not stripped.startswith("# tdc: ") or col != 1:
            parser.error(number, col, "malformed tdc directive: write '# tdc: <directive> <words>'"
                                      " at the start of a line")
            continue
        words = stripped[len("# tdc: "):].split()
        if not words:
            parser.error(number, col, "empty tdc directive")
            continue
        parser.directive(number, col, words[0], words[1:])
    if "profiles" not in parser.seen:
        parser.error(1, 1, "missing '# tdc: profiles ...' directive (required)")
    return parser.header, parser.errors
