"""Recording smoke test: real torch 2.13.0 through the fork server, both modes.

testdata/record/smoke_graph_break.py breaks the graph between relu and sigmoid. What
torch does there is known independently of the recorder (spec, seed example 5;
torch._dynamo.testing.CompileCounter counts it): two backend invocations, fn's graph
holding torch.relu and the resume function's holding torch.sigmoid, ATen graphs
aten.relu.default and aten.sigmoid.default, one graph break. The other fixtures check
that an exception keeps earlier results, that in-place mutation and tiny floats are
refused, that the ATen capture changes nothing Dynamo does, and that the aot_eager outcome
is the ATen forward graphs' (aot_eager_level.py: an allowed body reading is_compiling()).

torch must not be imported before the fork server has set the environment, so this
module imports it only after recording.
"""

import copy
import unittest

from conformance.oracle import paths, record

TESTDATA = paths.ORACLE_DIR / "testdata" / "record"
NAMES = ["smoke_graph_break", "exception_keeps_outs", "inplace_augassign", "small_float",
         "small_float_tolerance", "aot_eager_level"]


def _targets(graph):
    return [n["target"] for n in graph["nodes"] if n["op"].startswith("call")]


def _floats(value):
    return [float.fromhex(v) for v in value["tensor"]["values"]]


class RecordingTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        fixtures = [TESTDATA / f"{n}.py" for n in NAMES]
        cls.results = {n: r for n, r in zip(NAMES, record.record(fixtures, parallel=2))}
        cls.uncaptured = record.record([TESTDATA / "smoke_graph_break.py"], capture_aten=False)[0]

    def recorded(self, name):
        item = self.results[name]
        self.assertEqual(item.errors, [])
        return item.document

    def test_smoke_compiled(self):
        c = self.recorded("smoke_graph_break")["compiled"]["torch-2.13"]
        self.assertEqual((c["counters"]["frame_count"], c["counters"]["op_count"]), (2, 2))
        self.assertEqual(c["outs"]["out_counts"], {"tuple": [{"int": 2}, {"int": 2}]})
        self.assertEqual(c["outs"]["out_same_function"], {"bool": False})
        first, second = c["invocations"]
        self.assertEqual(first["trigger"], {"code": "fn", "resume": False, "line": 10})
        self.assertEqual(second["trigger"], {"code": "torch_dynamo_resume_in_fn_at_10",
                                             "resume": True, "line": 12})
        self.assertEqual((first["compile_id"], second["compile_id"]), ("0/0", "1/0"))
        self.assertFalse(first["recompile"] or second["recompile"])
        self.assertEqual(_targets(first["dynamo_graph"]), ["torch.relu"])
        self.assertEqual(_targets(second["dynamo_graph"]), ["torch.sigmoid"])
        self.assertEqual(_targets(first["aten_graph"]), ["aten.relu.default"])
        self.assertEqual(_targets(second["aten_graph"]), ["aten.sigmoid.default"])
        self.assertEqual(first["dynamo_graph"]["nodes"][0]["source"], "L['x']")
        self.assertEqual(first["dynamo_graph"]["nodes"][0]["shape"], [8])
        [gb] = c["graph_breaks"]
        self.assertEqual(gb["location"], {"file": paths.rel(TESTDATA / "smoke_graph_break.py"),
                                          "line": 10})
        self.assertEqual(gb["gb_type"], "Call to `torch._dynamo.graph_break()`")
        self.assertEqual([f["name"] for f in gb["user_stack"]], ["<module>", "fn"])
        [(key, count)] = c["counters"]["graph_break"].items()
        self.assertTrue(key.startswith(gb["gb_type"] + "\n  Explanation: "))
        self.assertEqual(count, 1)

    def test_smoke_eager_and_values(self):
        import torch

        document = self.recorded("smoke_graph_break")
        eager = document["eager"]
        self.assertIsNone(eager["exception"])
        # TORCHDYNAMO_DISABLE=1: torch.compile returned fn itself, the backend never ran.
        self.assertEqual(eager["outs"]["out_same_function"], {"bool": True})
        self.assertEqual(eager["outs"]["out_counts"], {"tuple": [{"int": 0}, {"int": 0}]})
        want = torch.sigmoid(torch.relu(torch.linspace(-2.0, 2.0, 8)))
        values = [float.fromhex(v) for v in eager["outs"]["out"]["tensor"]["values"]]
        self.assertEqual(values, want.tolist())
        self.assertEqual(document["compiled"]["torch-2.13"]["outs"]["out"], eager["outs"]["out"])
        self.assertEqual(list(document["compiled"]), ["torch-2.13"])
        self.assertEqual(document["meta"]["environment"],
                         {"ATEN_CPU_CAPABILITY": "default", "num_threads": 1})

    def test_capture_changes_nothing_dynamo_does(self):
        captured = copy.deepcopy(self.recorded("smoke_graph_break")["compiled"]["torch-2.13"])
        plain = copy.deepcopy(self.uncaptured.document["compiled"]["torch-2.13"])
        for invocation in plain["invocations"]:
            self.assertEqual((invocation["aten_graph"], invocation["aten_error"]), (None, None))
        for invocation in captured["invocations"] + plain["invocations"]:
            invocation.pop("aten_graph")
            invocation.pop("aten_error")
        self.assertEqual(captured, plain)

    def test_aot_eager_runs_the_aten_graphs(self):
        c = self.recorded("aot_eager_level")["compiled"]["torch-2.13"]
        self.assertEqual(_floats(c["outs"]["out"]), [2.0, 4.0])
        aot = c["aot_eager"]
        self.assertEqual(_floats(aot["outs"]["out"]), [3.0, 6.0])
        self.assertEqual(aot["outs"]["out_counts"], c["outs"]["out_counts"])
        self.assertEqual((aot["exception"], aot["unsupported"]), (None, None))
        smoke = self.recorded("smoke_graph_break")["compiled"]["torch-2.13"]
        self.assertEqual(smoke["aot_eager"]["outs"], smoke["outs"])

    def test_exception_keeps_earlier_results(self):
        eager = self.recorded("exception_keeps_outs")["eager"]
        self.assertEqual(eager["exception"], {"type": "RuntimeError", "message": "stopped here"})
        self.assertEqual(sorted(eager["outs"]), ["out_before", "out_list"])
        self.assertEqual(eager["outs"]["out_list"], {"list": [
            {"int": 1}, {"float": "0x1.4000000000000p+1"}, {"str": "s"}, {"none": None}]})

    def test_inplace_mutation_is_refused(self):
        item = self.results["inplace_augassign"]
        self.assertIsNone(item.document)
        self.assertEqual(len(item.errors), 1, item.errors)
        self.assertIn("inplace_augassign.py:6:1: error: in-place mutation of an existing "
                      "tensor (aten.add_.Tensor)", item.errors[0])

    def test_small_floats_need_a_tolerance(self):
        item = self.results["small_float"]
        self.assertIsNone(item.document)
        self.assertIn("|v| < 1e-3", item.errors[0])
        self.assertIn("eager.outs.out.values[2]", item.errors[0])
        self.recorded("small_float_tolerance")


if __name__ == "__main__":
    unittest.main()
