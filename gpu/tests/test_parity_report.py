"""gpu/parity_report.py on hand-made reports: outputs grouped per probe op and per run, the
largest statistic kept (a ULP distance across a NaN, "nan", above any number; "inf" above any
finite error; null when nothing measured it), statuses counted, graphs per second.

Run by ctest (gpu.parity_report) from the repository root:
  python gpu/tests/test_parity_report.py
"""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path


def output(graph, **statistics):
    base = {"graph": graph, "what": f"graph {graph}/0 (dynamo level)", "output": 0, "dtype": "float32", "shape": [2],
            "passed": True, "detail": "", "max_abs_error": 0.0, "max_rel_error": 0.0, "max_ulp": 0, "p99_ulp": 0,
            "rmse_vs_fp64": None, "noise_floor_rmse": None}
    base.update(statistics)
    return base


def case(case_id, status, outputs):
    return {"id": case_id, "status": status, "phase": None, "reason": "", "message": "", "repro": None, "outputs": outputs}


def report(cases):
    return {"schema": "tdconform-report/1", "abi": "1.1", "tolerance": "ulp 4", "state": "complete", "detail": "",
            "backend": {"name": "cuda", "version": "0.1", "vendor": "tdconform", "environment": "NVIDIA H200 (sm_90)", "library": "x.so"},
            "summary": {"passed": 2, "failed": 1, "skipped": 0, "succeeded": False}, "cases": cases}


class ParityReportTest(unittest.TestCase):
    def test_outputs_are_summed_up_per_op_and_per_run(self):
        suite = report([
            case("fixtures:probes:sin:profile=torch-2.13:level=dynamo", "PASS",
                 [output(0, max_ulp=1, p99_ulp=1, max_abs_error=1e-7, rmse_vs_fp64=2e-8), output(1, max_ulp=3, p99_ulp=2)]),
            case("fixtures:probes:sin:profile=torch-2.13:level=aten", "FAIL", [output(0, max_ulp="nan", max_abs_error="inf")]),
            case("fixtures:seed:example1:profile=torch-2.13:level=dynamo", "PASS", [output(0), output(0, max_ulp=7)]),
        ])
        with tempfile.TemporaryDirectory() as d:
            Path(d, "suite.json").write_text(json.dumps(suite))
            result = subprocess.run([sys.executable, "gpu/parity_report.py", "--json", f"{d}/p.json", "--markdown", f"{d}/p.md",
                                     f"suite={d}/suite.json:2.5"], capture_output=True, text=True, check=False)
            self.assertEqual(result.returncode, 0, result.stderr)
            document = json.loads(Path(d, "p.json").read_text())
            markdown = Path(d, "p.md").read_text()
        groups = {g["group"]: g for g in document["groups"]}
        self.assertEqual(list(groups), ["op sin", "suite"])
        sin = groups["op sin"]
        self.assertEqual(sin["statuses"], {"PASS": 1, "FAIL": 1})
        self.assertEqual(sin["outputs"], 3)
        self.assertEqual((sin["max_ulp"], sin["p99_ulp"], sin["max_abs_error"]), ("nan", 2, "inf"))
        self.assertEqual((sin["rmse_vs_fp64"], sin["noise_floor_rmse"]), (2e-8, None))
        self.assertEqual((groups["suite"]["outputs"], groups["suite"]["max_ulp"]), (2, 7))
        # Graphs: 2 + 1 + 1 (two outputs of one graph count once), in 2.5 s.
        run = document["runs"][0]
        self.assertEqual((run["graphs"], run["graphs_per_second"]), (4, 1.6))
        self.assertEqual(document["tolerance"], "ulp 4")
        self.assertIn("- environment: NVIDIA H200 (sm_90)", markdown)
        self.assertIn("| op sin ", markdown)

    def test_a_bad_argument_is_refused_and_located(self):
        result = subprocess.run([sys.executable, "gpu/parity_report.py", "--json", "/dev/null", "--markdown", "/dev/null",
                                 "suite=/nonexistent.json"], capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 2)
        self.assertIn("suite=/nonexistent.json: [Errno 2]", result.stderr)


if __name__ == "__main__":
    unittest.main()
