"""The pytest plugin (conformance/python/pytest_tdconform.py) on a scratch project outside the
checkout, as a vendor runs it: their own test beside the cases, a backend module of their own,
an expectation file, pytest's --junitxml read back with junitparser.

    python -m unittest conformance.python.tests.test_pytest_plugin   (TDCONFORM_BIN: the build's)
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import unittest

import junitparser

ROOT = pathlib.Path(__file__).resolve().parents[3]
PLUGIN_DIR = ROOT / "conformance" / "python"
RELU = "fixtures:seed:example5_graph_break:profile={}:level=dynamo"
ALLOWED = "fixtures:seed:example4_allow_in_graph:profile=torch-2.13:level=dynamo"
TORCH_RELU = "torch:seed:example5_graph_break:profile={}"

BACKENDS = textwrap.dedent("""\
    import torch


    def good(gm, example_inputs):
        return gm.forward


    def wrong_relu(gm, example_inputs):
        for node in gm.graph.nodes:
            if node.op == "call_function" and node.target in (torch.relu,
                                                              torch.nn.functional.relu):
                node.target = torch.abs
        gm.recompile()
        return gm.forward
    """)


class PytestPluginTest(unittest.TestCase):
    def setUp(self):
        self.project = pathlib.Path(tempfile.mkdtemp(prefix="tdconform-vendor-"))
        (self.project / "vendor_backend.py").write_text(BACKENDS, encoding="utf-8")
        (self.project / "test_vendor.py").write_text(
            "def test_vendor_unit():\n    assert 1 + 1 == 2\n", encoding="utf-8")

    def pytest(self, *args):
        """pytest's exit status and each test's outcome by name (from its JUnit report)."""
        junit = self.project / "junit.xml"
        env = dict(os.environ, PYTHONPATH=str(PLUGIN_DIR))
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "pytest_tdconform", "-p", "no:cacheprovider",
             f"--junitxml={junit}", *args],
            cwd=self.project, env=env, capture_output=True, text=True, timeout=600)
        outcomes = {}
        if junit.exists():
            for suite in junitparser.JUnitXml.fromfile(str(junit)):
                for case in suite:
                    result = case.result[0] if case.result else None
                    outcomes[case.name] = (type(result).__name__ if result else "Passed",
                                           result.message if result else "")
        return done.returncode, outcomes, done.stdout + done.stderr

    def test_a_good_backend_passes_beside_the_vendors_own_test(self):
        status, outcomes, out = self.pytest("--tdconform-backend=vendor_backend:good",
                                            "--tdconform-filter", RELU.format("*"))
        self.assertEqual(status, 0, out)
        self.assertEqual(outcomes, {"test_vendor_unit": ("Passed", ""),
                                    RELU.format("torch-2.13"): ("Passed", ""),
                                    RELU.format("torch-2.13-ngb"): ("Passed", "")})

    def test_a_wrong_backend_fails_and_an_expectation_makes_it_xfail(self):
        (self.project / "expected.txt").write_text(
            RELU.format("torch-2.13") + " FAIL relu swapped for abs on purpose\n", encoding="utf-8")
        status, outcomes, out = self.pytest("--tdconform-backend=vendor_backend:wrong_relu",
                                            "--tdconform-filter", RELU.format("*"),
                                            "--tdconform-expectations", "expected.txt", "-rxX")
        self.assertEqual(status, 1, out)
        self.assertEqual(outcomes[RELU.format("torch-2.13")][0], "Skipped")  # JUnit's xfail
        kind, message = outcomes[RELU.format("torch-2.13-ngb")]
        self.assertEqual(kind, "Failure")
        self.assertIn("FAIL compare/value_mismatch", out)
        self.assertIn("repro: tdconform --case '" + RELU.format("torch-2.13-ngb")
                      + "' --backend 'py:vendor_backend:wrong_relu'", out)
        self.assertIn("XFAIL tdconform::" + RELU.format("torch-2.13"), out)
        self.assertIn("relu swapped for abs on purpose", out)

    def test_an_xpass_fails_only_when_strict(self):
        (self.project / "expected.txt").write_text(
            RELU.format("torch-2.13") + " FAIL thought broken\n", encoding="utf-8")
        args = ["--tdconform-backend=vendor_backend:good", "--tdconform-filter",
                RELU.format("torch-2.13"), "--tdconform-expectations", "expected.txt", "-rxX"]
        status, _, out = self.pytest(*args)
        self.assertEqual(status, 0, out)
        self.assertIn("XPASS tdconform::" + RELU.format("torch-2.13"), out)
        status, outcomes, out = self.pytest(*args, "--tdconform-strict")
        self.assertEqual(status, 1, out)
        self.assertEqual(outcomes[RELU.format("torch-2.13")][0], "Failure")

    def test_not_supported_is_a_skip_with_its_reason_never_a_pass(self):
        status, outcomes, out = self.pytest(
            "--tdconform-backend=conformance.python.bundled:aot_eager",
            "--tdconform-filter", ALLOWED, "-rs")
        self.assertEqual(status, 0, out)
        kind, message = outcomes[ALLOWED]
        self.assertEqual(kind, "Skipped")
        self.assertIn("NOT_SUPPORTED backend_compile/rejected", message)

    def test_k_selects_among_the_cases(self):
        status, outcomes, out = self.pytest("--tdconform-backend=vendor_backend:good",
                                            "--tdconform-filter", RELU.format("*"),
                                            "-k", "ngb and not vendor_unit")
        self.assertEqual(status, 0, out)
        self.assertEqual(list(outcomes), [RELU.format("torch-2.13-ngb")])
        self.assertIn("2 deselected", out)

    def test_the_torch_engine_runs_the_cases_under_torch_compile(self):
        status, outcomes, out = self.pytest("--tdconform-backend=vendor_backend:good",
                                            "--tdconform-engine", "torch",
                                            "--tdconform-filter", TORCH_RELU.format("*"))
        self.assertEqual(status, 0, out)
        self.assertEqual(outcomes, {TORCH_RELU.format(p): ("Passed", "")
                                    for p in ("torch-2.13", "torch-2.13-ngb")}
                         | {"test_vendor_unit": ("Passed", "")})
        status, outcomes, out = self.pytest("--tdconform-backend=vendor_backend:wrong_relu",
                                            "--tdconform-engine", "torch",
                                            "--tdconform-filter", TORCH_RELU.format("torch-2.13"))
        self.assertEqual(status, 1, out)
        self.assertEqual(outcomes[TORCH_RELU.format("torch-2.13")][0], "Failure")
        self.assertIn("FAIL compare/value_mismatch", out)

    def test_without_the_backend_option_the_plugin_adds_nothing(self):
        status, outcomes, out = self.pytest()
        self.assertEqual(status, 0, out)
        self.assertEqual(list(outcomes), ["test_vendor_unit"])


if __name__ == "__main__":
    unittest.main()
