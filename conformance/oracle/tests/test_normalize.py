"""Text normalization (SCHEMA.md §8)."""

import importlib.util
import os
import sysconfig
import unittest

from conformance.oracle import paths
from conformance.oracle.normalize import normalize

ROOT = str(paths.REPO_ROOT)
TORCH = os.path.dirname(importlib.util.find_spec("torch").origin)
STDLIB = sysconfig.get_paths()["stdlib"]


class NormalizeTest(unittest.TestCase):

    def test_repo_paths_become_relative(self):
        self.assertEqual(normalize(f'File "{ROOT}/fixtures/seed/x.py", line 3'),
                         'File "fixtures/seed/x.py", line 3')
        self.assertEqual(normalize(f"cwd {ROOT}"), "cwd ")

    def test_torch_before_repo_root(self):
        # torch lives inside the repository's .venv: the longer prefix wins.
        self.assertEqual(normalize(f"{TORCH}/_dynamo/eval_frame.py:12"),
                         "<torch>/_dynamo/eval_frame.py:12")

    def test_python_stdlib(self):
        self.assertEqual(normalize(f"{STDLIB}/runpy.py"), "<python>/runpy.py")

    def test_addresses(self):
        self.assertEqual(normalize("<function f at 0x7f4bb07c7e50>"), "<function f at 0x?>")
        self.assertEqual(normalize("0xABCDEF and 0x12345 and 0x0"), "0x? and 0x12345 and 0x0")

    def test_line_endings(self):
        self.assertEqual(normalize("a\r\nb\rc\n"), "a\nb\rc\n")

    def test_idempotent(self):
        text = f"{ROOT}/a.py {TORCH}/b.py 0xdeadbeef\r\n"
        self.assertEqual(normalize(normalize(text)), normalize(text))


if __name__ == "__main__":
    unittest.main()
