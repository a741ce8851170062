"""The oracle's command line (``ci/oracle``): record, check, freshness, lint.

  record FILE...                 lint, run under torch 2.13.0, write FILE's golden
  check [FILE...] [--sample N --seed S]
                                 re-record and compare with the committed goldens
                                 (tdcompare); no FILE means every fixture
  freshness                      every golden matches its fixture and the oracle (no torch)
  lint FILE...                   the fixture lint only (no torch)

Each command exits 0 on success and 1 when something failed; torch is imported only by
record and check, after the fork server has set the environment (server.prepare).
"""

import argparse
import pathlib
import sys
import time

from conformance.oracle import paths


def _fixture_args(names: list[str]) -> list[pathlib.Path]:
    found = []
    for name in names:
        p = pathlib.Path(name)
        if p.is_dir():
            found += [f for f in paths.recorded_fixtures() if p.resolve() in f.parents]
        else:
            found.append(p.resolve())
    return found


def _cmd_record(args: argparse.Namespace) -> int:
    from conformance.oracle import golden, record

    fixtures = _fixture_args(args.files)
    start = time.monotonic()
    results = record.record(fixtures, parallel=args.jobs, timeout=args.timeout)
    failed = 0
    for item in results:
        shown = paths.rel(item.fixture)
        if item.errors:
            failed += 1
            print("\n".join(item.errors), file=sys.stderr)
            continue
        target = paths.golden_path(item.fixture)
        golden.write(target, item.document)
        print(f"recorded {paths.rel(target)} ({item.seconds:.1f} s in children)")
    wall = time.monotonic() - start
    print(f"oracle record: {len(results) - failed} recorded, {failed} failed "
          f"({wall:.1f} s, {args.jobs} jobs)")
    return 1 if failed else 0


def _cmd_check(args: argparse.Namespace) -> int:
    from conformance.oracle import check

    fixtures = _fixture_args(args.files) if args.files else paths.recorded_fixtures()
    if args.sample is not None:
        if args.seed is None:
            print("oracle check: error: --sample needs --seed", file=sys.stderr)
            return 2
        fixtures = check.sample(fixtures, args.sample, args.seed)
    start = time.monotonic()
    bad = check.check(fixtures, parallel=args.jobs, timeout=args.timeout)
    print(f"oracle check: {len(fixtures)} fixtures checked, {bad} drifted or failed "
          f"({time.monotonic() - start:.1f} s)")
    return 1 if bad else 0


def _cmd_freshness(args: argparse.Namespace) -> int:
    from conformance.oracle import freshness

    problems = freshness.problems()
    for p in problems:
        print(p)
    print(f"oracle freshness: {freshness.count()} goldens, {len(problems)} problems")
    return 1 if problems else 0


def _cmd_lint(args: argparse.Namespace) -> int:
    from conformance.oracle import lint

    bad = 0
    for f in _fixture_args(args.files):
        _, errors = lint.lint_file(str(f))
        for e in errors:
            print(e.format(paths.rel(f)))
        bad += bool(errors)
    return 1 if bad else 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ci/oracle", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    def runs(q: argparse.ArgumentParser) -> None:
        q.add_argument("--jobs", type=int, default=2, help="children at once (default 2)")
        q.add_argument("--timeout", type=float, default=300.0,
                       help="seconds one child may run (default 300)")

    r = sub.add_parser("record", help="record goldens")
    r.add_argument("files", nargs="+", metavar="FILE", help="fixtures or directories")
    runs(r)
    r.set_defaults(run=_cmd_record)
    c = sub.add_parser("check", help="re-record and compare with the committed goldens")
    c.add_argument("files", nargs="*", metavar="FILE")
    c.add_argument("--sample", type=int, help="check only N fixtures chosen by --seed")
    c.add_argument("--seed", help="the seed of --sample (CI passes the commit hash)")
    runs(c)
    c.set_defaults(run=_cmd_check)
    f = sub.add_parser("freshness", help="every golden matches its fixture and the oracle")
    f.set_defaults(run=_cmd_freshness)
    lt = sub.add_parser("lint", help="the fixture lint")
    lt.add_argument("files", nargs="+", metavar="FILE")
    lt.set_defaults(run=_cmd_lint)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.run(args)
