"""golden.schema.json rejects malformed goldens: a valid recorded golden, perturbed one
field at a time (missing, extra, wrong type, bad hex float, unknown value kind, ...).
Every committed golden is validated by `ci/oracle freshness` (a step of ci/test-all)."""

import json
import unittest

from conformance.oracle import golden, paths

GOLDEN = paths.FIXTURES_DIR / "seed" / "example5_graph_break.golden.json"


def _load() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _compiled(d: dict) -> dict:
    return d["compiled"]["torch-2.13"]


def _tensor(d: dict) -> dict:
    return d["eager"]["outs"]["out"]["tensor"]


# name -> perturbation (mutates the document).
PERTURBATIONS = {
    "missing top-level field": lambda d: d.pop("eager"),
    "missing meta field": lambda d: d["meta"].pop("fixture_sha256"),
    "missing trigger line": lambda d: _compiled(d)["invocations"][0]["trigger"].pop("line"),
    "missing node field": lambda d: _compiled(d)["invocations"][0]["dynamo_graph"]["nodes"][1].pop("kwargs"),
    "missing graph break field": lambda d: _compiled(d)["graph_breaks"][0].pop("hints"),
    "extra top-level field": lambda d: d.update(extra=1),
    "extra node field": lambda d: _compiled(d)["invocations"][0]["dynamo_graph"]["nodes"][1].update(name="relu"),
    "extra tensor field": lambda d: _tensor(d).update(device="cpu"),
    "extra counters field": lambda d: _compiled(d)["counters"].update(unique_graphs=2),
    "wrong type: frame_count string": lambda d: _compiled(d)["counters"].update(frame_count="2"),
    "wrong type: shape of strings": lambda d: _tensor(d).update(shape=["8"]),
    "wrong type: resume int": lambda d: _compiled(d)["invocations"][0]["trigger"].update(resume=1),
    "wrong type: exception string": lambda d: d["eager"].update(exception="RuntimeError"),
    "bad hex float: decimal": lambda d: _tensor(d)["values"].__setitem__(0, "0.5"),
    "bad hex float: no exponent": lambda d: _tensor(d)["values"].__setitem__(0, "0x1.8"),
    "bad hex float: JSON number": lambda d: _tensor(d)["values"].__setitem__(0, 0.5),
    "bad hex float: float scalar": lambda d: d["eager"]["outs"].update(out2={"float": "1.5"}),
    "unknown value kind": lambda d: d["eager"]["outs"].update(out2={"complex": [1, 2]}),
    "two value kinds": lambda d: d["eager"]["outs"].update(out2={"int": 1, "bool": True}),
    "unknown arg kind": lambda d: _compiled(d)["invocations"][0]["dynamo_graph"]["nodes"][1]["args"].__setitem__(0, {"node": 0}),
    "tensor as arg": lambda d: _compiled(d)["invocations"][0]["dynamo_graph"]["nodes"][1]["args"].__setitem__(0, d["eager"]["outs"]["out"]),
    "bad result name": lambda d: d["eager"]["outs"].update(outer={"int": 1}),
    "unknown profile": lambda d: d["compiled"].update({"torch-2.12": _compiled(d)}),
    "unknown node op": lambda d: _compiled(d)["invocations"][0]["dynamo_graph"]["nodes"][1].update(op="call"),
    "bad compile id": lambda d: _compiled(d)["invocations"][0].update(compile_id="0"),
    "bad sha256": lambda d: d["meta"].update(oracle_sha256="abc"),
    "wrong schema version": lambda d: d.update(schema="tdconform-golden/2"),
    "int tensor with float values": lambda d: _tensor(d).update(dtype="int64"),
    "negative line": lambda d: _compiled(d)["graph_breaks"][0]["location"].update(line=-1),
}


class SchemaTest(unittest.TestCase):

    def test_recorded_golden_validates(self):
        self.assertEqual(golden.validation_errors(_load()), [])

    def test_every_perturbation_is_rejected(self):
        for name, perturb in PERTURBATIONS.items():
            with self.subTest(perturbation=name):
                document = _load()
                perturb(document)
                self.assertNotEqual(golden.validation_errors(document), [], name)

    def test_schema_is_closed(self):
        """additionalProperties is false on every object with properties."""
        schema = json.loads(paths.SCHEMA_FILE.read_text(encoding="utf-8"))

        checked = []

        def walk(node, where):
            if isinstance(node, dict):
                # allOf holds only conditions on an object defined beside it.
                if "properties" in node and "/allOf/" not in where:
                    self.assertIs(node.get("additionalProperties"), False, where)
                    self.assertEqual(sorted(node["required"]), sorted(node["properties"]), where)
                    checked.append(where)
                for k, v in node.items():
                    walk(v, f"{where}/{k}")
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    walk(v, f"{where}/{i}")

        walk(schema, "#")
        self.assertGreater(len(checked), 20)

    def test_written_form(self):
        """One-space indent, schema key order, final newline (SCHEMA.md §1)."""
        text = GOLDEN.read_text(encoding="utf-8")
        document = json.loads(text)
        self.assertEqual(golden.dumps(document), text)
        self.assertEqual(list(document), ["schema", "meta", "eager", "compiled"])
        self.assertEqual(list(document["eager"]), ["outs", "exception", "unsupported"])
        self.assertEqual(list(_compiled(document)),
                         ["outs", "exception", "unsupported", "invocations", "counters",
                          "graph_breaks", "aot_eager"])


if __name__ == "__main__":
    unittest.main()
