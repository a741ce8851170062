"""The CUDA backend through tdconform, on a machine without a GPU (issue 31), and the
report's parity fields (--tolerance, each case's judged outputs, the backend's environment):
  - libtdc_backend_cuda.so loads, says in its environment that there is no CUDA device, and
    every case is NOT_SUPPORTED (load/backend_unavailable) with that reason: nothing passes,
    so the run does not succeed;
  - libtdc_backend_cuda_emulated.so (the same kernel code on the host) passes the seed cases
    and its report, valid against conformance/runner/report.schema.json, lists every output
    it judged with its errors;
  - --tolerance names the policy in both reports; an unknown one is refused, naming those
    there are.
Run by ctest (gpu.cuda_backend) from the repository root:
  python gpu/backend/tests/test_cuda_backend.py TDCONFORM CUDA_BACKEND EMULATED_BACKEND
Exits 77 (ctest's SKIP) where the machine has a CUDA device: the no-device path cannot be
seen there (gpu/device-check.sh is that machine's check).
"""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import jsonschema
import junitparser

TDCONFORM = CUDA = EMULATED = ""
SCHEMA = json.loads(Path("conformance/runner/report.schema.json").read_text())
SEED = ["--filter", "fixtures:seed:*"]
OUT = tempfile.TemporaryDirectory()


def run(*args):
    return subprocess.run([TDCONFORM, "--out", OUT.name, *args], capture_output=True, text=True, check=False)


def reports(backend, *args):
    """The run, its JSON report and its JUnit report."""
    json_path, junit_path = Path(OUT.name) / "report.json", Path(OUT.name) / "report.xml"
    result = run("--backend", backend, *SEED, "--json", str(json_path), "--junit", str(junit_path), *args)
    report = json.loads(json_path.read_text())
    jsonschema.validate(report, SCHEMA)
    return result, report, junitparser.JUnitXml.fromfile(str(junit_path))


def properties(junit):
    suite = next(iter(junit))
    return {p.name: p.value for p in suite.properties()}


class NoDeviceTest(unittest.TestCase):
    def test_every_case_is_not_supported_for_want_of_a_device(self):
        result, report, junit = reports(CUDA)
        cases = report["cases"]
        self.assertGreater(len(cases), 10)
        for case in cases:
            self.assertEqual((case["status"], case["phase"], case["reason"]),
                             ("NOT_SUPPORTED", "load", "backend_unavailable"), case["id"])
            self.assertTrue(case["message"].startswith("no CUDA device: cudaGetDeviceCount"), case["message"])
            self.assertEqual(case["outputs"], [])
        self.assertEqual(report["summary"], {"passed": 0, "failed": 0, "skipped": len(cases), "succeeded": False})
        self.assertEqual(result.returncode, 1, result.stdout[-2000:] + result.stderr)
        self.assertTrue(report["backend"]["environment"].startswith("no CUDA device"))
        self.assertEqual(properties(junit)["backend.environment"], report["backend"]["environment"])


class ParityReportTest(unittest.TestCase):
    def test_the_emulated_backend_passes_and_lists_what_it_judged(self):
        result, report, junit = reports(EMULATED)
        self.assertEqual(result.returncode, 0, result.stdout[-2000:] + result.stderr)
        self.assertEqual(report["tolerance"], "torch-default")
        self.assertEqual(properties(junit)["tdconform.tolerance"], "torch-default")
        self.assertIn("no device", report["backend"]["environment"])
        passed = [c for c in report["cases"] if c["status"] == "PASS"]
        self.assertGreater(len(passed), 10)
        judged = [o for c in passed for o in c["outputs"]]
        self.assertGreater(len(judged), len(passed))
        for output in judged:
            self.assertTrue(output["passed"], output)
            self.assertTrue(output["detail"].startswith("every element within rtol"), output)
        # Some graph had no opaque node: it was run again in float64.
        self.assertTrue(any(isinstance(o["rmse_vs_fp64"], float) for o in judged))

    def test_the_policy_is_the_one_named(self):
        for given, named in (("ulp 2", "ulp 2"), ("ulp:3", "ulp 3"), ("cosine", "cosine"), ("dynamo-same", "dynamo-same")):
            result, report, junit = reports(EMULATED, "--tolerance", given)
            self.assertEqual(report["tolerance"], named)
            self.assertEqual(properties(junit)["tdconform.tolerance"], named)

    def test_an_unknown_policy_is_refused_naming_the_policies(self):
        result = run("--backend", EMULATED, *SEED, "--tolerance", "loose")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("unknown tolerance policy 'loose': one of torch-default, dynamo-same, cosine, ulp N",
                      result.stderr)
        result = run("--backend", EMULATED, *SEED, "--tolerance", "ulp x")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("tolerance policy 'ulp' needs a count of ULPs", result.stderr)


if __name__ == "__main__":
    TDCONFORM, CUDA, EMULATED = sys.argv[1:4]
    del sys.argv[1:4]
    probe = run("--backend", CUDA, "--case", "fixtures:seed:example5_graph_break:profile=torch-2.13:level=dynamo")
    if "backend_unavailable" not in probe.stdout:
        print("SKIP: this machine has a CUDA device; the no-device path is not seen here:\n" + probe.stdout)
        sys.exit(77)
    unittest.main()
