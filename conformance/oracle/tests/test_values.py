"""Value encoding (values.py, SCHEMA.md §6) and graph canonicalization (graphs.py, §7)."""

import functools
import unittest

import torch

from conformance.oracle import graphs, values


class ValuesTest(unittest.TestCase):

    def test_float_tensor(self):
        t = torch.tensor([[1.5, -0.0], [float("inf"), float("nan")]])
        self.assertEqual(values.encode(t), {"tensor": {
            "dtype": "float32", "shape": [2, 2], "strides": [2, 1], "requires_grad": False,
            "values": ["0x1.8000000000000p+0", "-0x0.0p+0", "inf", "nan"]}})

    def test_strides_and_row_major_values_of_a_view(self):
        t = torch.arange(6).reshape(2, 3).t()
        encoded = values.encode(t)["tensor"]
        self.assertEqual((encoded["dtype"], encoded["shape"], encoded["strides"]),
                         ("int64", [3, 2], [1, 3]))
        self.assertEqual(encoded["values"], [0, 3, 1, 4, 2, 5])

    def test_bool_and_float64_tensors(self):
        self.assertEqual(values.encode(torch.tensor([True, False]))["tensor"]["values"],
                         [True, False])
        self.assertEqual(values.encode(torch.tensor([0.1], dtype=torch.float64))["tensor"]
                         ["values"], ["0x1.999999999999ap-4"])

    def test_requires_grad(self):
        self.assertTrue(values.encode(torch.ones(1, requires_grad=True))["tensor"]["requires_grad"])

    def test_scalars_and_containers(self):
        self.assertEqual(values.encode(True), {"bool": True})
        self.assertEqual(values.encode(3), {"int": 3})
        self.assertEqual(values.encode(2.5), {"float": "0x1.4000000000000p+1"})
        self.assertEqual(values.encode(float("-inf")), {"float": "-inf"})
        self.assertEqual(values.encode("s"), {"str": "s"})
        self.assertEqual(values.encode(None), {"none": None})
        self.assertEqual(values.encode(...), {"ellipsis": None})
        self.assertEqual(values.encode((1, [2])), {"tuple": [{"int": 1}, {"list": [{"int": 2}]}]})
        self.assertEqual(values.encode(torch.Size([2, 3])), {"tuple": [{"int": 2}, {"int": 3}]})
        self.assertEqual(values.encode({"a": 1}), {"dict": [[{"str": "a"}, {"int": 1}]]})
        self.assertEqual(values.encode(torch.float32), {"dtype": "float32"})
        self.assertEqual(values.encode(torch.device("cpu")), {"device": "cpu"})

    def test_callables(self):
        def f():
            pass

        @functools.wraps(f)
        def wrapper():
            pass

        self.assertEqual(values.encode(f), {"callable": "ValuesTest.test_callables.<locals>.f"})
        self.assertEqual(values.encode(wrapper), values.encode(f))
        self.assertEqual(values.encode(len), {"callable": "len"})
        # __qualname__ as SCHEMA.md §6 says, even where torch makes it odd.
        self.assertEqual(values.encode(torch.relu), {"callable": "_VariableFunctionsClass.relu"})

    def test_anything_else_is_a_normalized_repr(self):
        class Thing:
            pass

        self.assertEqual(values.encode(Thing()), {"repr": f"<{__name__}.ValuesTest."
                                                  "test_anything_else_is_a_normalized_repr."
                                                  "<locals>.Thing object at 0x?>"})
        self.assertEqual(values.encode(int), {"repr": "<class 'int'>"})
        self.assertEqual(list(values.encode(torch.tensor([1j])).keys()), ["repr"])

    def test_small_floats(self):
        encoded = values.encode((torch.tensor([0.0, 5e-4, -2e-3]), torch.tensor([1e-4],
                                 dtype=torch.float64)))
        self.assertEqual(values.small_floats(encoded, set()),
                         ["[0].values[1] = 0.0005000000237487257", "[1].values[0] = 0.0001"])
        self.assertEqual(values.small_floats(encoded, {"float32"}), ["[1].values[0] = 0.0001"])


class GraphsTest(unittest.TestCase):

    def test_canonical_graph_of_a_traced_function(self):
        def f(x, y):
            return torch.relu(x).sum(dim=0, keepdim=True) + y[1:3], x.shape

        gm = torch.fx.symbolic_trace(f)
        for node in gm.graph.nodes:  # what Dynamo puts into meta
            if node.op == "placeholder":
                node.meta["example_value"] = torch.ones(4, 2)
        g = graphs.canonical_graph(gm, dynamo=False)
        ops = [(n["op"], n.get("target")) for n in g["nodes"]]
        self.assertEqual(ops, [("placeholder", None), ("placeholder", None),
                               ("call_function", "torch.relu"), ("call_method", "sum"),
                               ("call_function", "operator.getitem"),
                               ("call_function", "operator.add"),
                               ("call_function", "builtins.getattr"), ("output", None)])
        self.assertEqual(g["nodes"][0], {"op": "placeholder", "type": "tensor", "shape": [4, 2],
                                         "dtype": "float32", "requires_grad": False,
                                         "source": None})
        self.assertEqual(g["nodes"][3]["args"], [{"ref": 2}])
        self.assertEqual(g["nodes"][3]["kwargs"], {"dim": {"int": 0}, "keepdim": {"bool": True}})
        self.assertEqual(g["nodes"][4]["args"],
                         [{"ref": 1}, {"slice": [{"int": 1}, {"int": 3}, {"none": None}]}])
        self.assertEqual(g["nodes"][7]["args"], [{"tuple": [{"ref": 5}, {"ref": 6}]}])
        self.assertEqual(graphs.op_count(gm), 5)

    def test_args_layout_memory_format(self):
        def f(x):
            return torch.empty_like(x, layout=torch.strided,
                                    memory_format=torch.contiguous_format, dtype=torch.int64)

        gm = torch.fx.symbolic_trace(f)
        kwargs = graphs.canonical_graph(gm, dynamo=False)["nodes"][1]["kwargs"]
        self.assertEqual(kwargs, {"layout": {"layout": "strided"},
                                  "memory_format": {"memory_format": "contiguous_format"},
                                  "dtype": {"dtype": "int64"}})


if __name__ == "__main__":
    unittest.main()
