"""graph_module and host against real torch 2.13.0: the GraphModule tdconform builds from a
canonical graph is the one Dynamo (or AOTAutograd) handed a recording backend, up to what
the canonical form drops; it computes the same values; example inputs are what torch passes."""

import json
import unittest

import torch
from torch._dynamo.backends.common import aot_autograd
from torch._dynamo.source import ConstantSource
from torch._guards import TracingContext
from torch._subclasses.fake_tensor import FakeTensor

from conformance.oracle import graphs
from conformance.python import bundled, graph_module, host


def _program(x, y):
    z = torch.sin(x) + y * 2
    w = torch.nn.functional.relu(z).sum(dim=0, keepdim=True)
    return w.to(torch.float64), x[1:3], torch.clamp(x, min=-0.5)


def _record(level):
    """(GraphModule, example inputs) that torch hands a backend at `level`, and the inputs."""
    seen = []

    def record(gm, example_inputs):
        seen.append((gm, list(example_inputs)))
        return gm.forward if level == "dynamo" else bundled.boxed_nop(gm, example_inputs)

    torch._dynamo.reset()
    backend = record if level == "dynamo" else aot_autograd(fw_compiler=record)
    x, y = torch.randn(4, 3), torch.randn(4, 3)
    torch.compile(_program, backend=backend)(x, y)
    return seen[0], (x, y)


def _without_sources(doc):
    return {"nodes": [dict(n, source=None) if n["op"] == "placeholder" else n
                      for n in doc["nodes"]]}


class GraphModuleTest(unittest.TestCase):

    def check_level(self, level):
        (real, real_inputs), inputs = _record(level)
        doc = graphs.canonical_graph(real, dynamo=level == "dynamo")
        seen = []

        def recorder(gm, example_inputs):
            seen.append((gm, example_inputs))
            return gm.forward if level == "dynamo" else bundled.boxed_nop(gm, example_inputs)

        compiled = host.compile(recorder, json.dumps(doc), level, {}, None)
        built, example_inputs = seen[0]
        rebuilt = graphs.canonical_graph(built, dynamo=level == "dynamo")
        self.assertEqual(_without_sources(rebuilt), _without_sources(doc))
        placeholders = lambda gm: [(n.name, n.target) for n in gm.graph.nodes
                                   if n.op == "placeholder"]
        self.assertEqual(placeholders(built), placeholders(real))
        # Example inputs: real tensors at the Dynamo level, fake ones at the ATen level, as
        # the recording backend got them.
        self.assertEqual([type(e) for e in example_inputs], [type(e) for e in real_inputs])
        self.assertEqual([e.shape for e in example_inputs], [e.shape for e in real_inputs])
        got = [t for _, _, t in host.run(compiled, list(inputs))]
        want = torch.fx.Interpreter(real).boxed_run(list(inputs))
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w, rtol=0, atol=0)
        return example_inputs

    def test_dynamo_level(self):
        example_inputs = self.check_level("dynamo")
        self.assertFalse(any(isinstance(e, FakeTensor) for e in example_inputs))

    def test_aten_level(self):
        example_inputs = self.check_level("aten")
        self.assertTrue(all(isinstance(e, FakeTensor) for e in example_inputs))

    def test_backend_fakes_example_inputs_as_under_dynamo(self):
        # A backend faking its example inputs again in the TracingContext's mode gets what it
        # gets under torch.compile: static sizes plainly, symbolic ones with a source of its
        # own or for a copy (OpenVINO's make_fx retrace; the host once handed the placeholders'
        # memoized static fakes back there).
        seen = []

        def refake(gm, example_inputs):
            mode, x = TracingContext.get().fake_mode, example_inputs[0]
            symbolic = lambda t: [isinstance(s, torch.SymInt) for s in t.shape]
            seen.append((gm, symbolic(mode.from_tensor(x)),
                         symbolic(mode.from_tensor(x, source=ConstantSource("retrace"))),
                         symbolic(mode.from_tensor(x.clone()))))
            return gm.forward

        torch._dynamo.reset()
        torch.compile(lambda a: a.squeeze(0) + 1, backend=refake)(torch.randn(3, 1, 4))
        doc = graphs.canonical_graph(seen[0][0], dynamo=True)
        host.compile(refake, json.dumps(doc), "dynamo", {}, None, [torch.randn(3, 1, 4)])
        self.assertEqual(seen[0][1:], ([False] * 3, [True, False, True], [True, False, True]))
        self.assertEqual(seen[1][1:], seen[0][1:])

    def test_opaque_target_runs_on_the_host(self):
        doc = {"nodes": [
            {"op": "placeholder", "type": "tensor", "shape": [2], "dtype": "float32",
             "requires_grad": False, "source": "L['x']"},
            {"op": "call_function", "target": "my_allowed_fn", "args": [{"ref": 0}], "kwargs": {}},
            {"op": "output", "args": [{"tuple": [{"ref": 1}]}]}]}
        calls = []

        def run_on_host(index, tensors):
            calls.append((index, [t.tolist() for t in tensors]))
            return [tensors[0] + 1]

        compiled = host.compile(bundled.eager, json.dumps(doc), "dynamo", {}, run_on_host)
        out = host.run(compiled, [torch.tensor([1.0, 2.0])])
        self.assertEqual(calls, [(1, [[1.0, 2.0]])])
        self.assertEqual(out[0][2].tolist(), [2.0, 3.0])
        with self.assertRaises(Exception) as raised:
            host.compile(bundled.aot_eager, json.dumps(doc), "dynamo", {}, run_on_host)
        self.assertTrue(host.describe(raised.exception)[0])

    def test_unknown_callable_is_not_buildable(self):
        self.assertIsNone(graph_module.resolve_target("no_such_function"))
        self.assertIs(graph_module.resolve_target("torch.nn.functional.relu"),
                      torch.nn.functional.relu)
        self.assertIs(graph_module.resolve_target("aten.add.Tensor"), torch.ops.aten.add.Tensor)
        with self.assertRaises(graph_module.NotBuildable):
            graph_module.resolve_target("higher_order.cond")


if __name__ == "__main__":
    unittest.main()
