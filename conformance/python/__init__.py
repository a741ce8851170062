"""Python backends (DESIGN D15): what tdconform's embedded CPython runs for `--backend py:MODULE:ATTR`.

graph_module.py builds a real torch.fx.GraphModule from a canonical graph (fixtures/SCHEMA.md
§7), host.py hands it to the backend callable as torch 2.13.0 does and runs what comes back,
bundled.py holds the bundled Python backends (torch's own and the deliberately broken ones).
"""
