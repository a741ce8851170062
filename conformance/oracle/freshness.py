"""``freshness`` (SCHEMA.md §9): every golden still describes its fixture and oracle.

Fast and free of torch, so CI runs it on every commit: each golden's fixture_sha256 and
oracle_sha256 must match the files now, each golden must validate against the schema,
every fixture outside fixtures/errors/ must have a golden (and every golden a
fixture), and no golden may carry the reference's own `unsupported` (null in goldens; the
schema allows a value for tdref's outcomes only).
"""

import json

from conformance.oracle import golden, hashing, paths


def problems() -> list[str]:
    """Every freshness problem, one line each ("<path>: <what>")."""
    found = []
    oracle_sha = hashing.oracle_sha256()
    fixtures = paths.recorded_fixtures()
    for fixture in fixtures:
        if not paths.golden_path(fixture).exists():
            found.append(f"{paths.rel(fixture)}: no golden "
                         f"(run ci/oracle record {paths.rel(fixture)})")
    for g in sorted(paths.FIXTURES_DIR.rglob("*" + paths.GOLDEN_SUFFIX)):
        shown = paths.rel(g)
        fixture = paths.fixture_of_golden(g)
        if not fixture.exists():
            found.append(f"{shown}: golden without a fixture ({paths.rel(fixture)} is gone)")
            continue
        try:
            document = json.loads(g.read_text(encoding="utf-8"))
        except ValueError as e:
            found.append(f"{shown}: not JSON: {e}")
            continue
        errors = golden.validation_errors(document)
        if errors:
            found.append(f"{shown}: does not validate: {errors[0]}")
            continue
        outcomes = [document["eager"]]
        for compiled in document["compiled"].values():
            outcomes += [compiled, compiled["aot_eager"]]
        if any(o["unsupported"] is not None for o in outcomes):
            found.append(f"{shown}: carries the reference's `unsupported`: a golden records "
                         f"what torch did (DESIGN D13)")
        meta = document["meta"]
        if meta["fixture"] != paths.rel(fixture):
            found.append(f"{shown}: meta.fixture is {meta['fixture']}, not {paths.rel(fixture)}")
        if meta["fixture_sha256"] != hashing.file_sha256(fixture):
            found.append(f"{shown}: stale: the fixture changed since it was recorded "
                         f"(ci/oracle record {paths.rel(fixture)})")
        if meta["oracle_sha256"] != oracle_sha:
            found.append(f"{shown}: stale: the oracle changed since it was recorded "
                         f"(ci/full-oracle)")
    return found


def count() -> int:
    """The number of goldens checked."""
    return sum(1 for _ in paths.FIXTURES_DIR.rglob("*" + paths.GOLDEN_SUFFIX))
