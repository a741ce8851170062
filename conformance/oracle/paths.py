"""Where things are: the repository root, the fixture tree, the oracle's own files.

Every other module names paths through here so that the recorder, the freshness check
and the tests agree on what "repo-relative" means (SCHEMA.md §1, §4, §8).
"""

import os
import pathlib

ORACLE_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = ORACLE_DIR.parents[1]
FIXTURES_DIR = REPO_ROOT / "fixtures"
ERRORS_DIR = FIXTURES_DIR / "errors"
SCHEMA_FILE = ORACLE_DIR / "golden.schema.json"
GOLDEN_SUFFIX = ".golden.json"


def golden_path(fixture: pathlib.Path) -> pathlib.Path:
    """Returns the golden beside a fixture: ``x.py`` -> ``x.golden.json`` (SCHEMA.md §1)."""
    return fixture.with_name(fixture.name[: -len(".py")] + GOLDEN_SUFFIX)


def fixture_of_golden(golden: pathlib.Path) -> pathlib.Path:
    """Inverse of golden_path."""
    return golden.with_name(golden.name[: -len(GOLDEN_SUFFIX)] + ".py")


def rel(path: os.PathLike | str) -> str:
    """Returns a path relative to the repository root, with forward slashes."""
    p = pathlib.Path(path).resolve()
    try:
        return p.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return p.as_posix()


def recorded_fixtures() -> list[pathlib.Path]:
    """Every fixture that must have a golden: each .py under fixtures/ but fixtures/errors/."""
    found = []
    for p in sorted(FIXTURES_DIR.rglob("*.py")):
        if ERRORS_DIR in p.parents or "__pycache__" in p.parts:
            continue
        found.append(p)
    return found
