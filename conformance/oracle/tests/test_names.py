"""The target-name table (names.py, SCHEMA.md §7.1): one case or more per row, each
checked for the row that applied and the name it gave."""

import math
import operator
import unittest

import torch
import torch.nn.functional as F

from conformance.oracle import names


def user_function(x):
    return x


def _outer():
    def inner(x):
        return x
    return inner


@torch.library.custom_op("tdctest::twice", mutates_args=())
def _twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2


CASES = [
    # (target, row, canonical name)
    ("relu", "call_method / call_module / get_attr name", "relu"),
    ("_tensor_constant0", "call_method / call_module / get_attr name", "_tensor_constant0"),
    (torch.ops.aten.add.Tensor, "ATen or custom op overload", "aten.add.Tensor"),
    (torch.ops.aten.sum.default, "ATen or custom op overload", "aten.sum.default"),
    (torch.ops.tdctest.twice.default, "ATen or custom op overload", "tdctest.twice.default"),
    (torch.ops.higher_order.cond, "higher-order op", "higher_order.cond"),
    (operator.add, "operator module function", "operator.add"),
    (operator.getitem, "operator module function", "operator.getitem"),
    (len, "Python builtin", "builtins.len"),
    (getattr, "Python builtin", "builtins.getattr"),
    (torch.relu, "torch builtin or function", "torch.relu"),
    (torch.sigmoid, "torch builtin or function", "torch.sigmoid"),
    (torch.sub, "torch builtin or function", "torch.sub"),
    (F.relu, "torch builtin or function", "torch.nn.functional.relu"),
    (torch._C._nn.gelu, "torch builtin or function", "torch.nn.functional.gelu"),
    (torch.linalg.norm, "torch builtin or function", "torch.linalg.norm"),
    (torch.fft.fft, "torch builtin or function", "torch.fft.fft"),
    (torch.special.expit, "torch builtin or function", "torch.special.expit"),
    (user_function, "user function", "user_function"),
    (_outer(), "user function", "_outer.<locals>.inner"),
    (math.sqrt, names.ANYTHING_ELSE, "math.sqrt"),
    (torch._dynamo.graph_break, names.ANYTHING_ELSE, "torch._dynamo.decorators.graph_break"),
]


class NamesTest(unittest.TestCase):

    def test_cases(self):
        for target, row, name in CASES:
            with self.subTest(name=name):
                self.assertEqual(names.classify(target), (row, name))
                self.assertEqual(names.canonical_target(target), name)

    def test_every_row_has_a_case(self):
        rows = {row for row, _ in names.TABLE} | {names.ANYTHING_ELSE}
        self.assertEqual({row for _, row, _ in CASES}, rows)

    def test_torch_aliases_are_distinct_objects(self):
        # torch.subtract is its own builtin, so its name is its own.
        self.assertEqual(names.canonical_target(torch.subtract), "torch.subtract")


if __name__ == "__main__":
    unittest.main()
