"""record_op_values.py --check's one allowance: a result value of an op torch computes through
MKL may be one ULP from the committed one (the CPU picks MKL's code path); any other change
is staleness. The values are hand-picked neighbours, not recorded output."""

import importlib.util
import json
import pathlib
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
SPEC = importlib.util.spec_from_file_location("record_op_values", HERE / "record_op_values.py")
rov = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(rov)


def doc(values, dtype="float32", op="sqrt"):
    return {"op": op, "torch": "2.13.0+cpu", "capability": "default",
            "cases": [{"surface": "function", "args": [], "kwargs": {}, "check_values": True,
                       "expect": {"dtype": dtype, "sizes": [len(values)], "strides": [1],
                                  "offset": 0, "aliases_input": False, "values": values}}]}


class OneUlpTest(unittest.TestCase):
    def test_neighbouring_float32s_are_one_ulp_apart(self):
        self.assertTrue(rov.one_ulp_apart("0x1.7bb598p-1", "0x1.7bb59ap-1", "float32"))

    def test_two_float32_ulps_are_not(self):
        self.assertFalse(rov.one_ulp_apart("0x1.7bb598p-1", "0x1.7bb59cp-1", "float32"))

    def test_a_float64_ulp_is_far_smaller_than_a_float32_one(self):
        self.assertTrue(rov.one_ulp_apart("0x1.fadaa8f7eed50p-1", "0x1.fadaa8f7eed51p-1",
                                          "float64"))
        self.assertFalse(rov.one_ulp_apart("0x1.7bb598p-1", "0x1.7bb59ap-1", "float64"))

    def test_nan_is_never_close(self):
        self.assertFalse(rov.one_ulp_apart("nan", "nan", "float32"))


class CpuRoundingOnlyTest(unittest.TestCase):
    def test_counts_the_one_ulp_differences(self):
        old = doc(["0x1.7bb598p-1", "0x1.0p+0"])
        new = doc(["0x1.7bb59ap-1", "0x1.0p+0"])
        self.assertEqual(rov.cpu_rounding_only(old, new), 1)

    def test_a_larger_difference_is_stale(self):
        self.assertIsNone(rov.cpu_rounding_only(doc(["0x1.7bb598p-1"]), doc(["0x1.7bb5a0p-1"])))

    def test_a_change_beside_the_values_is_stale(self):
        old, new = doc(["0x1.0p+0"]), doc(["0x1.0p+0"])
        new["cases"][0]["expect"]["strides"] = [2]
        self.assertIsNone(rov.cpu_rounding_only(old, new))

    def test_integer_results_never_get_the_allowance(self):
        self.assertIsNone(rov.cpu_rounding_only(doc([1], "int64"), doc([2], "int64")))


class FreshTest(unittest.TestCase):
    def write(self, name, document):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        path = pathlib.Path(folder.name) / f"{name}.json"
        path.write_text(rov.json_text(document))
        return path

    def test_a_cpu_dependent_op_one_ulp_off_is_fresh(self):
        path = self.write("sqrt", doc(["0x1.7bb598p-1"]))
        self.assertTrue(rov.fresh(path, rov.json_text(doc(["0x1.7bb59ap-1"])), "sqrt"))

    def test_another_op_one_ulp_off_is_stale(self):
        path = self.write("sin", doc(["0x1.7bb598p-1"], op="sin"))
        self.assertFalse(rov.fresh(path, rov.json_text(doc(["0x1.7bb59ap-1"], op="sin")), "sin"))

    def test_a_missing_file_is_stale(self):
        self.assertFalse(rov.fresh(pathlib.Path(tempfile.gettempdir()) / "tdc-absent-op.json", "{}", "sqrt"))


if __name__ == "__main__":
    unittest.main()
