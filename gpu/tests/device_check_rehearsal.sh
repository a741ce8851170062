#!/usr/bin/env bash
# gpu/device-check.sh rehearsed on a machine without a GPU (issue 31): `bundle` from the build
# tree, then `run` on the seed cases and 2 generated programs. The backend nvcc builds there
# finds no device, so every case is NOT_SUPPORTED; what is checked is that the script builds
# it, runs both campaigns and writes every report, and that the reports say what ran.
# Exits 77 (ctest's SKIP) on a machine with a GPU, where the script is run for real.
# Run by ctest (gpu.device_check) from the repository root:
#   gpu/tests/device_check_rehearsal.sh BUILD_DIR PYTHON
set -euo pipefail
build="$1" python="$2"
if nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: this machine has a GPU: run gpu/device-check.sh itself"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
BUILD="$build" BUNDLE="$work/bundle" gpu/device-check.sh bundle
BUNDLE="$work/bundle" FILTER='fixtures:seed:*' FUZZ=2 JOBS=2 PYTHON="$python" \
  gpu/device-check.sh run "$work/out"
"$python" - "$work/out" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
for name in ["suite.json", "suite.xml", "fuzz.json", "parity.json", "parity.md", "nvidia-smi.txt", "log.txt",
             "libtdc_backend_cuda.so"]:
    assert (out / name).is_file(), f"missing {name}"
assert not (out / "tdconform-out").exists(), "failure folders left behind"
parity = json.loads((out / "parity.json").read_text())
runs = {r["run"]: r for r in parity["runs"]}
assert set(runs) == {"suite", "fuzz"}, runs
suite = json.loads((out / "suite.json").read_text())
assert all(c["id"].startswith("fixtures:seed:") for c in suite["cases"]), "FILTER not applied"
assert runs["suite"]["cases"] == len(suite["cases"]) > 0
assert runs["fuzz"]["cases"] == 8, runs["fuzz"]  # 2 programs x 2 profiles x 2 levels
for run in runs.values():
    assert run["summary"]["passed"] == 0 and run["summary"]["skipped"] == run["cases"], run
    assert run["graphs"] == 0 and run["seconds"] > 0, run
assert parity["backend"]["environment"].startswith("no CUDA device"), parity["backend"]
statuses = {s for g in parity["groups"] for s in g["statuses"]}
assert statuses == {"NOT_SUPPORTED"}, statuses
print("device-check rehearsal: ok")
PY
