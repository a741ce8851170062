#!/usr/bin/env bash
# reference.python.pip_install: `pip install .` and `pip install -e .` of the tdref package,
# each into a fresh virtual environment of the machine's python3 (no torch), then the package
# used from outside the checkout. Build requirements pinned and installed first (no build
# isolation), so the build uses exactly these versions.
#   pip_install_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir="$1"
work="$2"
rm -rf "$work"
mkdir -p "$work"
readonly BUILD_PINS=(scikit-build-core==1.1.2 packaging==26.4 pathspec==1.1.1)

check() {  # check VENV EXPECTED_LOCATION: the installed package answers from outside the tree
  (cd "$work" && "$1/bin/python" - "$source_dir" "$2" <<'PY'
import os, pathlib, sys
import tdref
source_dir, where = pathlib.Path(sys.argv[1]), sys.argv[2]
location = pathlib.Path(tdref.__file__).resolve()
inside = location.is_relative_to(source_dir / "reference/python")
assert inside == (where == "checkout"), f"tdref imported from {location}"
fixture = source_dir / "fixtures/seed/example5_graph_break.py"
outcome = tdref.run(fixture)
assert [i.trigger.code for i in outcome.invocations] == ["fn", "torch_dynamo_resume_in_fn_at_11"]
out = outcome.outs["out"]
assert isinstance(out, tdref.TensorValue) and out.shape == [8] and out.values[0] == 0.5, out
try:
    outcome.invocations[0].dynamo_graph.to_graph_module()
    raise AssertionError("a GraphModule without torch")
except ModuleNotFoundError as e:
    assert "needs torch" in str(e)
os.chdir(source_dir)  # goldens name their fixture relative to the checkout
assert tdref.verify("fixtures/seed/example5_graph_break.py").ok
print(f"tdref from {location.parent}: {len(outcome.invocations)} invocations")
PY
  )
}

for kind in wheel editable; do
  venv="$work/venv-$kind"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${BUILD_PINS[@]}"
  # One build folder for both (the editable install rebuilds nothing), outside the checkout.
  flags=(--quiet --disable-pip-version-check --no-build-isolation
         --config-settings=build-dir="$work/build")
  [[ $kind == editable ]] && flags+=(-e)
  "$venv/bin/pip" install "${flags[@]}" "$source_dir"
  check "$venv" "$([[ $kind == editable ]] && echo checkout || echo site-packages)"
done
