"""The two hashes of a golden's meta (SCHEMA.md §4): the fixture's and the oracle's.

A golden is fresh while both match: the fixture did not change, and neither did the code
that recorded it. Tests and their data (``tests/``, ``testdata/``) do not record anything
and are left out, as are Python's caches, so editing a test does not stale every golden.
"""

import hashlib
import pathlib

from conformance.oracle import paths

_EXCLUDED_DIRS = ("__pycache__", "tests", "testdata")


def file_sha256(path: pathlib.Path) -> str:
    """SHA-256 of a file's bytes, lowercase hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def oracle_files() -> list[pathlib.Path]:
    """The files the oracle hash covers, sorted by repo-relative path."""
    found = []
    for p in paths.ORACLE_DIR.rglob("*"):
        rel_parts = p.relative_to(paths.ORACLE_DIR).parts
        if p.is_file() and not any(part in _EXCLUDED_DIRS for part in rel_parts[:-1]) \
                and p.suffix != ".pyc":
            found.append(p)
    return sorted(found, key=paths.rel)


def oracle_sha256() -> str:
    """SHA-256 over every oracle file, each hashed as ``path\\0bytes\\0`` (path repo-relative)."""
    h = hashlib.sha256()
    for p in oracle_files():
        h.update(paths.rel(p).encode("utf-8") + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()
