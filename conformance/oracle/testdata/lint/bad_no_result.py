# tdc: profiles all
# expect: 1:1: no result: bind at least one module-level name
import torch


def fn(x):
    out = x + 1  # a local, not a module-level result
    return out


output = torch.compile(fn, backend=backend)(torch.ones(2))
