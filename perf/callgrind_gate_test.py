#!/usr/bin/env python3
"""The callgrind gate's own test (issue 30): it passes the scenarios as they are, fails a
planted regression (TDC_PERF_PLANTED_WORK adds instructions inside the measured part) and
an improvement past the margin that the file does not record, refuses a file whose rows do
not match the scenarios, and --update writes what it measured.

Needs TDC_PERF_SCENARIO (bin/tdc_perf_scenario) and valgrind; runs one cheap scenario.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
GATE = HERE / "callgrind_gate.py"
EXPECTED = HERE / "callgrind_expected.csv"
SCENARIO = "fixed_cost_eager"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def write(path: Path, records: list[dict[str, str]]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["scenario", "instructions", "margin"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)


class CallgrindGateTest(unittest.TestCase):
    def setUp(self) -> None:
        self.binary = os.environ["TDC_PERF_SCENARIO"]
        self.tmp = tempfile.TemporaryDirectory(prefix="tdc-gate-test-")
        self.addCleanup(self.tmp.cleanup)
        self.expected = {r["scenario"]: r for r in rows(EXPECTED)}

    def gate(self, *args: str, expected: Path = EXPECTED, env: dict[str, str] | None = None):
        return subprocess.run(
            [sys.executable, GATE, "--binary", self.binary, "--expected", expected, *args],
            capture_output=True, text=True, env={**os.environ, **(env or {})})

    def copy_with(self, scenario: str, instructions: int) -> Path:
        records = [dict(r) for r in self.expected.values()]
        for r in records:
            if r["scenario"] == scenario:
                r["instructions"] = str(instructions)
        path = Path(self.tmp.name) / "expected.csv"
        write(path, records)
        return path

    def test_the_scenario_as_it_is_passes(self) -> None:
        run = self.gate("--only", SCENARIO)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("1 of 1 within their margins", run.stdout)

    def test_a_planted_regression_past_the_margin_fails(self) -> None:
        row = self.expected[SCENARIO]
        # Three times the margin's worth of extra instructions inside the measured part.
        planted = int(int(row["instructions"]) * float(row["margin"]) * 3)
        run = self.gate("--only", SCENARIO, env={"TDC_PERF_PLANTED_WORK": str(planted)})
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertRegex(run.stdout, rf"{SCENARIO} .*REGRESSION")

    def test_a_planted_change_inside_the_margin_passes(self) -> None:
        row = self.expected[SCENARIO]
        planted = int(int(row["instructions"]) * float(row["margin"]) / 4)
        run = self.gate("--only", SCENARIO, env={"TDC_PERF_PLANTED_WORK": str(planted)})
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_an_improvement_the_file_does_not_record_fails(self) -> None:
        inflated = int(int(self.expected[SCENARIO]["instructions"]) * 1.5)
        run = self.gate("--only", SCENARIO, expected=self.copy_with(SCENARIO, inflated))
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertRegex(run.stdout, rf"{SCENARIO} .*IMPROVEMENT")

    def test_update_writes_the_measured_count_and_keeps_the_margin(self) -> None:
        path = self.copy_with(SCENARIO, 1)
        run = self.gate("--only", SCENARIO, "--update", expected=path)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        after = {r["scenario"]: r for r in rows(path)}
        self.assertNotEqual(after[SCENARIO]["instructions"], "1")
        self.assertEqual(after[SCENARIO]["margin"], self.expected[SCENARIO]["margin"])
        others = [s for s in self.expected if s != SCENARIO]
        self.assertEqual([after[s] for s in others], [self.expected[s] for s in others])
        self.assertEqual(self.gate("--only", SCENARIO, expected=path).returncode, 0)

    def test_a_file_missing_a_scenario_is_refused(self) -> None:
        path = Path(self.tmp.name) / "short.csv"
        write(path, [r for s, r in self.expected.items() if s != SCENARIO])
        run = self.gate("--only", SCENARIO, expected=path)
        self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
        self.assertIn(f"scenarios without a row ['{SCENARIO}']", run.stderr)


if __name__ == "__main__":
    unittest.main()
