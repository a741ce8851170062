"""Text normalization of SCHEMA.md §8, applied to every message, repr and counter key.

Goldens must not depend on where the repository, torch or Python are installed, nor on
the addresses objects happened to get, or two recordings of one fixture on two machines
(or twice on one) would differ. The torch package is located without importing it, so
the freshness check and the tests stay free of torch.
"""

import functools
import importlib.util
import os
import re
import sysconfig

from conformance.oracle import paths

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


@functools.lru_cache(maxsize=1)
def _replacements() -> tuple[tuple[str, str], ...]:
    """The path prefixes of step 1, longest first (torch lives inside the repo's .venv)."""
    pairs: dict[str, str] = {}

    def add(path: str, replacement: str, slash: bool) -> None:
        for variant in {path, os.path.realpath(path)}:
            pairs[variant + "/" if slash else variant] = replacement

    spec = importlib.util.find_spec("torch")
    if spec is not None and spec.origin:
        add(os.path.dirname(spec.origin), "<torch>", slash=False)
    add(sysconfig.get_paths()["stdlib"], "<python>", slash=False)
    root = str(paths.REPO_ROOT)
    add(root, "", slash=True)   # "/repo/fixtures/x.py" -> "fixtures/x.py"
    add(root, "", slash=False)  # the root itself
    return tuple(sorted(pairs.items(), key=lambda kv: -len(kv[0])))


def normalize(text: str) -> str:
    """Applies SCHEMA.md §8 steps 1-3 to one string."""
    for prefix, replacement in _replacements():
        text = text.replace(prefix, replacement)
    text = _ADDRESS.sub("0x?", text)
    return text.replace("\r\n", "\n")
