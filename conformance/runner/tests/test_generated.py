"""tdconform's generated programs and failure folders, through its command line.

--fuzz N --seed S adds N programs (4 cases each: 2 profiles x 2 graph levels) whose
expected outcome comes from the reference, or with --vs-torch from torch 2.13.0 through the
oracle; a generated case runs alone by its id; a failed case leaves a folder named on its
`details:` line, which a later pass removes; the first --shrink generated cases the backend
fails are shrunk into their folders.

Run by ctest (conformance.generated) from the repository root:
  python conformance/runner/tests/test_generated.py TDCONFORM LIBDIR BUILDDIR
"""

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TDCONFORM = ""
LIBDIR = Path()
BUILDDIR = Path()


def run(*args):
    return subprocess.run([TDCONFORM, *args], capture_output=True, text=True, check=False)


def backend(name):
    return str(LIBDIR / f"libtdc_backend_{name}.so")


def closing(result):
    return result.stdout.strip().splitlines()[-1]


class GeneratedTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def test_generated_programs_run_as_cases_and_give_the_same_report(self):
        args = ["--backend", backend("reference"), "--fuzz", "3", "--seed", "5", "--filter", "fuzz:*",
                "--out", str(self.out)]
        first = run(*args, "--json", str(self.out / "one.json"))
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        self.assertEqual(first.stdout.splitlines()[0],
                         "generated: 3 programs, seeds 5 to 7 (expected outcome from the reference)")
        self.assertEqual(closing(first), "12 passed, 0 failed, 0 skipped")
        report = json.loads((self.out / "one.json").read_text())
        self.assertEqual(sorted({c["id"].split(":")[2] for c in report["cases"]}), ["seed_5", "seed_6", "seed_7"])
        self.assertTrue((self.out / "generated/reference/seed_6.py").read_text().startswith("# tdc: profiles all"))
        again = run(*args, "--jobs", "2", "--json", str(self.out / "two.json"))
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertEqual((self.out / "two.json").read_bytes(), (self.out / "one.json").read_bytes())
        alone = run("--backend", backend("reference"), "--out", str(self.out),
                    "--case", "fuzz:reference:seed_6:profile=torch-2.13-ngb:level=aten")
        self.assertEqual(alone.returncode, 0, alone.stdout + alone.stderr)
        self.assertEqual(alone.stdout, "fuzz:reference:seed_6:profile=torch-2.13-ngb:level=aten: PASS\n")

    def test_a_failure_leaves_a_folder_that_a_later_pass_removes(self):
        selection = ["--filter", "fixtures:seed:example5*", "--out", str(self.out)]
        failed = run("--backend", backend("broken_segv_in_run"), *selection, "--json", str(self.out / "r.json"))
        self.assertEqual(failed.returncode, 1, failed.stdout + failed.stderr)
        report = json.loads((self.out / "r.json").read_text())
        crashed = [c for c in report["cases"] if c["status"] == "CRASH"]
        self.assertTrue(crashed, failed.stdout)
        for case in crashed:
            folder = self.out / "failures" / case["id"]
            self.assertIn(f"  details: {folder}/\n", failed.stdout)
            about = json.loads((folder / "case.json").read_text())
            self.assertEqual(about["verdict"]["status"], "CRASH")
            self.assertEqual(about["verdict"]["message"], case["message"])
            self.assertEqual(about["repro"], case["repro"])
            self.assertEqual((folder / "program.py").read_text(), Path(about["program"]).read_text())
            self.assertIn("compiled", json.loads((folder / "expected.json").read_text()))
            graph = json.loads((folder / "graphs/0.json").read_text())
            self.assertTrue(graph["inputs"])
            self.assertNotIn("backend_outputs", graph)  # it crashed in run()
        passed = run("--backend", backend("reference"), *selection)
        self.assertEqual(passed.returncode, 0, passed.stdout + passed.stderr)
        self.assertEqual(list((self.out / "failures").iterdir()), [])

    def test_a_generated_case_the_backend_fails_is_shrunk_into_its_folder(self):
        # broken_wrong_numerics multiplies the outputs of every graph with an add by 1.001:
        # the smallest program that still fails holds one statement, an add.
        args = ["--backend", backend("broken_wrong_numerics"), "--fuzz", "4", "--filter", "fuzz:*",
                "--out", str(self.out), "--json", str(self.out / "r.json")]
        result = run(*args, "--shrink", "1")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        report = json.loads((self.out / "r.json").read_text())
        failed = [c for c in report["cases"] if c["status"] == "FAIL"]
        self.assertTrue(failed, result.stdout)
        first = failed[0]["id"]
        folder = self.out / "failures" / first
        shrunk = [line for line in result.stdout.splitlines() if line.startswith("shrunk ")]
        self.assertEqual(len(shrunk), 1, result.stdout)  # --shrink 1
        self.assertTrue(shrunk[0].startswith(f"shrunk {first}: {folder}/shrunk.py (1 statements, from "), shrunk[0])
        program = (folder / "shrunk.py").read_text()
        body = program[program.index("def f0(x):"):program.index("def h0(x):")]
        self.assertEqual(body.split(), ["def", "f0(x):", "x", "=", "x", "+", "0.25", "return", "x"])
        golden = json.loads((folder / "shrunk.golden.json").read_text())
        self.assertEqual(golden["meta"]["fixture"], str(folder / "shrunk.py"))
        none = run(*args, "--shrink", "0")
        self.assertNotIn("shrunk ", none.stdout)

    def test_vs_torch_takes_the_expected_outcome_from_the_oracle(self):
        out = BUILDDIR / "test-generated-vs-torch"  # the oracle records programs inside the repository
        shutil.rmtree(out, ignore_errors=True)
        result = run("--backend", backend("reference"), "--fuzz", "2", "--seed", "100", "--vs-torch",
                     "--filter", "fuzz:*", "--out", str(out))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(closing(result), "8 passed, 0 failed, 0 skipped")
        golden = json.loads((out / "generated/torch/seed_101.golden.json").read_text())
        self.assertEqual(golden["meta"]["torch_version"], "2.13.0+cpu")  # recorded by torch
        reference = json.loads((out / "generated/torch/seed_101.reference.json").read_text())
        self.assertEqual(reference["meta"]["torch_version"], "reference")  # for a disagreement's folder
        self.assertEqual(len(reference["compiled"]["torch-2.13"]["invocations"]),
                         len(golden["compiled"]["torch-2.13"]["invocations"]))
        outside = run("--backend", backend("reference"), "--fuzz", "1", "--vs-torch", "--filter", "fuzz:*",
                      "--out", str(self.out))
        self.assertEqual(outside.returncode, 2, outside.stdout + outside.stderr)
        self.assertIn("--vs-torch: --out", outside.stderr)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    TDCONFORM, LIBDIR, BUILDDIR = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    unittest.main(argv=sys.argv[:1], verbosity=2)
