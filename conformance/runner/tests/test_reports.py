"""tdconform's reports read back by the libraries the field uses: the JUnit XML by
junitparser, the JSON report validated against conformance/runner/report.schema.json by
jsonschema; the same run gives the same JSON bytes whatever --jobs; --shard and GoogleTest's
shard variables partition a selection; --strict fails on an XPASS or a stale expectation,
and --update-expectations writes a file that accepts the run.

Run by ctest (conformance.reports) from the repository root:
  python conformance/runner/tests/test_reports.py TDCONFORM TEMPLATE_BACKEND
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import jsonschema
import junitparser

TDCONFORM = ""
BACKEND = ""
SELECTION = ["--filter", "fixtures:seed:*", "--filter", "fixtures:probes:sum:*"]
SCHEMA = Path("conformance/runner/report.schema.json")


OUT = tempfile.TemporaryDirectory()  # failure folders, if any


def run(*args, env=None):
    return subprocess.run([TDCONFORM, "--out", OUT.name, *args], capture_output=True, text=True, env=env, check=False)


class ReportsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        out = Path(cls.dir.name)
        cls.json_path, cls.junit_path = out / "report.json", out / "report.xml"
        cls.result = run("--backend", BACKEND, *SELECTION, "--json", str(cls.json_path), "--junit", str(cls.junit_path))
        cls.report = json.loads(cls.json_path.read_text())

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_the_run_succeeds_and_closes_with_its_counts(self):
        summary = self.report["summary"]
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        last = self.result.stdout.strip().splitlines()[-1]
        self.assertEqual(last, f"{summary['passed']} passed, {summary['failed']} failed, {summary['skipped']} skipped")
        self.assertGreater(summary["passed"], 0)
        self.assertGreater(summary["skipped"], 0)  # probes:sum is NOT_SUPPORTED on the template

    def test_the_json_report_follows_its_schema(self):
        jsonschema.validate(self.report, json.loads(SCHEMA.read_text()))
        self.assertEqual(self.report["backend"]["name"], "template")

    def test_the_junit_report_reads_back_with_the_same_counts(self):
        xml = junitparser.JUnitXml.fromfile(str(self.junit_path))
        suites = list(xml)
        self.assertEqual(len(suites), 1)
        suite = suites[0]
        cases = list(suite)
        self.assertEqual(len(cases), len(self.report["cases"]))
        self.assertEqual(suite.tests, len(self.report["cases"]))
        by_name = {case.name: case for case in cases}
        for entry in self.report["cases"]:
            case = by_name[entry["id"]]
            kinds = {type(r).__name__ for r in case.result}
            if entry["status"] == "PASS":
                self.assertEqual(kinds, set(), entry["id"])
            elif entry["status"] in ("NOT_SUPPORTED", "XFAIL", "SKIPPED"):
                self.assertEqual(kinds, {"Skipped"}, entry["id"])
            else:
                self.assertTrue(kinds & {"Failure", "Error"}, entry["id"])
        self.assertEqual(suite.skipped, self.report["summary"]["skipped"])
        self.assertEqual(suite.failures + suite.errors, self.report["summary"]["failed"])

    def test_the_same_run_gives_the_same_json_bytes_whatever_the_jobs(self):
        again = Path(self.dir.name) / "again.json"
        result = run("--backend", BACKEND, *SELECTION, "--jobs", "2", "--json", str(again))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(again.read_bytes(), self.json_path.read_bytes())

    def test_strict_fails_on_an_unexpected_pass_and_a_stale_entry(self):
        passing = next(c["id"] for c in self.report["cases"] if c["status"] == "PASS")
        expectations = Path(self.dir.name) / "xpass.txt"
        expectations.write_text(f"{passing} FAIL expected to fail, fixed since\n"
                                "fixtures:nothing:* FAIL matches no case\n")
        loose = run("--backend", BACKEND, *SELECTION, "--expectations", str(expectations))
        self.assertEqual(loose.returncode, 0, loose.stdout + loose.stderr)
        strict = run("--backend", BACKEND, *SELECTION, "--expectations", str(expectations), "--strict")
        self.assertEqual(strict.returncode, 1, strict.stdout + strict.stderr)
        self.assertIn(f"{expectations}:2: stale expectation: fixtures:nothing:* FAIL", strict.stdout)
        loose_summary = loose.stdout.strip().splitlines()[-1]
        strict_summary = strict.stdout.strip().splitlines()[-1]
        self.assertNotEqual(loose_summary, strict_summary)

    def test_updated_expectations_accept_the_run_under_strict(self):
        expectations = Path(self.dir.name) / "updated.txt"
        update = run("--backend", BACKEND, *SELECTION, "--expectations", str(expectations), "--update-expectations")
        self.assertEqual(update.returncode, 0, update.stdout + update.stderr)
        self.assertIn("fixtures:probes:sum:profile=torch-2.13:level=dynamo NOT_SUPPORTED ", expectations.read_text())
        strict = run("--backend", BACKEND, *SELECTION, "--expectations", str(expectations), "--strict")
        self.assertEqual(strict.returncode, 0, strict.stdout + strict.stderr)

    def test_shards_partition_the_selection(self):
        everything = run("--list", *SELECTION).stdout.splitlines()
        self.assertGreater(len(everything), 3)
        shards = [run("--list", *SELECTION, "--shard", f"{i}/3").stdout.splitlines() for i in range(3)]
        self.assertEqual(sorted(sum(shards, [])), sorted(everything))
        self.assertEqual(len(set(sum(shards, []))), len(everything))
        env = dict(os.environ, GTEST_TOTAL_SHARDS="3", GTEST_SHARD_INDEX="1")
        self.assertEqual(run("--list", *SELECTION, env=env).stdout.splitlines(), shards[1])


if __name__ == "__main__":
    TDCONFORM, BACKEND = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
