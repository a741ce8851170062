"""Parsing of graph_breaks log records into GraphBreak objects (graph_breaks.py, SCHEMA.md
§5), on the three record shapes torch 2.13.0 writes (texts as its symbolic_convert.py and
convert_frame.py format them)."""

import unittest

from conformance.oracle import graph_breaks, paths

ROOT = str(paths.REPO_ROOT)
FIXTURE = f"{ROOT}/fixtures/seed/example5_graph_break.py"

BLOCK = (
    "Call to `torch._dynamo.graph_break()`\n"
    "  Explanation: User-inserted graph break. Message: None\n"
    "  Hint: Remove the `torch._dynamo.graph_break()` call.\n"
    "\n"
    "  Developer debug context: Called `torch._dynamo.graph_break()` with args "
    "`[ConstantVariable(str: 'explicit break')]`, kwargs `{}`\n"
    "\n"
    " For more details about this graph break, please visit: "
    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html")

FULL = (
    f"Graph break in user code at {FIXTURE}:10\n"
    "Graph Break Reason: Encountered graph break when attempting to trace CALL: a function "
    "call, e.g. f(x, y):\n\n" + BLOCK + "\n\n"
    "User code traceback:\n"
    f'  File "{ROOT}/conformance/oracle/tests/test_x.py", line 9, in setUpClass\n'
    f'  File "{ROOT}/conformance/oracle/child.py", line 60, in _execute\n'
    "    return runpy.run_path(path, init_globals={\"backend\": recorder}), None\n"
    '  File "<frozen runpy>", line 291, in run_path\n'
    f'  File "{FIXTURE}", line 15, in <module>\n'
    "    out = torch.compile(fn, backend=backend)(torch.linspace(-2.0, 2.0, 8))\n"
    "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    f'  File "{FIXTURE}", line 10, in fn\n'
    '    torch._dynamo.graph_break("explicit break")\n')

EXPECTED_PARTS = {
    "reason": "Encountered graph break when attempting to trace CALL: a function call, "
              "e.g. f(x, y):",
    "gb_type": "Call to `torch._dynamo.graph_break()`",
    "explanation": "User-inserted graph break. Message: None",
    "hints": ["Remove the `torch._dynamo.graph_break()` call."],
    "context": "Called `torch._dynamo.graph_break()` with args "
               "`[ConstantVariable(str: 'explicit break')]`, kwargs `{}`",
}


class GraphBreaksTest(unittest.TestCase):

    def test_full_record(self):
        self.assertEqual(graph_breaks.parse(FULL, fixture=FIXTURE), {
            "location": {"file": "fixtures/seed/example5_graph_break.py", "line": 10},
            **EXPECTED_PARTS,
            # Only repository frames, from the fixture's first frame on.
            "user_stack": [
                {"file": "fixtures/seed/example5_graph_break.py", "line": 15, "name": "<module>"},
                {"file": "fixtures/seed/example5_graph_break.py", "line": 10, "name": "fn"},
            ],
        })

    def test_duplicate_record_has_no_stack(self):
        text = ("Graph break (user stack suppressed due to duplicate graph break) in user code "
                f"at {FIXTURE}:10\nGraph Break Reason: Encountered graph break when attempting "
                "to trace CALL: a function call, e.g. f(x, y):\n\n" + BLOCK)
        parsed = graph_breaks.parse(text)
        self.assertEqual(parsed["location"], {"file": "fixtures/seed/example5_graph_break.py",
                                              "line": 10})
        self.assertIsNone(parsed["user_stack"])
        self.assertEqual({k: parsed[k] for k in EXPECTED_PARTS}, EXPECTED_PARTS)

    def test_reason_without_prefix_and_stack_attribution(self):
        text = (f"Graph break in user code at {FIXTURE}:10\nGraph Break Reason: " + BLOCK
                + "\n\nStack variable source attribution:\n  stack[0] = L['x']\n\n"
                "User code traceback:\n" f'  File "{FIXTURE}", line 10, in fn\n')
        parsed = graph_breaks.parse(text)
        self.assertEqual(parsed["reason"], EXPECTED_PARTS["gb_type"])
        self.assertEqual(parsed["hints"], EXPECTED_PARTS["hints"])
        self.assertEqual(parsed["context"], EXPECTED_PARTS["context"])
        self.assertEqual(parsed["user_stack"], [
            {"file": "fixtures/seed/example5_graph_break.py", "line": 10, "name": "fn"}])

    def test_multiline_parts_and_several_hints(self):
        block = ("Attempted to call function marked as skipped\n"
                 "  Explanation: first line\n    second line\n"
                 "  Hint: one\n  Hint: two\n    continued\n\n"
                 "  Developer debug context: module: torch, skip reason: <built-in method sub "
                 "of type object at 0x7f749f0cea40>")
        parsed = graph_breaks.parse_block(block)
        self.assertEqual(parsed, {
            "gb_type": "Attempted to call function marked as skipped",
            "explanation": "first line\nsecond line",
            "hints": ["one", "two\ncontinued"],
            "context": "module: torch, skip reason: <built-in method sub of type object at 0x?>",
        })

    def test_no_hints(self):
        parsed = graph_breaks.parse_block("T\n  Explanation: e\n\n\n  Developer debug context: c")
        self.assertEqual(parsed, {"gb_type": "T", "explanation": "e", "hints": [], "context": "c"})

    def test_skip_record_takes_its_parts_from_the_exception(self):
        class Unsupported(Exception):
            gb_type = "Call to `torch._dynamo.graph_break()`"

        exc = Unsupported(BLOCK + "\n\nfrom user code:\n   File \"x.py\", line 1, in f\n")
        text = ("Graph break: torch.compile cannot properly resume from this graph break, which "
                "results in a skip.\ntorch.compile will skip tracing the frame fn "
                f"({FIXTURE} line 8) and fall back to eager.\n"
                "The graph break occurred in the following user code:\n"
                f'  File "{FIXTURE}", line 10, in fn\n')
        parsed = graph_breaks.parse(text, exc)
        self.assertIsNone(parsed["location"])
        self.assertEqual(parsed["reason"], "Graph break: torch.compile cannot properly resume "
                                           "from this graph break, which results in a skip.")
        self.assertEqual(parsed["gb_type"], EXPECTED_PARTS["gb_type"])
        self.assertEqual(parsed["context"], EXPECTED_PARTS["context"])
        self.assertEqual(parsed["user_stack"], [
            {"file": "fixtures/seed/example5_graph_break.py", "line": 10, "name": "fn"}])

    def test_counter_keys_normalized_and_merged(self):
        counter = {"skip at 0x7f0000000001": 1, "skip at 0x7f0000000002": 2, f"{ROOT}/a.py": 1}
        self.assertEqual(graph_breaks.counter_keys(counter), {"skip at 0x?": 3, "a.py": 1})


if __name__ == "__main__":
    unittest.main()
