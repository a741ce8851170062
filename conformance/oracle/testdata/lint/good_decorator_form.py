# tdc: profiles torch-2.13 torch-2.13-ngb
# tdc: rules R-example.label
# tdc: scenarios S5 S50a
# tdc: seed-example 5
# tdc: version-probe config.disable
# tdc: tolerance float32 rtol=1e-5 atol=1e-6
# tdc: tolerance float64 rtol=0 atol=0
# tdc: variant-of fixtures/seed/example5_graph_break.py rename
# Every directive of SCHEMA.md §2, and the decorator form.
import torch


@torch.compile(backend=backend)
def fn(x):
    return torch.sigmoid(x)


results = [fn(torch.ones(3))]
out1 = results[0]
