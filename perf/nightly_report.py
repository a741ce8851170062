#!/usr/bin/env python3
"""The nightly performance report (issue 30): appends a Google Benchmark run to the history
(perf/history.jsonl, one JSON line per run: commit, date, machine, each benchmark's
samples), compares each benchmark with its history by the Mann-Whitney U test, and writes
a self-contained HTML page (a plot per benchmark over commits, SVG from matplotlib) and a
Markdown summary: regressions and improvements with the first commit at which each
appeared, the vs-torch table when given, and the machine.

A benchmark's latest run is a regression when it is slower than an earlier run of the
window by the U test (p < --alpha) and by more than --threshold in median; it appeared at
the first run after that earlier one that was already slower than it in the same sense.
Improvements likewise. ci/nightly-perf is the command a CI scheduler calls.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import html
import io
import json
import pathlib
import statistics
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy.stats import mannwhitneyu  # noqa: E402
from tabulate import tabulate  # noqa: E402

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def run_from_benchmark_json(document: dict, commit: str, date: str) -> dict:
    """One history line from Google Benchmark's JSON output (its iteration runs only: the
    repetitions are the samples; aggregates are recomputed here)."""
    samples: dict[str, list[float]] = {}
    for b in document["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        samples.setdefault(b["run_name"], []).append(b["real_time"] * TO_NS[b["time_unit"]])
    context = document["context"]
    machine = {k: context.get(k) for k in ("host_name", "num_cpus", "mhz_per_cpu",
                                            "cpu_scaling_enabled", "library_build_type")}
    return {"commit": commit, "date": date, "machine": machine, "benchmarks": samples}


def read_history(path: pathlib.Path) -> list[dict]:
    if not path.exists():
        return []
    runs = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip():
            try:
                runs.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise SystemExit(f"{path}:{number}: not a JSON line: {e}") from None
    return runs


@dataclasses.dataclass
class Finding:
    benchmark: str
    kind: str            # "regression" or "improvement"
    appeared_at: str     # the commit of the first run that showed it
    baseline: str        # the commit it is measured against
    change: float        # latest median / baseline median - 1
    p_value: float


def shifted(now: list[float], then: list[float], alpha: float, threshold: float) -> tuple[int, float, float]:
    """+1 slower, -1 faster, 0 neither (U test and median change both), with the change
    and p-value."""
    if len(now) < 2 or len(then) < 2:
        return 0, 0.0, 1.0
    change = statistics.median(now) / statistics.median(then) - 1
    p = mannwhitneyu(now, then, alternative="two-sided").pvalue
    if p >= alpha or abs(change) <= threshold:
        return 0, change, p
    return (1 if change > 0 else -1), change, p


def find(name: str, runs: list[dict], alpha: float, threshold: float, window: int) -> Finding | None:
    """The latest run's regression or improvement against the window before it."""
    series = [(r["commit"], r["benchmarks"][name]) for r in runs if name in r["benchmarks"]]
    if len(series) < 2:
        return None
    latest = series[-1][1]
    earlier = series[:-1][-window:]
    for j in range(len(earlier) - 1, -1, -1):  # the nearest earlier run it differs from
        direction, change, p = shifted(latest, earlier[j][1], alpha, threshold)
        if direction == 0:
            continue
        base_commit, base = earlier[j]
        later = earlier[j + 1:] + [series[-1]]
        appeared = next(c for c, s in later if shifted(s, base, alpha, threshold)[0] == direction)
        return Finding(name, "regression" if direction > 0 else "improvement", appeared,
                       base_commit, change, p)
    return None


def plot(name: str, runs: list[dict], finding: Finding | None) -> str:
    """An inline SVG: the median per run over commits, the samples' range as a band, the
    commit where a finding appeared marked (red: regression, green: improvement)."""
    points = [(r["commit"][:8], r["benchmarks"][name]) for r in runs if name in r["benchmarks"]]
    x = list(range(len(points)))
    medians = [statistics.median(s) for _, s in points]
    fig, ax = plt.subplots(figsize=(6, 2.4))
    ax.fill_between(x, [min(s) for _, s in points], [max(s) for _, s in points], alpha=0.25)
    ax.plot(x, medians, marker="o", markersize=3)
    if finding is not None:
        at = [c for c, _ in points].index(finding.appeared_at[:8])
        color = "red" if finding.kind == "regression" else "green"
        ax.plot([at], [medians[at]], marker="o", markersize=9, color=color, linestyle="none",
                label=f"{finding.kind} {finding.change:+.1%}")
        ax.legend(loc="best", fontsize=7)
    ax.set_title(name, fontsize=8)
    ax.set_ylabel("ns (real time)", fontsize=7)
    ax.set_xticks(x, [c for c, _ in points], rotation=45, fontsize=6)
    ax.tick_params(axis="y", labelsize=6)
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    svg = out.getvalue()
    return svg[svg.index("<svg"):]


def finding_rows(findings: list[Finding]) -> list[list[str]]:
    return [[f.benchmark, f.kind, f.appeared_at[:12], f.baseline[:12], f"{f.change:+.1%}",
             f"{f.p_value:.3g}"] for f in findings]


