"""``check``: re-record fixtures into a temporary directory and compare each with its
committed golden by calling ``tdcompare`` (the one comparator of D12; nothing is
compared here). Drift is printed field by field, as tdcompare reports it.
"""

import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile

from conformance.oracle import golden, hashing, paths, record

TDCOMPARE_ENV = "TDC_TDCOMPARE"


def tdcompare_path() -> pathlib.Path:
    """build/bin/tdcompare, or $TDC_TDCOMPARE."""
    return pathlib.Path(os.environ.get(TDCOMPARE_ENV) or paths.REPO_ROOT / "build/bin/tdcompare")


def sample(fixtures: list[pathlib.Path], n: int, seed: str) -> list[pathlib.Path]:
    """n fixtures chosen by a generator seeded with `seed` (e.g. the commit hash), in
    path order; the choice depends only on the seed and the sorted fixture list."""
    ordered = sorted(fixtures, key=paths.rel)
    if n >= len(ordered):
        return ordered
    chosen = random.Random(seed).sample(range(len(ordered)), n)
    return [ordered[i] for i in sorted(chosen)]


def _stale_note(fixture: pathlib.Path) -> str:
    """Says when the committed golden predates the fixture (then drift is expected)."""
    try:
        meta = json.loads(paths.golden_path(fixture).read_text(encoding="utf-8"))["meta"]
        if meta["fixture_sha256"] != hashing.file_sha256(fixture):
            return " (the golden is stale: the fixture changed since it was recorded)"
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return ""


def check(fixtures: list[pathlib.Path], parallel: int, timeout: float, out=sys.stdout) -> int:
    """Returns the number of fixtures that drifted or could not be checked."""
    compare = tdcompare_path()
    if not os.access(compare, os.X_OK):
        print(f"oracle check: error: {paths.rel(compare)} not found: run ci/build release",
              file=out)
        return len(fixtures) or 1
    bad = 0
    missing = [f for f in fixtures if not paths.golden_path(f).exists()]
    for f in missing:
        print(f"{paths.rel(f)}: error: no committed golden (run ci/oracle record {paths.rel(f)})",
              file=out)
    todo = [f for f in fixtures if f not in missing]
    results = record.record(todo, parallel=parallel, timeout=timeout)
    with tempfile.TemporaryDirectory(prefix="tdc-oracle-check-") as tmp:
        for item in results:
            shown = paths.rel(item.fixture)
            if item.errors:
                bad += 1
                print("\n".join(item.errors), file=out)
                continue
            fresh = pathlib.Path(tmp) / (shown.replace("/", "__") + ".golden.json")
            golden.write(fresh, item.document)
            proc = subprocess.run([str(compare), str(paths.golden_path(item.fixture)), str(fresh)],
                                  capture_output=True, text=True)
            if proc.returncode == 0:
                print(f"{shown}: no drift ({item.seconds:.1f} s)", file=out)
                continue
            bad += 1
            kind = "drift" if proc.returncode == 1 else f"tdcompare failed (exit {proc.returncode})"
            print(f"{shown}: {kind}{_stale_note(item.fixture)}:", file=out)
            for line in (proc.stdout + proc.stderr).splitlines():
                print(f"  {line}", file=out)
    return bad + len(missing)
