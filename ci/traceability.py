"""Spec traceability (issue 13): every bullet of the spec's §2 and every scenario label of
its §4 is covered by a rule of the reference that in-scope fixtures cite, or excluded by
the scenario map for a reason of its closed list.

    ci/traceability.py --check   the test: exits 1 naming each gap, or a stale STATUS.md
    ci/traceability.py --write   writes reference/STATUS.md (rule x fixtures x profiles x
                                 fuzz coverage, then the spec index and what covers each)

The index is extracted from the spec each run (reference/spec/ holds a copy of
../shared/spec/, which the check compares when it is there: CI checks out this repository
alone); what covers a §2
bullet is stated by hand in reference/traceability.toml (its `begins` text pins the bullet,
so an edited spec fails the check until the table is read again); a §4 scenario is covered
by the fixtures whose `# tdc: scenarios` header names it.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC_COPY = ROOT / "reference" / "spec"
SHARED_SPEC = ROOT.parent / "shared" / "spec"
SPEC = SPEC_COPY / "dynamo-semantics.md"
SCENARIO_MAP = SPEC_COPY / "scenario-map.md"
TABLE = ROOT / "reference" / "traceability.toml"
STATUS = ROOT / "reference" / "STATUS.md"
RULES_DEF = ROOT / "reference" / "dynamo" / "rules.def"
COMPILE_SCOPE = ROOT / "fixtures" / "compile_scope.cmake"
FUZZ_PROPERTIES = ROOT / "fuzz" / "properties_test.cc"
PROFILES = ("torch-2.13", "torch-2.13-ngb")
# scenario-map.md's closed list of exclusion reasons.
REASONS = (
    "needs-classes",
    "needs-dynamic-shapes",
    "needs-export",
    "needs-training",
    "needs-string-or-second-backend",
    "internal-API",
    "not-in-2.13.0",
)


@dataclasses.dataclass
class Bullet:
    key: str  # "2.1.3": section 2.1, third top-level bullet
    text: str  # its first line


def spec_bullets(spec: str) -> list[Bullet]:
    """The top-level bullets of §2, numbered within their ### section."""
    bullets, section, count, inside = [], None, 0, False
    for line in spec.splitlines():
        if line.startswith("## "):
            inside = line.startswith("## 2.")
            continue
        if not inside:
            continue
        heading = re.match(r"### (2\.\d+a?) ", line)
        if heading:
            section, count = heading.group(1), 0
        elif re.match(r"[*-] ", line) and section:
            count += 1
            bullets.append(Bullet(f"{section}.{count}", line[2:].strip()))
    return bullets


def spec_scenarios(spec: str) -> list[str]:
    """The scenario labels of §4 (S1 ... S62), in order."""
    return re.findall(r"^\*\*(S\d+)\*\*", spec, flags=re.M)


def expand_labels(cell: str) -> list[str]:
    """`S16, S17 ...`, `S24–S26 ...`, `S50a, S50b ...` -> the labels named."""
    labels = []
    for first, last in re.findall(r"\b(S\d+[a-z]?)(?:\s*[–-]\s*(S\d+))?", cell):
        if last:
            labels += [f"S{n}" for n in range(int(first[1:]), int(last[1:]) + 1)]
        else:
            labels.append(first)
    return labels


