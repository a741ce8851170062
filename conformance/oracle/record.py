"""``record``: lint each fixture, run it in every mode, assemble and write its golden.

All runs of all fixtures go to the fork server in one batch, so ``--jobs`` children stay
busy across fixture boundaries. A fixture whose lint fails, whose eager run mutates a
tensor in place, or one of whose runs fails gets no golden (an old one is left as is)
and makes the command fail.
"""

import dataclasses
import pathlib

from conformance.oracle import golden, hashing, lint, paths, server
from conformance.oracle.child import Job


@dataclasses.dataclass
class Recorded:
    """What recording one fixture gave: the document or the errors, and its cost."""

    fixture: pathlib.Path
    document: dict | None = None
    errors: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0


def _jobs(fixture: pathlib.Path, profile_names: list[str], capture_aten: bool) -> list[Job]:
    path = str(fixture)
    return ([Job(path, "eager"), Job(path, "mutation")]
            + [Job(path, "compile", p, capture_aten) for p in profile_names]
            + [Job(path, "aot_eager", p) for p in profile_names])


def record(fixtures: list[pathlib.Path], parallel: int = 2, timeout: float = 300.0,
           capture_aten: bool = True) -> list[Recorded]:
    """Records every fixture (without writing); returns one Recorded per fixture.

    Args:
      fixtures: fixture paths.
      parallel: children at once.
      timeout: seconds one child may run.
      capture_aten: False leaves out the ATen capture (aten_graph null), which the tests
        use to show that the capture changes nothing Dynamo does.
    """
    facts = server.prepare()
    oracle_sha = hashing.oracle_sha256()
    outcomes = [Recorded(f.resolve()) for f in fixtures]
    headers = {}
    all_jobs: list[tuple[int, Job]] = []
    for i, item in enumerate(outcomes):
        shown = paths.rel(item.fixture)
        header, errors = lint.lint_file(str(item.fixture))
        if errors:
            item.errors += [e.format(shown) for e in errors]
            continue
        headers[i] = header
        all_jobs += [(i, job) for job in _jobs(item.fixture, header.profiles, capture_aten)]

    results = server.run_jobs([job for _, job in all_jobs], parallel=parallel, timeout=timeout)
    by_fixture: dict[int, dict[Job, dict]] = {}
    for (i, job), result in zip(all_jobs, results):
        by_fixture.setdefault(i, {})[job] = result
        outcomes[i].seconds += result.get("seconds", 0.0)

    for i, runs in by_fixture.items():
        item, header = outcomes[i], headers[i]
        shown = paths.rel(item.fixture)
        for job, result in runs.items():
            if not result["ok"]:
                output = f"\n--- its output ---\n{result['log']}" if result.get("log") else ""
                item.errors.append(f"{shown}: error: {job.label()} run failed: "
                                   f"{result['error']}{output}")
            for line, col, op in result.get("violations", []):
                item.errors.append(f"{shown}:{line}:{col}: error: in-place mutation of an "
                                   f"existing tensor ({op}) is outside the fixture subset")
        if item.errors:
            continue
        eager = next(r["outcome"] for j, r in runs.items() if j.mode == "eager")
        compiled = {j.profile: r["outcome"] for j, r in runs.items() if j.mode == "compile"}
        for j, r in runs.items():
            if j.mode == "aot_eager":
                compiled[j.profile]["aot_eager"] = r["outcome"]
        meta = golden.meta(item.fixture, header, facts["environment"], facts["torch_version"],
                           oracle_sha)
        try:
            item.document = golden.assemble(meta, eager, compiled, header)
        except golden.GoldenError as e:
            item.errors.append(f"{shown}: error: {e}")
    return outcomes
