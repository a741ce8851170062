"""The GPU parity report (issue 31): tdconform's JSON reports (tdconform-report/1) of one
backend, summed up per op, as JSON and Markdown.

  python gpu/parity_report.py --json OUT.json --markdown OUT.md NAME=REPORT[:SECONDS] ...

Each NAME=REPORT is one run (`suite`, `fuzz`); SECONDS, when given, is its wall time, from
which the graphs compiled and run per second are computed. Per op: the probe fixtures
(`fixtures:probes:<op>:...`, one op each) give each op's outputs; every other case is counted
under its run's name. For each: the cases by status, the outputs judged, the largest max ULP
distance and the largest p99 ULP distance of an output, the largest max abs error, the
largest RMSE against float64 and the largest noise floor. A ULP distance across a NaN
(`nan`) and an infinite error (`inf`) stay what they are; a statistic no output measured is
null (JSON) or "-" (Markdown). The header is the first report's backend (name, version,
environment) and tolerance policy; a run whose report is not `complete` says so.
"""

import argparse
import collections
import json
import sys
from pathlib import Path

import tabulate

STATUSES = ["PASS", "FAIL", "NOT_SUPPORTED", "XFAIL", "XPASS", "CRASH", "TIMEOUT", "BACKEND_ERROR", "HARNESS_ERROR", "SKIPPED"]
STATISTICS = ["max_ulp", "p99_ulp", "max_abs_error", "rmse_vs_fp64", "noise_floor_rmse"]


def larger(a, b):
    """The larger of two statistics as the report writes them: numbers, "nan" (a ULP distance
    across a NaN, larger than any) or "inf", or None (not measured)."""
    if a is None:
        return b
    if b is None:
        return a
    rank = {"nan": 2, "inf": 1}
    return max(a, b, key=lambda x: (rank.get(x, 0), x if isinstance(x, (int, float)) else 0))


def group_of(case_id, run):
    parts = case_id.split(":")
    return f"op {parts[2]}" if parts[0] == "fixtures" and parts[1] == "probes" else run


def summarize(runs):
    groups = collections.OrderedDict()
    throughput = []
    for run, report, seconds in runs:
        graphs = 0
        for case in report["cases"]:
            g = groups.setdefault(group_of(case["id"], run), {"statuses": collections.Counter(), "outputs": 0, **{s: None for s in STATISTICS}})
            g["statuses"][case["status"]] += 1
            graphs += len({o["graph"] for o in case["outputs"]})
            for output in case["outputs"]:
                g["outputs"] += 1
                for s in STATISTICS:
                    g[s] = larger(g[s], output[s])
        throughput.append({"run": run, "state": report["state"], "cases": len(report["cases"]), "graphs": graphs, "seconds": seconds,
                           "graphs_per_second": graphs / seconds if seconds else None, "summary": report["summary"]})
    return groups, throughput


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="NAME=REPORT[:SECONDS]")
    parser.add_argument("--json", required=True)
    parser.add_argument("--markdown", required=True)
    args = parser.parse_args(argv)
    runs = []
    for given in args.runs:
        name, _, rest = given.partition("=")
        path, _, seconds = rest.partition(":")
        if not name or not path:
            parser.error(f"{given}: not NAME=REPORT[:SECONDS]")
        try:
            report = json.loads(Path(path).read_text())
            runs.append((name, report, float(seconds) if seconds else None))
        except (OSError, ValueError) as error:
            parser.error(f"{given}: {error}")
    groups, throughput = summarize(runs)
    first = runs[0][1]
    document = {"backend": first["backend"], "tolerance": first["tolerance"], "runs": throughput,
                "groups": [{"group": name, **g, "statuses": dict(g["statuses"])} for name, g in groups.items()]}
    Path(args.json).write_text(json.dumps(document, indent=1) + "\n")

    shown = lambda x: "-" if x is None else (f"{x:.3g}" if isinstance(x, float) else str(x))
    lines = [f"# GPU parity: {first['backend']['name']} {first['backend']['version']}", "",
             f"- environment: {first['backend']['environment'] or '(the backend says nothing)'}",
             f"- tolerance policy: {first['tolerance']}", ""]
    lines.append(tabulate.tabulate(
        [[t["run"], t["state"], t["cases"], t["summary"]["passed"], t["summary"]["failed"], t["summary"]["skipped"], t["graphs"],
          shown(t["seconds"]), shown(t["graphs_per_second"])] for t in throughput],
        headers=["run", "state", "cases", "passed", "failed", "skipped", "graphs", "seconds", "graphs/s"], tablefmt="github"))
    lines.append("")
    used = [s for s in STATUSES if any(g["statuses"][s] for g in groups.values())]
    lines.append(tabulate.tabulate(
        [[name, *[g["statuses"][s] for s in used], g["outputs"], *[shown(g[s]) for s in STATISTICS]] for name, g in groups.items()],
        headers=["op or run", *used, "outputs", "max ULP", "p99 ULP", "max abs", "RMSE vs fp64", "noise floor"], tablefmt="github"))
    Path(args.markdown).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
