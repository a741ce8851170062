#!/usr/bin/env python3
"""nightly_report.py's own test (issue 30): a history in which one benchmark slows down by
30% at a known commit and stays slow, one speeds up in the latest run and one stays put
(samples written here, with noise). The report must flag the first as a regression that
appeared at that commit (red in the HTML), the second as an improvement, leave the third
alone, draw a plot for each, and exit 1 because of the regression."""
from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
REPORT = HERE / "nightly_report.py"


def samples(rng: random.Random, center: float) -> list[float]:
    return [center * (1 + rng.uniform(-0.01, 0.01)) for _ in range(8)]


def history() -> list[dict]:
    rng = random.Random(30)
    runs = []
    for i in range(6):
        commit = f"{i:02d}" + "c" * 38
        runs.append({"commit": commit, "date": f"2026-12-0{i + 1}T00:00:00Z",
                     "machine": {"host_name": "test", "num_cpus": 2},
                     "benchmarks": {
                         "BM_Steady": samples(rng, 1000.0),
                         "BM_Slower": samples(rng, 1000.0 if i < 3 else 1300.0),
                         "BM_Faster": samples(rng, 1000.0 if i < 5 else 700.0)}})
    return runs


class NightlyReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory(prefix="tdc-nightly-test-")
        root = pathlib.Path(cls.tmp.name)
        path = root / "history.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in history()))
        cls.out = root / "report"
        cls.result = subprocess.run([sys.executable, REPORT, "--history", path, "--out", cls.out],
                                 capture_output=True, text=True)
        cls.summary = (cls.out / "summary.md").read_text()
        cls.page = (cls.out / "index.html").read_text()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_a_regression_fails_the_run(self) -> None:
        self.assertEqual(self.result.returncode, 1, self.result.stdout + self.result.stderr)

    def test_the_regression_is_dated_to_the_commit_where_it_appeared(self) -> None:
        self.assertRegex(self.summary, r"\| BM_Slower +\| regression +\| 03c+ +\| 02c+ +\| \+(2[7-9]|3[0-3])\.\d%")

    def test_the_improvement_is_found_in_the_latest_run(self) -> None:
        self.assertRegex(self.summary, r"\| BM_Faster +\| improvement +\| 05c+ +\| 04c+ +\| -(2[7-9]|3[0-3])\.\d%")

    def test_a_steady_benchmark_is_not_flagged(self) -> None:
        self.assertNotIn("| BM_Steady", self.summary)
        self.assertIn('<div class="plot" id="BM_Steady"><svg', self.page)

    def test_the_page_marks_the_regression_in_red(self) -> None:
        self.assertIn('<div class="plot flag-regression" id="BM_Slower"><svg', self.page)
        self.assertIn('<table class="regression">', self.page)
        self.assertIn(".regression{color:#fff;background:#c62828}", self.page)

    def test_every_benchmark_has_a_plot(self) -> None:
        self.assertEqual(self.page.count("<svg"), 3)


if __name__ == "__main__":
    unittest.main()
