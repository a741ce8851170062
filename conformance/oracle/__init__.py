"""The oracle: records goldens of fixture programs from real torch 2.13.0.

See fixtures/SCHEMA.md for what a golden holds and DESIGN.md D1, D2, D3, D11 and D12 for
why. Modules: lint (fixture lint), header (# tdc: directives), names (target names),
values and graphs (encodings), normalize (text), backend (the recording backend),
graph_breaks (the graph_breaks log), mutation (in-place detection), child (one run),
server (the fork server), golden (assembly and schema), record / check / freshness (the
commands), cli.
"""
