"""tdconform's reports read back by the libraries the field uses: the JUnit XML by
junitparser, the JSON report validated against conformance/runner/report.schema.json by
jsonschema, the case times (--timings) against conformance/runner/timings.schema.json; the
same run gives the same JSON bytes whatever --jobs; --shard and GoogleTest's
shard variables partition a selection; --strict fails on an XPASS or a stale expectation,
and --update-expectations writes a file that accepts the run. HardeningTest (issue 32): runs
interrupted or not started, hostile backends' strings, processes left behind.

Run by ctest (conformance.reports) from the repository root:
  python conformance/runner/tests/test_reports.py TDCONFORM TEMPLATE_BACKEND
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree
from pathlib import Path

import jsonschema
import junitparser

TDCONFORM = ""
BACKEND = ""
SELECTION = ["--filter", "fixtures:seed:*", "--filter", "fixtures:probes:sum:*"]
SCHEMA = Path("conformance/runner/report.schema.json")
TIMINGS_SCHEMA = Path("conformance/runner/timings.schema.json")


OUT = tempfile.TemporaryDirectory()  # failure folders, if any


def run(*args, env=None):
    return subprocess.run([TDCONFORM, "--out", OUT.name, *args], capture_output=True, text=True, env=env, check=False)


class ReportsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        out = Path(cls.dir.name)
        cls.json_path, cls.junit_path, timings_path = out / "report.json", out / "report.xml", out / "timings.json"
        start = time.monotonic()
        cls.result = run("--backend", BACKEND, *SELECTION, "--json", str(cls.json_path), "--junit", str(cls.junit_path),
                         "--timings", str(timings_path))
        cls.wall_seconds = time.monotonic() - start
        cls.report = json.loads(cls.json_path.read_text())
        cls.timings = json.loads(timings_path.read_text())

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
        self.assertEqual({c["engine"] for c in self.report["cases"]}, {"reference"})

    def test_the_timings_give_each_case_of_the_report_the_seconds_it_ran(self):
        jsonschema.validate(self.timings, json.loads(TIMINGS_SCHEMA.read_text()))
        self.assertEqual((self.timings["state"], self.timings["jobs"], self.timings["library"]), ("complete", 1, BACKEND))
        self.assertEqual([(c["id"], c["engine"], c["status"]) for c in self.timings["cases"]],
                         [(c["id"], c["engine"], c["status"]) for c in self.report["cases"]])
        seconds = [c["seconds"] for c in self.timings["cases"]]
        # Every case of this selection ran (NOT_SUPPORTED ones too: the backend said so from
        # the case's process), one at a time: each took time, and together no more than the run.
        self.assertTrue(all(s is not None and s > 0 for s in seconds), seconds)
        self.assertLessEqual(sum(seconds), self.wall_seconds)

    def test_a_torch_engine_report_names_its_engine(self):
        json_path = Path(self.dir.name) / "torch.json"
        done = run("--engine", "torch", "--backend", "py:conformance.python.bundled:eager",
                   "--filter", "torch:seed:example5_graph_break:*", "--json", str(json_path))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        report = json.loads(json_path.read_text())
        jsonschema.validate(report, json.loads(SCHEMA.read_text()))
        self.assertEqual([(c["id"], c["engine"], c["status"]) for c in report["cases"]],
                         [(f"torch:seed:example5_graph_break:profile={p}", "torch", "PASS")
                          for p in ("torch-2.13", "torch-2.13-ngb")])

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
        # Each case's line says what the closing line counts it as.
        self.assertIn(f"\n{passing}: XPASS: expected FAIL (expected to fail, fixed since), passed\n",
                      "\n" + loose.stdout)
        strict = run("--backend", BACKEND, *SELECTION, "--expectations", str(expectations), "--strict")
        self.assertEqual(strict.returncode, 1, strict.stdout + strict.stderr)
        self.assertIn(f"{expectations}:2: stale expectation: fixtures:nothing:* FAIL", strict.stdout)
        # An expired entry is stale because it expired, and says so (it was "matched no case").
        expired = Path(self.dir.name) / "expired.txt"
        expired.write_text(f"{passing} FAIL expires=2020-01-01 accepted until 2020\n")
        old = run("--backend", BACKEND, *SELECTION, "--expectations", str(expired), "--strict")
        self.assertEqual(old.returncode, 1, old.stdout + old.stderr)
        self.assertIn(f"{expired}:1: stale expectation: {passing} FAIL expired on 2020-01-01\n",
                      old.stdout)
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
        self.assertIn("\nfixtures:probes:sum:profile=torch-2.13:level=dynamo: XFAIL ", "\n" + strict.stdout)

    def test_shards_partition_the_selection(self):
        everything = run("--list", *SELECTION).stdout.splitlines()
        self.assertGreater(len(everything), 3)
        shards = [run("--list", *SELECTION, "--shard", f"{i}/3").stdout.splitlines() for i in range(3)]
        self.assertEqual(sorted(sum(shards, [])), sorted(everything))
        self.assertEqual(len(set(sum(shards, []))), len(everything))
        env = dict(os.environ, GTEST_TOTAL_SHARDS="3", GTEST_SHARD_INDEX="1")
        self.assertEqual(run("--list", *SELECTION, env=env).stdout.splitlines(), shards[1])


def library(name):
    """A bundled backend beside the template (build/lib/libtdc_backend_<name>.so)."""
    return str(Path(BACKEND).with_name(f"libtdc_backend_{name}.so"))


def alive(match):
    """The live (not zombie) processes whose command line or name contains `match`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(errors="replace")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        state = stat[stat.rfind(")") + 2:][:1]
        if state != "Z" and (match in cmdline or f"({match})" in stat):
            found.append(int(entry.name))
    return found


