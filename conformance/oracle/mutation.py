"""Record-time detection of in-place tensor mutation (DESIGN.md D1), for eager runs.

The lint refuses in-place methods it can see (``x.add_(1)``), but ``x += 1``,
``x[0] = 1`` or ``torch.add(a, b, out=c)`` on a tensor look like ordinary Python. This
TorchDispatchMode sees every ATen op the program runs and flags a mutable op (one whose
schema marks an argument as written) on an existing tensor. "Existing" excludes tensors
created during the same fixture-level step: torch's own Python code may fill a fresh
tensor in place (``empty`` then ``copy_``) inside one call the fixture made, and that is
not the fixture mutating anything. A step is identified by the innermost frame of the
fixture file and its current instruction.

It runs in a separate eager child (never in the child whose outcome is recorded), since
the bookkeeping allocates Python objects and could change which ids get reused.
"""

import sys
from typing import Any

from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.weak import WeakTensorKeyDictionary


class InPlaceDetector(TorchDispatchMode):
    """Collects (line, col, op) for each in-place mutation of an existing tensor."""

    def __init__(self, fixture_path: str) -> None:
        super().__init__()
        self.fixture_path = fixture_path
        self.created = WeakTensorKeyDictionary()
        self.violations: list[tuple[int, int, str]] = []

    def _fixture_step(self) -> tuple[Any, int, int, int] | None:
        """(frame id, instruction, line, column) of the innermost fixture frame."""
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename == self.fixture_path:
                positions = list(frame.f_code.co_positions())
                index = frame.f_lasti // 2
                line, col = frame.f_lineno, 1
                if 0 <= index < len(positions):
                    start_line, _, start_col, _ = positions[index]
                    if start_line is not None:
                        line = start_line
                    if start_col is not None:
                        col = start_col + 1
                return id(frame), frame.f_lasti, line, col
            frame = frame.f_back
        return None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        import torch

        kwargs = kwargs or {}
        step = self._fixture_step()
        schema = func._schema
        if schema.is_mutable and step is not None:
            bound = list(args) + [kwargs.get(a.name) for a in schema.arguments[len(args):]]
            for argument, value in zip(schema.arguments, bound):
                written = argument.alias_info is not None and argument.alias_info.is_write
                if written and isinstance(value, torch.Tensor):
                    owner = value._base if value._base is not None else value  # views
                    if self.created.get(owner) != step[:2]:
                        self.violations.append((step[2], step[3], str(func)))
                        break
        result = func(*args, **kwargs)
        if step is not None:
            for t in torch.utils._pytree.tree_leaves(result):
                if isinstance(t, torch.Tensor):
                    self.created[t] = step[:2]
        return result
