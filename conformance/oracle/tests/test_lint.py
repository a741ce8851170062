"""The fixture lint (lint.py): each rule rejects its bad fixture, at the right place,
and the good fixtures and every committed fixture pass."""

import pathlib
import re
import tempfile
import unittest

from conformance.oracle import lint, paths

TESTDATA = paths.ORACLE_DIR / "testdata" / "lint"
_EXPECT = re.compile(r"^# expect: (\d+):(\d+): (.*)$", re.M)


def _expected(path: pathlib.Path) -> list[tuple[int, int, str]]:
    return [(int(m[1]), int(m[2]), m[3]) for m in _EXPECT.finditer(path.read_text())]


class LintTest(unittest.TestCase):

    def test_each_bad_fixture_gives_exactly_its_errors(self):
        bad = sorted(TESTDATA.glob("bad_*.py"))
        self.assertGreaterEqual(len(bad), 15)
        for path in bad:
            with self.subTest(fixture=path.name):
                expected = _expected(path)
                self.assertTrue(expected, "a bad fixture states its '# expect:' lines")
                _, errors = lint.lint_file(str(path))
                got = [(e.line, e.col, e.message) for e in errors]
                self.assertEqual(len(got), len(expected), got)
                for (line, col, message), (eline, ecol, eprefix) in zip(got, expected):
                    self.assertEqual((line, col), (eline, ecol), message)
                    self.assertTrue(message.startswith(eprefix), f"{message!r} vs {eprefix!r}")

    def test_good_fixtures_pass(self):
        for path in sorted(TESTDATA.glob("good_*.py")):
            with self.subTest(fixture=path.name):
                header, errors = lint.lint_file(str(path))
                self.assertEqual(errors, [])
                self.assertTrue(header.profiles)

    def test_header_is_parsed(self):
        header, _ = lint.lint_file(str(TESTDATA / "good_decorator_form.py"))
        self.assertEqual(header.to_json(), {
            "profiles": ["torch-2.13", "torch-2.13-ngb"],
            "rules": ["R-example.label"],
            "scenarios": ["S5", "S50a"],
            "seed_example": 5,
            "version_probe": "config.disable",
            "tolerance": {"float32": {"rtol": 1e-5, "atol": 1e-6},
                          "float64": {"rtol": 0.0, "atol": 0.0}},
            "variant_of": {"fixture": "fixtures/seed/example5_graph_break.py",
                           "transform": "rename"},
        })

    def test_awaits_is_parsed_and_kept_out_of_the_golden(self):
        header, errors = lint.lint_source(
            "# tdc: profiles all\n# tdc: awaits classes export\nout = 1\n")
        self.assertEqual(errors, [])
        self.assertEqual(header.awaits, ["classes", "export"])
        self.assertNotIn("awaits", header.to_json())
        _, errors = lint.lint_source("# tdc: profiles all\n# tdc: awaits generators\nout = 1\n")
        self.assertEqual([(e.line, e.col) for e in errors], [(2, 1)])
        self.assertTrue(errors[0].message.startswith("tdc awaits: expected one or more of classes"))

    def test_every_committed_fixture_passes(self):
        for path in paths.recorded_fixtures():
            with self.subTest(fixture=paths.rel(path)):
                _, errors = lint.lint_file(str(path))
                self.assertEqual([e.format(paths.rel(path)) for e in errors], [])

    def test_syntax_error_at_cpython_position(self):
        # Generated here: a committed file must be valid Python (lang.cpython_ast_equality).
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "broken.py"
            path.write_text("# tdc: profiles all\nout = (1,\n")
            _, errors = lint.lint_file(str(path))
        self.assertEqual([(e.line, e.col) for e in errors], [(2, 7)])
        self.assertIn("never closed", errors[0].message)
        self.assertEqual(errors[0].format("f.py"), f"f.py:2:7: error: {errors[0].message}")

    def test_result_names(self):
        for name in ("out", "out2", "out_eager", "out_x_1", "out__y"):
            self.assertTrue(lint.RESULT_NAME.fullmatch(name), name)
        for name in ("outer", "out_", "output", "Out", "out2x", "xout"):
            self.assertFalse(lint.RESULT_NAME.fullmatch(name), name)


if __name__ == "__main__":
    unittest.main()
