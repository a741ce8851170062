#!/usr/bin/env bash
# gpu/device-check.sh: the CUDA backend's check on a machine with an NVIDIA GPU (issue 31),
# in two steps, since that machine builds CUDA but has none of tdconform's libraries:
#
#   gpu/device-check.sh bundle    here, after `ci/build release`: puts into $BUNDLE
#                                 (default gpu-bundle/, ignored by git; carried to the
#                                 device machine) the stripped
#                                 tdconform, the shared libraries it needs beyond the C and
#                                 C++ runtimes, and the suite's case list
#   gpu/device-check.sh run OUT   there, from the repository root with $BUNDLE: builds
#                                 libtdc_backend_cuda.so with nvcc (sm_80, sm_90), runs the
#                                 whole suite and a fuzz campaign of FUZZ programs (default
#                                 200) on it, and writes into OUT: suite.json, suite.xml,
#                                 fuzz.json (tdconform's reports), parity.json and parity.md
#                                 (gpu/parity_report.py: per op the statuses, max and p99 ULP,
#                                 errors; graphs compiled and run per second), nvidia-smi.txt
#                                 and log.txt
#
# `run` exits 0 when both runs completed (whatever their verdicts: the report says them),
# 1 when something could not be built or run. JOBS (default: the CPUs) cases run at a time;
# FILTER (default: every case) selects the suite's cases; PYTHON (default python3, which has
# tabulate there) runs the report. gpu.device_check runs both steps on a few cases on a
# machine without a GPU (its cases NOT_SUPPORTED), as a rehearsal of the script.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'device-check: %s\n' "$*"; }
die() { printf 'device-check: error: %s\n' "$*" >&2; exit 1; }

readonly BUNDLE="${BUNDLE:-gpu-bundle}"

bundle() {
  local build="${BUILD:-build}"
  local exe="$build/bin/tdconform" cases="$build/fixtures/conformance_cases.txt"
  [[ -x "$exe" && -f "$cases" ]] || die "$exe or $cases missing: run ci/build release first"
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/bin" "$BUNDLE/lib"
  strip -o "$BUNDLE/bin/tdconform" "$exe"
  cp "$cases" "$BUNDLE/cases.txt"
  # The libraries a machine with only the C and C++ runtimes lacks (fmt, pugixml, OpenSSL's).
  ldd "$exe" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|ld-linux*) ;;
      *) cp -L "$lib" "$BUNDLE/lib/" ;;
    esac
  done
  say "$BUNDLE: $(du -sh "$BUNDLE" | cut -f1) ($(ls "$BUNDLE/lib" | tr '\n' ' '))"
}

# Seconds since START (date +%s%N), to the millisecond.
seconds_since() {
  local ms=$(( ($(date +%s%N) - $1) / 1000000 ))
  printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

run() {
  local out="${1:?usage: gpu/device-check.sh run OUT}"
  local jobs="${JOBS:-$(nproc)}" fuzz="${FUZZ:-200}"
  [[ -x "$BUNDLE/bin/tdconform" ]] || die "$BUNDLE missing: run 'gpu/device-check.sh bundle' where tdconform was built"
  mkdir -p "$out"
  exec > >(tee "$out/log.txt") 2>&1
  nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || say "nvidia-smi failed (see nvidia-smi.txt)"
  say "nvcc: $(nvcc --version | tail -1)"
  local lib="$out/libtdc_backend_cuda.so"
  # What gpu/backend/CMakeLists.txt builds, without CMake's project (whose libraries this
  # machine lacks): the ABI, the device, cudart linked statically.
  nvcc -O2 -std=c++20 -shared -Xcompiler -fPIC,-fvisibility=hidden \
       -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -cudart static \
       -I. gpu/backend/backend.cc gpu/backend/plan.cc gpu/backend/promotion.cc gpu/backend/run_plan.cc gpu/backend/views.cc gpu/backend/cuda_device.cu -o "$lib" || die "nvcc failed"
  local tdconform=(env LD_LIBRARY_PATH="$(realpath "$BUNDLE")/lib" "$BUNDLE/bin/tdconform"
                   --backend "$lib" --cases "$BUNDLE/cases.txt" --jobs "$jobs"
                   --out "$out/tdconform-out")
  local selection=()
  [[ -n "${FILTER:-}" ]] && selection=(--filter "$FILTER")
  local start suite_s fuzz_s
  start=$(date +%s%N)
  "${tdconform[@]}" "${selection[@]}" --json "$out/suite.json" --junit "$out/suite.xml" | tail -3 || true
  suite_s=$(seconds_since "$start")
  [[ -f "$out/suite.json" ]] || die "the suite wrote no report"
  start=$(date +%s%N)
  "${tdconform[@]}" --fuzz "$fuzz" --seed 1 --filter 'fuzz:*' --json "$out/fuzz.json" | tail -3 || true
  fuzz_s=$(seconds_since "$start")
  [[ -f "$out/fuzz.json" ]] || die "the fuzz campaign wrote no report"
  "${PYTHON:-python3}" gpu/parity_report.py --json "$out/parity.json" --markdown "$out/parity.md" \
    "suite=$out/suite.json:$suite_s" "fuzz=$out/fuzz.json:$fuzz_s" || die "parity_report.py failed"
  rm -rf "$out/tdconform-out"  # failure folders: many files, the reports say the same
  say "suite ${suite_s}s, fuzz ${fuzz_s}s; $out/parity.md:"
  cat "$out/parity.md"
}

case "${1:-}" in
  bundle) bundle ;;
  run) shift; run "$@" ;;
  *) echo "usage: gpu/device-check.sh bundle | run OUT" >&2; exit 2 ;;
esac
