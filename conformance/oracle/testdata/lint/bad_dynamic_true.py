# tdc: profiles all
# expect: 10:42: torch.compile with dynamic other than False/None
import torch


def fn(x):
    return x + 1


out = torch.compile(fn, backend=backend, dynamic=True)(torch.ones(2))