# Issue 32: a run stopped, or ended before any case, leaves reports that say so; strings a
# backend gives are safe in both reports; outputs naming one file, unknown listed ids and
# impossible timeouts are refused before anything runs; nothing a run started outlives it.
class HardeningTest(unittest.TestCase):
    NO_SIN = "fixtures:disable:disable_nested_compile_still_compiles:profile=torch-2.13:level=dynamo"
    SIN = "fixtures:compile_switches:s14_compile_disable_false_cache_hit:profile=torch-2.13:level=dynamo"

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def stale_reports(self):
        """Reports from an earlier run that succeeded, where this run writes its own."""
        json_path, junit_path = self.out / "r.json", self.out / "r.xml"
        json_path.write_text(json.dumps({"summary": {"succeeded": True}}))
        junit_path.write_text("<testsuites/>")
        return json_path, junit_path

    def interrupt(self, signal_number):
        json_path, junit_path = self.stale_reports()
        timings_path = self.out / "t.json"
        caselist = self.out / "cases.txt"
        caselist.write_text(f"{self.NO_SIN}\n{self.SIN}\n")
        marker = str(self.out / "out")  # in every case process's command line (a fork of tdconform)
        process = subprocess.Popen([TDCONFORM, "--out", marker, "--backend", library("broken_hang_on_sin"), "--caselist",
                                    str(caselist), "--jobs", "2", "--timeout", "300", "--json", str(json_path), "--junit",
                                    str(junit_path), "--timings", str(timings_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # tdconform and its two case processes, then the case without sin passes (its judge
            # a fork too) and the one with sin hangs until killed: two processes left, for good.
            # The moments with two processes before that last microseconds (between two forks),
            # so two for a whole second is the state wanted; a sampled three is too easily missed.
            two_since = None
            for _ in range(1200):
                if len(alive(marker)) != 2:
                    two_since = None
                elif two_since is None:
                    two_since = time.monotonic()
                elif time.monotonic() - two_since >= 1.0:
                    break
                time.sleep(0.1)
            self.assertEqual(json.loads(json_path.read_text())["state"], "running")
            process.send_signal(signal_number)
            stdout, stderr = process.communicate(timeout=60)
        finally:
            process.kill()
        self.assertEqual(process.returncode, -signal_number, stdout + stderr)
        report = json.loads(json_path.read_text())
        jsonschema.validate(report, json.loads(SCHEMA.read_text()))
        self.assertEqual(report["state"], "interrupted")
        self.assertIn(f"interrupted by {signal.Signals(signal_number).name} after 1 of 2 cases", report["detail"])
        self.assertEqual([(c["id"], c["status"]) for c in report["cases"]], [(self.NO_SIN, "PASS")])
        self.assertFalse(report["summary"]["succeeded"])
        suite = list(junitparser.JUnitXml.fromfile(str(junit_path)))[0]
        self.assertEqual(sorted(case.name for case in suite), sorted([self.NO_SIN, "tdconform:run"]))
        timings = json.loads(timings_path.read_text())
        jsonschema.validate(timings, json.loads(TIMINGS_SCHEMA.read_text()))
        self.assertEqual((timings["state"], timings["detail"]), (report["state"], report["detail"]))
        self.assertEqual([c["id"] for c in timings["cases"]], [self.NO_SIN])
        self.assertGreater(timings["cases"][0]["seconds"], 0)
        time.sleep(0.5)
        self.assertEqual(alive(marker), [], "case processes outlived the run")

    def test_sigint_leaves_reports_marked_interrupted_and_no_process(self):
        self.interrupt(signal.SIGINT)

    def test_sigterm_leaves_reports_marked_interrupted_and_no_process(self):
        self.interrupt(signal.SIGTERM)

    def test_a_run_that_cannot_start_replaces_the_previous_reports(self):
        malformed_list, malformed_expectations = self.out / "bad_cases.txt", self.out / "bad_expectations.txt"
        malformed_list.write_text("not an id\n")
        malformed_expectations.write_text("s:g:a NOPE why\n")
        for args, code in [(["--backend", "/nonexistent/libnothing.so"], 1),
                           (["--backend", BACKEND, "--caselist", "/nonexistent/cases.txt"], 2),
                           (["--backend", BACKEND, "--expectations", "/nonexistent/expectations.txt"], 2),
                           (["--backend", BACKEND, "--caselist", str(malformed_list)], 2),
                           (["--backend", BACKEND, "--expectations", str(malformed_expectations)], 2)]:
            json_path, junit_path = self.stale_reports()
            timings_path = self.out / "t.json"
            timings_path.write_text(json.dumps({"state": "complete"}))
            result = run(*args, "--json", str(json_path), "--junit", str(junit_path), "--timings", str(timings_path))
            self.assertEqual(result.returncode, code, result.stdout + result.stderr)
            report = json.loads(json_path.read_text())
            jsonschema.validate(report, json.loads(SCHEMA.read_text()))
            self.assertEqual(report["state"], "not_run", args)
            self.assertFalse(report["summary"]["succeeded"])
            suite = list(junitparser.JUnitXml.fromfile(str(junit_path)))[0]
            self.assertEqual([case.name for case in suite], ["tdconform:run"])
            timings = json.loads(timings_path.read_text())
            self.assertEqual((timings["state"], timings["cases"]), ("not_run", []), args)
        # The located error of a malformed file is the report's detail.
        self.assertIn(f"{malformed_expectations}:1:7: error: 'NOPE' is not a status", report["detail"])

    def test_a_partial_run_under_strict_judges_only_the_entries_of_what_it_ran(self):
        # An entry for a case of the other shard is not stale in this one (it was counted so).
        other = run("--backend", BACKEND, *SELECTION, "--shard", "1/2", "--list").stdout.split()
        expectations = self.out / "other_shard.txt"
        expectations.write_text(f"{other[0]} FAIL fails in the other shard\n")
        result = run("--backend", BACKEND, *SELECTION, "--shard", "0/2", "--strict", "--expectations",
                     str(expectations))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertNotIn("stale expectation", result.stdout)
        # The whole selection runs that case, which passes: the entry is stale there.
        whole = run("--backend", BACKEND, *SELECTION, "--strict", "--expectations", str(expectations))
        self.assertEqual(whole.returncode, 1, whole.stdout + whole.stderr)

    def test_a_case_list_naming_an_unknown_case_is_an_error(self):
        caselist = self.out / "cases.txt"
        caselist.write_text(f"{self.NO_SIN}\nfixtures:seed:no_such_case:profile=torch-2.13:level=dynamo\n")
        result = run("--backend", BACKEND, "--caselist", str(caselist))
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn("'fixtures:seed:no_such_case:profile=torch-2.13:level=dynamo' is no case of the suite",
                      result.stderr)

    def test_outputs_naming_one_file_are_refused(self):
        same = self.out / "same"
        for args in (["--json", str(same), "--junit", str(same)], ["--json", str(same), "--expectations", str(same)],
                     ["--timings", str(same), "--junit", str(same)]):
            result = run("--backend", BACKEND, *SELECTION, *args)
            self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
            self.assertIn("name the same file", result.stderr)
            self.assertFalse(same.exists())

    def test_timeouts_and_jobs_out_of_range_are_refused(self):
        timeout = "--timeout: a number of seconds above 0, at most 604800"
        for args, message in ((["--timeout", "nan"], timeout), (["--timeout", "1e12"], timeout),
                              (["--timeout", "inf"], timeout),
                              (["--jobs", "0"], "--jobs: Value 0 not in range 1 to 1024")):
            result = run("--backend", BACKEND, *SELECTION, *args)
            self.assertNotEqual(result.returncode, 0, args)
            self.assertIn(message, result.stderr)
            self.assertLess(len(result.stderr), 300, result.stderr)  # no 300-digit bound

    def test_a_backend_path_of_invalid_utf8_runs_and_reports(self):
        # The template under a name with a 0xFF byte: its cases run, both reports stay valid.
        library_path = os.fsdecode(bytes(self.out) + b"/lib\xff.so")
        shutil.copy(BACKEND, library_path)
        json_path, junit_path = self.out / "r.json", self.out / "r.xml"
        result = run("--backend", library_path, "--filter", self.NO_SIN, "--json", str(json_path), "--junit",
                     str(junit_path))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        report = json.loads(json_path.read_bytes().decode("utf-8"))  # strict UTF-8
        self.assertEqual((report["state"], report["summary"]["passed"]), ("complete", 1))
        self.assertTrue(report["backend"]["library"].endswith("/lib\ufffd.so"), report["backend"]["library"])
        xml.etree.ElementTree.parse(junit_path)  # well-formed XML

    def test_backend_strings_are_safe_in_both_reports(self):
        json_path, junit_path = self.out / "r.json", self.out / "r.xml"
        result = run("--backend", library("broken_bad_utf8"), "--filter", self.NO_SIN, "--json", str(json_path),
                     "--junit", str(junit_path))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(result.stdout.strip().splitlines()[-1], "0 passed, 1 failed, 0 skipped")
        report = json.loads(json_path.read_bytes().decode("utf-8"))  # strict UTF-8
        self.assertEqual(report["backend"]["name"], "bad\ufffd\ufffdutf8")
        self.assertEqual(report["cases"][0]["status"], "BACKEND_ERROR")
        self.assertIn("\\x1b[31merror", report["cases"][0]["message"])
        xml.etree.ElementTree.parse(junit_path)  # well-formed XML
        self.assertEqual(len(list(list(junitparser.JUnitXml.fromfile(str(junit_path)))[0])), 1)

    def test_no_process_a_backend_forked_outlives_the_run(self):
        # The helper leaves its case's process group (setsid): tdconform, its subreaper,
        # kills it at the run's end.
        result = run("--backend", library("broken_escapes_group"), "--filter", self.NO_SIN)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        time.sleep(0.5)
        self.assertEqual(alive("tdc_escapee"), [])


if __name__ == "__main__":
    TDCONFORM, BACKEND = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
