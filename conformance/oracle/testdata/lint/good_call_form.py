# tdc: profiles all
# A well-formed fixture: call form, deterministic inputs, results named out*.
import torch


def fn(x):
    return torch.relu(x) + 1


x = torch.linspace(-1.0, 1.0, 4)
out = torch.compile(fn, backend=backend, fullgraph=False, dynamic=False)(x)
out_2 = x * 2
outer = 3  # not a result, and not an error