FINDING_HEADERS = ["benchmark", "kind", "first commit", "against", "median change", "p (U test)"]


def vs_torch_rows(document: dict) -> list[list[str]]:
    rows = []
    for level in ("dynamo", "aten"):
        at = [r for r in document["rows"] if r["level"] == level]
        ratios = [r["ratio"] for r in at if "ratio" in r]
        gmean = statistics.geometric_mean(ratios) if ratios else float("nan")
        rows.append([level, len(at), len(ratios), f"{gmean:.1f}x"])
    return rows


VS_TORCH_HEADERS = ["level", "fixture runs", "both agree", "geometric mean (torch / reference)"]


def write_report(runs: list[dict], out: pathlib.Path, alpha: float, threshold: float,
                 window: int, vs_torch: dict | None) -> list[Finding]:
    latest = runs[-1]
    names = sorted(latest["benchmarks"])
    findings = [f for f in (find(n, runs, alpha, threshold, window) for n in names) if f]
    by_name = {f.benchmark: f for f in findings}
    machine = latest["machine"]
    title = f"tdconform performance at {latest['commit'][:12]} ({latest['date']})"

    md = [f"# {title}", "",
          f"{len(runs)} runs in the history, {len(names)} benchmarks in the latest; "
          f"U test alpha {alpha}, median change threshold {threshold:.0%}, window {window}.", ""]
    for kind in ("regression", "improvement"):
        chosen = [f for f in findings if f.kind == kind]
        md += [f"## {kind.capitalize()}s ({len(chosen)})", ""]
        md += [tabulate(finding_rows(chosen), FINDING_HEADERS, tablefmt="github"), ""] if chosen else ["none", ""]
    if vs_torch is not None:
        md += ["## Against real torch (perf/vs_torch.py)", "",
               tabulate(vs_torch_rows(vs_torch), VS_TORCH_HEADERS, tablefmt="github"), ""]
    md += ["## Machine", "", tabulate([[k, v] for k, v in machine.items()], ["", ""],
                                      tablefmt="github"), ""]
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.md").write_text("\n".join(md))

    def table_html(rows, headers, cls=""):
        return tabulate(rows, headers, tablefmt="unsafehtml").replace("<table>", f'<table class="{cls}">')

    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;margin:1em}td,th{padding:2px 8px}"
             ".regression{color:#fff;background:#c62828}.improvement{color:#fff;background:#2e7d32}"
             ".plot{display:inline-block;margin:4px;border:1px solid #ddd}"
             ".plot.flag-regression{border:3px solid #c62828}.plot.flag-improvement{border:3px solid #2e7d32}"
             "</style></head><body>", f"<h1>{html.escape(title)}</h1>"]
    for kind in ("regression", "improvement"):
        chosen = [f for f in findings if f.kind == kind]
        parts.append(f"<h2>{kind.capitalize()}s ({len(chosen)})</h2>")
        if chosen:
            rows = finding_rows(chosen)
            parts.append(table_html(rows, FINDING_HEADERS, kind))
        else:
            parts.append("<p>none</p>")
    if vs_torch is not None:
        parts += ["<h2>Against real torch</h2>", table_html(vs_torch_rows(vs_torch), VS_TORCH_HEADERS)]
    parts += ["<h2>Machine</h2>", table_html([[k, v] for k, v in machine.items()], ["", ""]),
              "<h2>Benchmarks</h2>"]
    for name in names:
        f = by_name.get(name)
        cls = f"plot flag-{f.kind}" if f else "plot"
        parts.append(f'<div class="{cls}" id="{html.escape(name)}">{plot(name, runs, f)}</div>')
    parts.append("</body></html>")
    (out / "index.html").write_text("\n".join(parts))
    return findings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--history", type=pathlib.Path, required=True, help="perf/history.jsonl")
    parser.add_argument("--append", type=pathlib.Path,
                        help="a Google Benchmark JSON output to append to the history first")
    parser.add_argument("--commit", help="the commit --append measured")
    parser.add_argument("--vs-torch", type=pathlib.Path, help="perf/vs_torch.py --json output")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="folder for index.html, summary.md")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--threshold", type=float, default=0.05)
    parser.add_argument("--window", type=int, default=10)
    args = parser.parse_args(argv)

    if args.append:
        if not args.commit:
            parser.error("--append needs --commit")
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        run = run_from_benchmark_json(json.loads(args.append.read_text()), args.commit, date)
        if not run["benchmarks"]:
            raise SystemExit(f"{args.append}: no benchmark ran without an error")
        args.history.parent.mkdir(parents=True, exist_ok=True)
        with args.history.open("a") as f:
            f.write(json.dumps(run, separators=(",", ":")) + "\n")
    runs = read_history(args.history)
    if not runs:
        raise SystemExit(f"{args.history}: no runs")
    vs_torch = json.loads(args.vs_torch.read_text()) if args.vs_torch else None
    findings = write_report(runs, args.out, args.alpha, args.threshold, args.window, vs_torch)
    print((args.out / "summary.md").read_text())
    print(f"nightly_report: wrote {args.out / 'index.html'} and {args.out / 'summary.md'}")
    return 1 if any(f.kind == "regression" for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
