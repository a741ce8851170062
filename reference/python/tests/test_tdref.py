"""The tdref Python package (reference/python/tdref), run by ctest from the build tree.

Expected values come from torch itself: the committed goldens (recorded from torch 2.13.0 by
ci/oracle) and programs executed here by the real torch the test runs beside.
"""

import json
import pathlib
import shutil

import pytest
import torch

import tdref
import tdref.values

ROOT = pathlib.Path(__file__).resolve().parents[3]
GRAPH_BREAK = "fixtures/seed/example5_graph_break.py"


def golden(fixture, profile="torch-2.13"):
    path = ROOT / fixture.replace(".py", ".golden.json")
    return json.loads(path.read_text(encoding="utf-8"))["compiled"][profile]


def torch_outs(source):
    """The `out` names' values as the real torch computes them."""
    scope = {}
    exec(compile(source, "program.py", "exec"), scope)
    return {k: v for k, v in scope.items() if k == "out" or k.startswith("out_")}


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("profile", ["torch-2.13", "torch-2.13-ngb"])
def test_run_gives_the_goldens_invocations_and_breaks(profile):
    recorded = golden(GRAPH_BREAK, profile)
    outcome = tdref.run(GRAPH_BREAK, profile=profile)
    assert outcome.mode == "compile" and outcome.profile == profile
    assert [(i.trigger.code, i.trigger.resume, i.trigger.line, i.compile_id)
            for i in outcome.invocations] == [
        (r["trigger"]["code"], r["trigger"]["resume"], r["trigger"]["line"], r["compile_id"])
        for r in recorded["invocations"]]
    assert [i.dynamo_graph.nodes for i in outcome.invocations] == [
        r["dynamo_graph"]["nodes"] for r in recorded["invocations"]]
    assert [g["gb_type"] for g in outcome.graph_breaks] == [
        g["gb_type"] for g in recorded["graph_breaks"]]
    assert outcome.counters["frame_count"] == recorded["counters"]["frame_count"]
    assert outcome.exception is None


def test_aot_eager_outcome_is_torchs():
    fixture = "fixtures/allow_in_graph/allowed_body_values_differ_by_level.py"
    recorded = golden(fixture)
    outcome = tdref.run(fixture)
    aot_values = [float.fromhex(v) for v in recorded["aot_eager"]["outs"]["out"]["tensor"]["values"]]
    dynamo_values = [float.fromhex(v) for v in recorded["outs"]["out"]["tensor"]["values"]]
    assert aot_values != dynamo_values  # the allowed body reads is_compiling() True under AOT
    assert outcome.aot_eager.mode == "aot_eager"
    assert outcome.aot_eager.outs["out"].tolist() == pytest.approx(aot_values, rel=1.3e-6, abs=1e-5)
    assert outcome.outs["out"].tolist() == pytest.approx(dynamo_values, rel=1.3e-6, abs=1e-5)


def test_run_outputs_are_torchs_values():
    recorded = golden(GRAPH_BREAK)["outs"]["out"]["tensor"]
    out = tdref.run(GRAPH_BREAK).outs["out"]
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float32
    assert out.tolist() == [float.fromhex(v) for v in recorded["values"]]


VALUES = """import torch
x = torch.arange(6.0).reshape(2, 3)
out = x.transpose(0, 1) * 2
out_int = torch.arange(4).reshape(2, 2)[:, 1]
out_bool = x > 2
out_scalar = x.sum()
out_py = (1, 2.5, None, "s", [True], {"k": 3})
out_dtype = x.dtype
"""


@pytest.mark.parametrize("mode", ["eager", "compile"])
def test_source_values_have_torchs_dtype_shape_strides(mode):
    expected = torch_outs(VALUES)
    outs = tdref.run(VALUES, mode=mode).outs
    assert outs.keys() == expected.keys()
    for name, want in expected.items():
        got = outs[name]
        if isinstance(want, torch.Tensor):
            assert (got.dtype, got.shape, got.stride()) == (want.dtype, want.shape, want.stride())
            assert torch.equal(got, want), name
        else:
            assert got == want, name


def test_without_torch_tensors_are_nested_lists(monkeypatch):
    monkeypatch.setattr(tdref.values, "torch_available", lambda: False)
    outs = tdref.run(VALUES, mode="eager").outs
    assert outs["out"] == tdref.TensorValue("float32", [3, 2], [1, 3], False,
                                            [[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]])
    assert outs["out_scalar"].values == 15.0 and outs["out_scalar"].shape == []
    assert outs["out_dtype"] == tdref.Named("dtype", "float32")


def test_graphs_build_as_graph_modules_that_compute_as_torch():
    invocation = tdref.run(GRAPH_BREAK).invocations[0]
    x = torch.randn(8)
    dynamo = invocation.dynamo_graph.to_graph_module()
    assert isinstance(dynamo, torch.fx.GraphModule)
    assert [n.op for n in dynamo.graph.nodes] == ["placeholder", "call_function", "output"]
    assert torch.equal(dynamo(x)[0], torch.relu(x))
    aten = invocation.aten_graph.to_graph_module()
    targets = [n.target for n in aten.graph.nodes if n.op == "call_function"]
    assert targets == [torch.ops.aten.relu.default]
    assert torch.equal(aten(x)[0], torch.relu(x))


def test_unmodeled_program_is_refused_with_its_place():
    program = "import torch\nout_before = 1\nclass Meta(type):\n    pass\nout = 2\n"
    with pytest.raises(tdref.Unsupported) as refused:
        tdref.run(program)
    assert refused.value.where.endswith("program.py:3:1")
    assert refused.value.reason == "a class deriving from type is not modeled"
    assert refused.value.partial.outs == {"out_before": 1}


def test_errors_are_located_and_typed(tmp_path):
    with pytest.raises(tdref.TdrefError, match=r"^missing\.py:1:1: error: cannot read file"):
        tdref.run("missing.py")
    with pytest.raises(ValueError, match="unknown mode 'dynamo'"):
        tdref.run(GRAPH_BREAK, mode="dynamo")
    with pytest.raises(TypeError, match="not int"):
        tdref.run(3)
    with pytest.raises(ValueError, match="max_steps"):
        tdref.run(GRAPH_BREAK, max_steps=0)
    with pytest.raises(SyntaxError) as cpython:
        compile("x = = 1\n", "program.py", "exec")
    with pytest.raises(tdref.TdrefError, match=f"program.py:1:{cpython.value.offset}: error: "
                                               f"{cpython.value.msg}"):
        tdref.run("x = = 1\n")


def test_step_budget_refuses_a_long_run():
    with pytest.raises(tdref.Unsupported, match="step"):
        tdref.run("i = 0\nwhile True:\n    i += 1\n", mode="eager", max_steps=1000)


def test_explain_says_where_the_graph_ends():
    text = tdref.explain(GRAPH_BREAK)
    assert "graph 0/0 of fn ends at line 11 (graph break)" in text


def test_verify_passes_a_fixture_and_fails_a_changed_one(tmp_path):
    assert tdref.verify([GRAPH_BREAK, "fixtures/seed/example1_disable_nonrecursive.py"]).ok
    changed = tmp_path / "changed.py"
    shutil.copy(ROOT / GRAPH_BREAK.replace(".py", ".golden.json"),
                tmp_path / "changed.golden.json")
    changed.write_text((ROOT / GRAPH_BREAK).read_text().replace("torch.relu", "torch.abs"))
    result = tdref.verify(changed)
    assert not result and result.report.endswith("0 passed, 1 failed\n")
    with pytest.raises(tdref.TdrefError, match="golden"):
        tdref.verify(tmp_path / "no_golden.py")
