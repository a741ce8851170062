#!/usr/bin/env python3
"""Real torch.compile beside the reference, in one run (issue 30): every compile-scope
fixture of the given profiles, at both graph levels, timed through torch 2.13.0 (CPU, the
oracle's RecordingBackend, after import, torch._dynamo.reset() before each run; each
fixture in a fork of a warm process, so config and registries never leak between fixtures,
its first run untimed) and through the reference in-process (bin/tdc_time_fixtures, its
first run untimed too). Both answers are checked against the
fixture's golden with tdcompare (graphs, counters, outputs): a ratio is only reported where
both reached the golden's answer.

Prints a Markdown table of the geometric-mean ratios (torch seconds / reference seconds)
per level; --json writes every fixture's samples and verdicts.

  .venv/bin/python perf/vs_torch.py --args build/fixtures/compile_verify_torch-2.13.args \\
      [--args build/fixtures/compile_verify_torch-2.13-ngb.args] [--limit N] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
# The oracle's environment, set before torch is imported (conformance/oracle/server.py).
os.environ["ATEN_CPU_CAPABILITY"] = "default"

from tabulate import tabulate  # noqa: E402

from conformance.oracle.check import tdcompare_path  # noqa: E402

LEVELS = {"dynamo": False, "aten": True}  # level -> the ATen capture on


def read_args_file(path: pathlib.Path) -> tuple[str, list[str]]:
    """The profile and the fixtures of a compile_verify_<profile>.args file."""
    words = path.read_text().split("\n")
    profile = words[words.index("--profile") + 1]
    return profile, [w for w in words if w.endswith(".py")]


def torch_runs(fixture: str, profile: str, aten: bool, repeat: int) -> tuple[list[float], dict]:
    """`repeat` timed runs in a forked child of this (warm) process, after one untimed run
    that warms the child's copied pages; each run resets Dynamo first (child.run). Returns
    the seconds and the last run's result."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send the samples, never return
        os.close(read_end)
        # What the fixture and torch print (warnings, the recompile log) is not the report's.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        from conformance.oracle import child

        job = child.Job(str(REPO / fixture), "compile", profile, aten)
        result, seconds = child.run(job), []
        for _ in range(repeat):
            start = time.perf_counter()
            result = child.run(job)
            seconds.append(time.perf_counter() - start)
        with os.fdopen(write_end, "w") as out:
            json.dump({"seconds": seconds, "result": result}, out)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as inp:
        text = inp.read()
    os.waitpid(pid, 0)
    if not text:
        return [], {"ok": False, "error": "the child died before reporting"}
    sent = json.loads(text)
    return sent["seconds"], sent["result"]


def agrees_with_golden(fixture: str, profile: str, aten: bool, outcome: dict,
                       tdcompare: pathlib.Path) -> bool:
    """Whether torch's fresh outcome equals the golden's (tdcompare, that profile only)."""
    golden_path = REPO / fixture.replace(".py", ".golden.json")
    document = json.loads(golden_path.read_text())
    # The timed run is the compile run alone: its outcome has no aot_eager run to compare.
    document["compiled"] = {profile: {**outcome, "aot_eager": None}}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(document, f)
    try:
        command = [str(tdcompare), str(golden_path), f.name, "--mode", "compile",
                   "--profile", profile, "--mask", "aten" if not aten else "aot_eager"]
        return subprocess.run(command, capture_output=True).returncode == 0
    finally:
        os.unlink(f.name)


def reference_runs(binary: pathlib.Path, fixtures: list[str], profile: str, aten: bool,
                   repeat: int) -> dict[str, dict]:
    command = [str(binary), "--profile", profile, "--repeat", str(repeat), *fixtures]
    if not aten:
        command.append("--dynamo-only")
    out = subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True).stdout
    return {line["file"]: line for line in map(json.loads, out.splitlines())}


def warm_up() -> float:
    """Imports torch and compiles once at each level, so no child pays a first import."""
    start = time.perf_counter()
    import torch

    from conformance.oracle import backend as backend_lib

    torch.set_num_threads(1)
    for capture in (False, True):
        torch._dynamo.reset()
        torch.compile(lambda x: x + 1, backend=backend_lib.RecordingBackend(capture=capture))(
            torch.ones(2))
    torch._dynamo.reset()
    return time.perf_counter() - start


def geometric_mean(values: list[float]) -> float:
    return statistics.geometric_mean(values) if values else float("nan")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--args", type=pathlib.Path, action="append", required=True,
                        help="build/fixtures/compile_verify_<profile>.args (repeatable)")
    parser.add_argument("--tdc-time", type=pathlib.Path, default=REPO / "build/bin/tdc_time_fixtures")
    parser.add_argument("--tdcompare", type=pathlib.Path, default=tdcompare_path())
    parser.add_argument("--repeat", type=int, default=3, help="runs per fixture and level (median)")
    parser.add_argument("--limit", type=int, default=0, help="the first N fixtures of each profile")
    parser.add_argument("--json", type=pathlib.Path, help="every fixture's samples and verdicts")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    import_seconds = warm_up()
    rows: list[dict] = []
    for args_file in args.args:
        profile, fixtures = read_args_file(args_file)
        if args.limit:
            fixtures = fixtures[: args.limit]
        for level, aten in LEVELS.items():
            reference = reference_runs(args.tdc_time, fixtures, profile, aten, args.repeat)
            for fixture in fixtures:
                torch_seconds, result = torch_runs(fixture, profile, aten, args.repeat)
                outcome = result["outcome"] if result.get("ok") else None
                ref = reference[fixture]
                row = {"fixture": fixture, "profile": profile, "level": level,
                       "torch_seconds": torch_seconds, "reference_seconds": ref.get("seconds", []),
                       "torch_agrees": outcome is not None and agrees_with_golden(
                           fixture, profile, aten, outcome, args.tdcompare),
                       "reference_agrees": bool(ref.get("agrees"))}
                if row["torch_agrees"] and row["reference_agrees"]:
                    row["ratio"] = (statistics.median(torch_seconds)
                                    / statistics.median(row["reference_seconds"]))
                rows.append(row)

    summary = []
    for level in LEVELS:
        at = [r for r in rows if r["level"] == level]
        ratios = [r["ratio"] for r in at if "ratio" in r]
        torch_median = statistics.median([statistics.median(r["torch_seconds"]) for r in at
                                          if r["torch_seconds"]] or [float("nan")])
        ref_median = statistics.median([statistics.median(r["reference_seconds"]) for r in at
                                        if r["reference_seconds"]] or [float("nan")])
        summary.append([level, len(at), len(ratios), f"{torch_median * 1e3:.2f}",
                        f"{ref_median * 1e3:.3f}", f"{geometric_mean(ratios):.1f}x",
                        f"{min(ratios, default=float('nan')):.1f}x"])
    print(f"torch imported and warmed in {import_seconds:.1f} s (not counted)\n")
    print(tabulate(summary, tablefmt="github", headers=[
        "level", "fixture runs", "both agree", "torch median ms", "reference median ms",
        "geometric mean ratio", "smallest ratio"]))
    disagreeing = [r for r in rows if "ratio" not in r]
    for r in disagreeing:
        who = [name for name in ("torch", "reference") if not r[f"{name}_agrees"]]
        print(f"not compared: {r['fixture']} {r['profile']} {r['level']}: "
              f"{' and '.join(who)} did not reach the golden's answer")
    if args.json:
        args.json.write_text(json.dumps({"import_seconds": import_seconds, "rows": rows}, indent=1))
    return 1 if disagreeing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
