"""The reference's live locals (`tdref liveness`) against torch 2.13.0's own livevars_analysis.

    liveness_cross_check.py --tdref BIN [--generated N] [--min-checks K] FILE_OR_DIR...

For every function and lambda of each file (and of N programs of the subset's generator), the
locals `tdref liveness` finds live after each call and at the start of each statement are
compared with what torch._dynamo.bytecode_analysis.livevars_analysis finds on CPython 3.11's
own bytecode of that function (torch's cleaned_instructions, as Dynamo reads it): after the
call's CALL instruction, at the statement's first instruction. Only fast locals that are not
cells count (Dynamo hands a resume function those). A call, statement or function the
bytecode does not identify without doubt (two on one line, a resume at an unconditional jump)
is left out and counted. Exit 1 on any difference, or when fewer than --min-checks were made.
"""

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import types
import warnings

from torch._dynamo.bytecode_analysis import livevars_analysis
from torch._dynamo.bytecode_transformation import cleaned_instructions

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "..", "..", "lang", "testing", "gen_subset_programs.py")
JUMPS_ABSOLUTE = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE"}


def code_objects(code):
    """Every function and lambda code inside `code` (comprehensions are not frames here)."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if not const.co_name.startswith("<") or const.co_name == "<lambda>":
                yield const
            yield from code_objects(const)


def def_positions(tree):
    """(name, line, col) of each def and lambda -> the line its code object starts at."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out[(node.name, node.lineno, node.col_offset)] = first
        elif isinstance(node, ast.Lambda):
            out[("<lambda>", node.lineno, node.col_offset)] = node.lineno
    return out


def within(positions, span):
    """Whether an instruction's source position lies inside a statement's span."""
    if positions is None or positions.lineno is None or positions.col_offset is None:
        return False
    begin = (positions.lineno, positions.col_offset)
    end = (positions.end_lineno, positions.end_col_offset)
    return span[0] <= begin and end <= span[1]


def torch_live(code, instructions, inst):
    fast = set(code.co_varnames) - set(code.co_cellvars)
    return sorted(livevars_analysis(instructions, inst) & fast)


def check_file(path, tdref, totals, failures):
    with open(path, "rb") as f:
        source = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            module_code = compile(source, path, "exec")
        except (SyntaxError, ValueError):
            return  # not a program (the error fixtures)
    tree = ast.parse(source)
    run = subprocess.run([tdref, "liveness", path], capture_output=True, text=True)
    if run.returncode != 0:
        totals["refused files"] += 1
        return
    starts = def_positions(tree)
    codes = {}
    for code in code_objects(module_code):
        codes.setdefault((code.co_name, code.co_firstlineno), []).append(code)
    for line in run.stdout.splitlines():
        fn = json.loads(line)
        first = starts.get((fn["name"], fn["line"], fn["col"]))
        matches = codes.get((fn["name"], first), [])
        if len(matches) != 1:
            totals["ambiguous functions"] += 1
            continue
        code = matches[0]
        instructions = cleaned_instructions(code)
        for call in fn["calls"]:
            where = (call["line"], call["end_line"], call["col"], call["end_col"])
            found = [i for i, inst in enumerate(instructions)
                     if inst.opname == "CALL" and inst.positions is not None
                     and (inst.positions.lineno, inst.positions.end_lineno,
                          inst.positions.col_offset, inst.positions.end_col_offset) == where]
            if len(found) != 1 or instructions[found[0] + 1].opname in JUMPS_ABSOLUTE:
                totals["calls left out"] += 1
                continue
            expected = torch_live(code, instructions, instructions[found[0] + 1])
            totals["calls"] += 1
            if expected != call["live"]:
                failures.append(f"{path}:{call['line']}:{call['col']}: after the call in "
                                f"{fn['name']}: torch {expected}, tdref {call['live']}")
        for stmt in fn["statements"]:
            if stmt["kind"] in ("Break", "Continue", "Global", "Nonlocal", "Pass"):
                totals["statements left out"] += 1
                continue
            span = ((stmt["line"], stmt["col"]), (stmt["end_line"], stmt["end_col"]))
            found = [inst for inst in instructions if within(inst.positions, span)]
            if not found or found[0].opname in JUMPS_ABSOLUTE:
                totals["statements left out"] += 1
                continue
            expected = torch_live(code, instructions, found[0])
            totals["statements"] += 1
            if expected != stmt["live"]:
                failures.append(f"{path}:{stmt['line']}:{stmt['col']}: at the {stmt['kind']} "
                                f"in {fn['name']}: torch {expected}, tdref {stmt['live']}")


def python_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for name in sorted(names):
                    if name.endswith(".py"):
                        yield os.path.join(root, name)
        else:
            yield p


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tdref", required=True)
    parser.add_argument("--generated", type=int, default=0)
    parser.add_argument("--min-checks", type=int, default=1)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    files = list(python_files(args.paths))
    with tempfile.TemporaryDirectory() as tmp:
        if args.generated:
            subprocess.run([sys.executable, GENERATOR, "--out", tmp, "--count",
                            str(args.generated)], check=True, capture_output=True)
            files += sorted(os.path.join(tmp, n) for n in os.listdir(tmp))
        totals = dict.fromkeys(["calls", "statements", "calls left out", "statements left out",
                                "ambiguous functions", "refused files"], 0)
        failures = []
        for path in files:
            check_file(path, args.tdref, totals, failures)
    for f in failures:
        print(f)
    print("liveness: " + ", ".join(f"{v} {k}" for k, v in totals.items())
          + f", {len(failures)} differ")
    if failures or totals["calls"] + totals["statements"] < args.min_checks:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
