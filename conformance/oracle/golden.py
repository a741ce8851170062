"""Assembling, validating and writing a golden (SCHEMA.md §1, §4).

The children of the fork server each return one outcome; this module puts them into the
golden document in the schema's key order, checks the document against
golden.schema.json, and writes it atomically (temporary file + rename), so a crash never
leaves half a golden behind.
"""

import functools
import json
import os
import pathlib
import platform
import tempfile

from conformance.oracle import hashing, paths, profiles, values
from conformance.oracle.header import Header

SCHEMA_ID = "tdconform-golden/1"


class GoldenError(Exception):
    """A golden could not be assembled, or does not validate."""


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    with open(paths.SCHEMA_FILE, encoding="utf-8") as f:
        schema = json.load(f)
    return jsonschema.Draft202012Validator(schema)


def validation_errors(document: dict) -> list[str]:
    """Every schema violation of a golden, as "<json path>: <message>" lines."""
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.path)))
    return [f"{e.json_path}: {e.message}" for e in errors]


def meta(fixture: pathlib.Path, header: Header, environment: dict, torch_version: str,
         oracle_sha: str) -> dict:
    """The meta object (§4)."""
    return {
        "fixture": paths.rel(fixture),
        "fixture_sha256": hashing.file_sha256(fixture),
        "oracle_sha256": oracle_sha,
        "torch_version": torch_version,
        "python_version": platform.python_version(),
        "environment": dict(environment),
        "header": header.to_json(),
        "profiles": {p: dict(profiles.PROFILES[p]) for p in header.profiles},
    }


def _check_small_floats(document: dict, header: Header) -> None:
    """D1: every nonzero float element recorded has |v| >= 1e-3 unless the header sets a
    tolerance for its dtype."""
    tolerant = set(header.tolerance)
    problems = []
    outcomes = [("eager", document["eager"])]
    for p, o in document["compiled"].items():
        outcomes += [(f'compiled["{p}"]', o), (f'compiled["{p}"].aot_eager', o["aot_eager"])]
    for where, outcome in outcomes:
        for name, value in outcome["outs"].items():
            for path in values.small_floats(value, tolerant):
                problems.append(f"{where}.outs.{name}{path}")
    if problems:
        raise GoldenError("nonzero float element with |v| < 1e-3 (DESIGN.md D1; give the "
                          "header a '# tdc: tolerance' or change the inputs): "
                          + "; ".join(problems[:5])
                          + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))


def assemble(meta_obj: dict, eager: dict, compiled: dict[str, dict], header: Header) -> dict:
    """The golden document; raises GoldenError unless it validates and passes D1's check."""
    document = {"schema": SCHEMA_ID, "meta": meta_obj, "eager": eager,
                "compiled": {p: compiled[p] for p in header.profiles}}
    problems = validation_errors(document)
    if problems:
        raise GoldenError("golden does not validate: " + "; ".join(problems[:5]))
    _check_small_floats(document, header)
    return document


def dumps(document: dict) -> str:
    """UTF-8 JSON, one-space indent, schema key order, final newline (§1)."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write(path: pathlib.Path, document: dict) -> None:
    """Writes atomically: a temporary file in the same directory, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(document))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
