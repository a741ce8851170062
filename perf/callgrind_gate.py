#!/usr/bin/env python3
"""The callgrind gate (issue 30): the instruction count of each perf scenario, measured
under `valgrind --tool=callgrind` inside TdcPerfMeasured only, against
perf/callgrind_expected.csv (scenario, instructions, margin).

A count past its row's margin above the expected one is a regression and fails; one past
the margin below is an improvement and fails too until the file is updated (the ratchet of
PyTorch's pr_time_benchmarks): `--update` writes the measured counts, keeping each margin.
Instruction counts, not seconds: the same binary on the same inputs counts the same
whatever else the machine is doing.

Exit status: 0 all within their margins, 1 a count outside its margin or a scenario that
failed, 2 the gate could not run (no valgrind, a file that does not match the scenarios).
"""
from __future__ import annotations

import argparse
import csv
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

FIELDS = ["scenario", "instructions", "margin"]
MEASURED = "TdcPerfMeasured"


@dataclass
class Row:
    scenario: str
    instructions: int
    margin: float


class GateError(Exception):
    """Something that stops the gate before it can judge (exit 2)."""


def read_expected(path: Path) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != FIELDS:
            raise GateError(f"{path}:1: header must be {','.join(FIELDS)}")
        for line, record in enumerate(reader, start=2):
            try:
                row = Row(record["scenario"], int(record["instructions"]), float(record["margin"]))
            except (TypeError, ValueError) as e:
                raise GateError(f"{path}:{line}: {e}") from None
            if not 0 < row.margin < 1:
                raise GateError(f"{path}:{line}: margin {row.margin} must be in (0, 1)")
            if row.scenario in rows:
                raise GateError(f"{path}:{line}: scenario {row.scenario} listed twice")
            rows[row.scenario] = row
    return rows


def write_expected(path: Path, rows: list[Row]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(FIELDS)
        for row in rows:
            writer.writerow([row.scenario, row.instructions, row.margin])


def list_scenarios(binary: Path) -> list[str]:
    out = subprocess.run([binary, "--list"], check=True, capture_output=True, text=True).stdout
    return [line.split("\t")[0] for line in out.splitlines() if line]


def count_instructions(binary: Path, scenario: str) -> int:
    """Ir inside TdcPerfMeasured for one run of `scenario`."""
    with tempfile.TemporaryDirectory(prefix="tdc-callgrind-") as tmp:
        out_file = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
             f"--toggle-collect={MEASURED}", "--quiet", binary, scenario],
            capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{scenario}: exit {run.returncode}: {run.stderr.strip()}")
        totals = re.search(r"^(?:totals|summary): (\d+)", out_file.read_text(), re.M)
        if totals is None:
            raise GateError(f"{scenario}: no totals line in callgrind's output")
        return int(totals.group(1))


def verdict(row: Row, measured: int) -> str:
    ratio = measured / row.instructions
    if ratio > 1 + row.margin:
        return "REGRESSION"
    if ratio < 1 - row.margin:
        return "IMPROVEMENT (update the file: perf/callgrind_gate.py --update)"
    return "ok"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, required=True, help="bin/tdc_perf_scenario")
    parser.add_argument("--expected", type=Path,
                        default=Path(__file__).resolve().parent / "callgrind_expected.csv")
    parser.add_argument("--only", action="append", default=[], metavar="SCENARIO",
                        help="measure these scenarios only (repeatable)")
    parser.add_argument("--update", action="store_true",
                        help="write the measured counts to --expected (margins kept; 0.02 for a new row)")
    args = parser.parse_args(argv)

    if shutil.which("valgrind") is None:
        print("callgrind_gate: error: valgrind not on PATH (ci/setup installs it)", file=sys.stderr)
        return 2
    try:
        scenarios = list_scenarios(args.binary)
        expected = read_expected(args.expected) if args.expected.exists() or not args.update else {}
        if not args.update:
            stale = sorted(set(expected) - set(scenarios))
            unlisted = sorted(set(scenarios) - set(expected))
            if stale or unlisted:
                raise GateError(f"{args.expected}: rows without a scenario {stale}, "
                                f"scenarios without a row {unlisted}: run with --update")
        unknown = sorted(set(args.only) - set(scenarios))
        if unknown:
            raise GateError(f"--only: no scenario {unknown}")
        chosen = [s for s in scenarios if not args.only or s in args.only]

        table, failures, updated = [], 0, []
        for scenario in chosen:
            try:
                measured = count_instructions(args.binary, scenario)
            except RuntimeError as e:
                table.append([scenario, "-", "-", "-", f"FAILED: {e}"])
                failures += 1
                continue
            row = expected.get(scenario)
            updated.append(Row(scenario, measured, row.margin if row else 0.02))
            if row is None:
                table.append([scenario, "-", measured, "-", "new"])
                continue
            word = verdict(row, measured)
            failures += word != "ok" and not args.update
            table.append([scenario, row.instructions, measured,
                          f"{measured / row.instructions:.4f}", f"{word} (margin {row.margin:g})"])
    except GateError as e:
        print(f"callgrind_gate: error: {e}", file=sys.stderr)
        return 2

    print(tabulate(table, headers=["scenario", "expected Ir", "measured Ir", "ratio", "verdict"],
                   tablefmt="github"))
    if args.update:
        kept = {r.scenario: r for r in expected.values()}
        kept.update({r.scenario: r for r in updated})
        write_expected(args.expected, [kept[s] for s in scenarios if s in kept])
        print(f"callgrind_gate: wrote {args.expected} ({len(chosen) - failures} of "
              f"{len(chosen)} measured)")
    else:
        print(f"callgrind_gate: {len(chosen) - failures} of {len(chosen)} within their margins")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