def scenario_map(text: str) -> dict[str, str]:
    """Map label -> owner cell (`excluded: needs-classes` or an issue's first words)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("S"):
            continue
        for label in expand_labels(cells[0].split(" ", 2)[0] + " " + cells[0]):
            rows.setdefault(label, cells[1])
    return rows


def base_label(label: str) -> str:
    """S50a -> S50; S08 -> S8."""
    return "S" + str(int(re.match(r"S(\d+)", label).group(1)))


def normalized(label: str) -> str:
    """S08 -> S8, S50a -> S50a."""
    m = re.match(r"S(\d+)([a-z]?)$", label)
    return f"S{int(m.group(1))}{m.group(2)}" if m else label


def rule_labels() -> list[str]:
    return ["R-" + m for m in re.findall(r'^TDC_RULE\(\w+, *"([a-z0-9-]+)"', RULES_DEF.read_text(), flags=re.M)]


def cmake_list(text: str, name: str) -> list[str]:
    """The entries of every `list(APPEND <name> ...)` / `set(<name> ...)` in `text`."""
    entries = []
    for body in re.findall(rf"(?:list\(APPEND|set\()\s*{name}\b(.*?)\)", text, flags=re.S):
        for line in body.splitlines():
            line = line.split("#", 1)[0].strip()
            entries += line.split()
    return entries


@dataclasses.dataclass
class Fixture:
    path: str  # fixtures/<group>/<name>.py
    rules: set[str]
    scenarios: set[str]
    profiles: list[str]  # the profiles its compiled outcome is checked in


def header(path: Path, key: str) -> list[str]:
    for line in path.read_text().splitlines():
        if not line.startswith("# tdc:"):
            break
        if line.startswith(f"# tdc: {key} "):
            return line.split()[3:]
    return []


def compile_fixtures() -> list[Fixture]:
    """The compile-scope fixtures (fixtures/compile_scope.cmake) with what they cite."""
    text = COMPILE_SCOPE.read_text()
    out = []
    for entry in cmake_list(text, "TDC_COMPILE_FIXTURES"):
        path = ROOT / "fixtures" / f"{entry}.py"
        allowed = header(path, "profiles")
        profiles = [p for p in PROFILES if ("all" in allowed or p in allowed)]
        out.append(
            Fixture(
                f"fixtures/{entry}.py",
                set(header(path, "rules")),
                {normalized(s) for s in header(path, "scenarios")},
                profiles,
            )
        )
    return out


def fuzz_gated_rules() -> dict[str, list[str]]:
    """The rules FuzzGate shows the fuzzers catch when switched off, with the profiles."""
    gated: dict[str, list[str]] = {}
    for rule, nested in re.findall(r'GatedRule\{"([a-z0-9-]+)"(, kNested)?\}', FUZZ_PROPERTIES.read_text()):
        gated.setdefault("R-" + rule, []).append(PROFILES[1] if nested else PROFILES[0])
    return gated


@dataclasses.dataclass
class Report:
    gaps: list[str]
    bullets: list[tuple[Bullet, str]]  # each with what covers it, in words
    scenarios: list[tuple[str, str]]


def check(spec: str, table: dict, fixtures: list[Fixture], smap: dict[str, str]) -> Report:
    rules = set(rule_labels())
    cited = {r for f in fixtures for r in f.rules}
    gaps, bullets, scenarios = [], [], []

    def rule_gaps(where: str, named: list[str]) -> None:
        for rule in named:
            if rule not in rules:
                gaps.append(f"{where}: {rule} is no rule of reference/dynamo/rules.def")
            elif rule not in cited:
                gaps.append(f"{where}: no compile-scope fixture cites {rule}")

    entries = table.get("bullet", {})
    index = spec_bullets(spec)
    for bullet in index:
        entry = entries.get(bullet.key)
        where = f"spec §{bullet.key}"
        if entry is None:
            gaps.append(f"{where}: not in reference/traceability.toml ({bullet.text[:60]!r})")
            bullets.append((bullet, "**not covered**"))
            continue
        if not bullet.text.startswith(entry.get("begins", "\0")):
            gaps.append(f"{where}: the spec's bullet changed; it now begins {bullet.text[:60]!r}")
        if "excluded" in entry:
            reason = entry["excluded"]
            if reason not in REASONS:
                gaps.append(f"{where}: exclusion reason {reason!r} is not in the scenario map's closed list")
            bullets.append((bullet, f"excluded: {reason} ({entry.get('why', '')})"))
        else:
            named = entry.get("rules", [])
            if not named:
                gaps.append(f"{where}: neither rules nor an exclusion")
            rule_gaps(where, named)
            bullets.append((bullet, ", ".join(named)))
    for key in sorted(set(entries) - {b.key for b in index}):
        gaps.append(f"reference/traceability.toml: bullet {key} is not in the spec's §2")

    by_label: dict[str, list[str]] = {}
    for f in fixtures:
        for s in f.scenarios:
            by_label.setdefault(s, []).append(f.path)
    for label in spec_scenarios(spec):
        parts = sorted(k for k in smap if base_label(k) == label) or [label]
        words = []
        for part in parts:
            owner = smap.get(part)
            if owner is None:
                gaps.append(f"spec {part}: not in the scenario map")
                words.append(f"{part}: **not in the scenario map**")
            elif owner.startswith("excluded:"):
                reason = owner.split(":", 1)[1].split()[0]  # `internal-API (needs a torch skip file)`
                if reason not in REASONS:
                    gaps.append(f"scenario map {part}: reason {reason!r} is not in its closed list")
                words.append(f"{part} {owner}")
            elif part in by_label:
                cites = sorted(r for f in fixtures if part in f.scenarios for r in f.rules)
                if not cites:
                    gaps.append(f"spec {part}: its fixtures cite no rule")
                words.append(f"{part}: {len(by_label[part])} fixture(s), {by_label[part][0]}")
            else:
                gaps.append(f"spec {part}: no compile-scope fixture names it (`# tdc: scenarios {part}`)")
                words.append(f"{part}: **no fixture**")
        scenarios.append((label, "; ".join(words)))
    return Report(gaps, bullets, scenarios)


def status_text(report: Report, fixtures: list[Fixture]) -> str:
    gated = fuzz_gated_rules()
    spec_refs = dict(re.findall(r'^TDC_RULE\(\w+, *"([a-z0-9-]+)", *"([^"]*)"', RULES_DEF.read_text(), flags=re.M))
    out = [
        "# Status of the reference",
        "",
        "Generated by `ci/traceability.py --write` from reference/dynamo/rules.def, the",
        "fixture headers, fixtures/compile_scope.cmake, fuzz/properties_test.cc (FuzzGate),",
        "reference/traceability.toml and the spec; ctest `traceability` fails when it is stale.",
        "",
        "## Rules",
        "",
        "Fixtures: the compile-scope fixtures and variants whose header cites the rule, counted",
        "in each profile they are checked in. Fuzz: FuzzGate shows the generated programs",
        "catch the rule switched off, in the profiles named.",
        "",
        "| rule | spec | " + " | ".join(f"fixtures {p}" for p in PROFILES) + " | fuzz |",
        "|---|---|" + "---|" * len(PROFILES) + "---|",
    ]
    for rule in rule_labels():
        counts = [sum(1 for f in fixtures if rule in f.rules and p in f.profiles) for p in PROFILES]
        fuzz = "FuzzGate " + ", ".join(gated[rule]) if rule in gated else "-"
        cells = " | ".join(str(c) for c in counts)
        out.append(f"| {rule} | {spec_refs.get(rule[2:], '')} | {cells} | {fuzz} |")
    out += [
        "",
        "## Profiles",
        "",
        "| profile | compile-scope fixtures checked |",
        "|---|---|",
    ]
    for p in PROFILES:
        out.append(f"| {p} | {sum(1 for f in fixtures if p in f.profiles)} |")
    out += ["", "## Spec §2 bullets", "", "| bullet | begins | covered by |", "|---|---|---|"]
    for bullet, words in report.bullets:
        begins = bullet.text[:60].replace("|", "\\|")
        out.append(f"| §{bullet.key} | {begins} | {words} |")
    out += ["", "## Spec §4 scenarios", "", "| scenario | covered by |", "|---|---|"]
    for label, words in report.scenarios:
        out.append(f"| {label} | {words} |")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="fail on a gap or a stale STATUS.md")
    mode.add_argument("--write", action="store_true", help="write reference/STATUS.md")
    args = parser.parse_args()
    spec = SPEC.read_text()
    with TABLE.open("rb") as f:
        table = tomllib.load(f)
    fixtures = compile_fixtures()
    report = check(spec, table, fixtures, scenario_map(SCENARIO_MAP.read_text()))
    text = status_text(report, fixtures)
    if args.write:
        tmp = STATUS.with_suffix(".md.tmp")
        tmp.write_text(text)
        tmp.replace(STATUS)
    for copy in (SPEC, SCENARIO_MAP):
        shared = SHARED_SPEC / copy.name
        if shared.exists() and shared.read_text() != copy.read_text():
            report.gaps.append(f"reference/spec/{copy.name} differs from {shared}: copy it again")
    for gap in report.gaps:
        print(f"traceability: {gap}", file=sys.stderr)
    if args.check and (not STATUS.exists() or STATUS.read_text() != text):
        print("traceability: reference/STATUS.md is stale: run ci/traceability.py --write", file=sys.stderr)
        return 1
    n = len(report.bullets) + len(report.scenarios)
    print(f"traceability: {n} spec items, {len(report.gaps)} gaps")
    return 1 if report.gaps else 0


if __name__ == "__main__":
    sys.exit(main())
