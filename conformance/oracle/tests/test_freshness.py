"""The freshness check (freshness.py, SCHEMA.md §9) and the sample of ``check``, on a
temporary repository tree (paths.REPO_ROOT and the fixture tree patched)."""

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from conformance.oracle import check, freshness, hashing, paths

GOLDEN = paths.FIXTURES_DIR / "seed" / "example5_graph_break.golden.json"


class FreshnessTest(unittest.TestCase):

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="tdc-freshness-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        fixtures = self.tmp / "fixtures"
        for name, value in (("REPO_ROOT", self.tmp), ("FIXTURES_DIR", fixtures),
                            ("ERRORS_DIR", fixtures / "errors")):
            patcher = mock.patch.object(paths, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)
        (fixtures / "g").mkdir(parents=True)
        (fixtures / "errors").mkdir()
        (fixtures / "errors" / "bad.py").write_text("x = (\n")  # needs no golden
        self.fixture = fixtures / "g" / "a.py"
        self.fixture.write_text("# tdc: profiles all\nout = 1\n")
        self.write_golden()

    def write_golden(self, **meta):
        document = json.loads(GOLDEN.read_text())
        document["meta"].update({"fixture": "fixtures/g/a.py",
                                 "fixture_sha256": hashing.file_sha256(self.fixture),
                                 "oracle_sha256": hashing.oracle_sha256(), **meta})
        paths.golden_path(self.fixture).write_text(json.dumps(document))

    def test_fresh(self):
        self.assertEqual(freshness.problems(), [])
        self.assertEqual(freshness.count(), 1)

    def test_fixture_changed(self):
        self.fixture.write_text("# tdc: profiles all\nout = 2\n")
        [problem] = freshness.problems()
        self.assertIn("fixtures/g/a.golden.json: stale: the fixture changed", problem)

    def test_oracle_changed(self):
        self.write_golden(oracle_sha256="0" * 64)
        [problem] = freshness.problems()
        self.assertIn("stale: the oracle changed", problem)

    def test_fixture_without_golden(self):
        (self.fixture.parent / "b.py").write_text("out = 1\n")
        [problem] = freshness.problems()
        self.assertTrue(problem.startswith("fixtures/g/b.py: no golden"), problem)

    def test_golden_without_fixture(self):
        self.fixture.unlink()
        [problem] = freshness.problems()
        self.assertIn("golden without a fixture", problem)

    def test_invalid_golden(self):
        golden = paths.golden_path(self.fixture)
        document = json.loads(golden.read_text())
        del document["eager"]
        golden.write_text(json.dumps(document))
        [problem] = freshness.problems()
        self.assertIn("does not validate", problem)


class NoTorchTest(unittest.TestCase):

    def test_freshness_and_lint_import_no_torch(self):
        # Over a tree of one fixture and its golden: the whole tree is ci/oracle freshness's.
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="tdc-no-torch-"))
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "fixtures" / "errors").mkdir(parents=True)
        for f in (GOLDEN, paths.fixture_of_golden(GOLDEN)):
            shutil.copy(f, tmp / "fixtures" / f.name)
        code = ("import sys\n"
                "from conformance.oracle import cli, freshness, lint, paths\n"
                f"paths.FIXTURES_DIR = paths.pathlib.Path({str(tmp / 'fixtures')!r})\n"
                "paths.ERRORS_DIR = paths.FIXTURES_DIR / 'errors'\n"
                "freshness.problems()\n"
                "lint.lint_file('fixtures/seed/example5_graph_break.py')\n"
                "print('torch' in sys.modules, freshness.count())\n")
        result = subprocess.run([sys.executable, "-c", code], cwd=paths.REPO_ROOT,
                                capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.strip(), "False 1")


class OracleHashTest(unittest.TestCase):

    def test_covers_sources_not_tests_or_caches(self):
        files = [paths.rel(f) for f in hashing.oracle_files()]
        self.assertIn("conformance/oracle/backend.py", files)
        self.assertIn("conformance/oracle/golden.schema.json", files)
        self.assertFalse([f for f in files if "/tests/" in f or "/testdata/" in f
                          or "__pycache__" in f])
        self.assertEqual(files, sorted(files))


class SampleTest(unittest.TestCase):

    def test_sample_depends_only_on_seed(self):
        fixtures = [pathlib.Path(f"/r/fixtures/g/f{i:02}.py") for i in range(40)]
        a = check.sample(fixtures, 20, "0123abcd")
        self.assertEqual(len(a), 20)
        self.assertEqual(a, check.sample(list(reversed(fixtures)), 20, "0123abcd"))
        self.assertNotEqual(a, check.sample(fixtures, 20, "fedc9876"))
        self.assertEqual(check.sample(fixtures[:5], 20, "x"), fixtures[:5])


if __name__ == "__main__":
    unittest.main()
