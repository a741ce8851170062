"""PyTorch's own tests as fixtures (DESIGN D14): where the reference stands on each of
fixtures/upstream/, in each mode and profile its header allows.

  ci/upstream.py TDREF --write   run every upstream fixture; write fixtures/upstream/pending.txt
  ci/upstream.py TDREF --check   exit 1 unless pending.txt is exactly what fails now (a ctest)

A fixture whose header says `# tdc: awaits ...` (classes, nn.Module, export, dynamic shapes)
must be refused by the reference or agree with its golden in each mode (`tdref verify
--expect-unsupported`, DESIGN D13: classes are modeled in eager code before Dynamo traces
them); it is never pending. Any other fixture either matches its golden or is listed in pending.txt,
one line per fixture and mode with what the reference did first (`UNSUPPORTED at ...` for a
refusal, or the first difference). fixtures/CMakeLists.txt registers a ctest for every
fixture and mode that is not pending; this check keeps the list from going stale: an entry
that passes now, or a failure that is not listed, fails it. The totals close the output.
"""

import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.oracle import header as header_lib  # noqa: E402 (after the path)

UPSTREAM = ROOT / "fixtures/upstream"
PENDING = UPSTREAM / "pending.txt"
PENDING_HEAD = (
    "# Written by ci/upstream.py --write: the upstream fixtures the reference does not predict\n"
    "# yet, one line per fixture and mode (eager or a profile), with what it did first.\n"
    "# No ctest is registered for these; ci/upstream.py --check (ctest upstream.pending)\n"
    "# fails when one passes now or another fails.\n")


def _header(path: pathlib.Path) -> header_lib.Header:
    source = path.read_text(encoding="utf-8")
    lines = {n for n, text in enumerate(source.splitlines(), start=1)
             if text.strip() and not text.lstrip().startswith("#")}
    return header_lib.parse(source, lines)[0]


def _modes(header: header_lib.Header) -> list[str]:
    return ["eager", *header.profiles]


def _run(tdref: str, fixture: pathlib.Path, mode: str, awaits: bool) -> tuple[bool, str]:
    """Whether tdref verify passes, and the first line it printed."""
    args = [tdref, "verify", str(fixture.relative_to(ROOT))]
    args += ["--mode", "eager"] if mode == "eager" else ["--mode", "compile", "--profile", mode]
    if awaits:
        args.append("--expect-unsupported")
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = (done.stdout + done.stderr).splitlines()
    first = next((l for l in lines if l.strip()), f"exit status {done.returncode}")
    return done.returncode == 0, first.strip()


def _key(fixture: pathlib.Path, mode: str) -> str:
    return f"{fixture.relative_to(UPSTREAM).with_suffix('')} {mode}"


def _read_pending() -> set[str]:
    if not PENDING.exists():
        return set()
    keys = set()
    for line in PENDING.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, mode = line.split()[:2]
            keys.add(f"{name} {mode}")
    return keys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tdref")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true")
    action.add_argument("--check", action="store_true")
    args = parser.parse_args()

    pending = _read_pending()
    failing: dict[str, str] = {}
    problems: list[str] = []
    counts = {"pass": 0, "refused as awaited": 0, "awaited but predicted": 0, "pending": 0}
    for fixture in sorted(UPSTREAM.rglob("*.py")):
        header = _header(fixture)
        for mode in _modes(header):
            key = _key(fixture, mode)
            ok, first = _run(args.tdref, fixture, mode, bool(header.awaits))
            if header.awaits:
                if ok:
                    predicted = "predicted, although" in first
                    counts["awaited but predicted" if predicted else "refused as awaited"] += 1
                else:
                    problems.append(f"{key}: awaits {' '.join(header.awaits)} but: {first}")
            elif ok:
                counts["pass"] += 1
                if key in pending:
                    problems.append(f"{key}: passes now: remove it from pending.txt "
                                    "(ci/upstream.py TDREF --write)")
            else:
                counts["pending"] += 1
                failing[key] = first
                if key not in pending:
                    problems.append(f"{key}: fails and is not pending: {first}")
    for key in sorted(pending - set(failing)):
        if not any(p.startswith(key + ":") for p in problems):
            problems.append(f"{key}: pending, but no such fixture and mode")

    if args.write:
        PENDING.write_text(PENDING_HEAD + "".join(f"{k} {failing[k]}\n" for k in sorted(failing)),
                           encoding="utf-8")
        problems = [p for p in problems if "pending" not in p]
    for p in problems:
        print(p, file=sys.stderr)
    print("upstream: " + ", ".join(f"{n} {what}" for what, n in counts.items())
          + " (fixture and mode pairs)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
