# tdc: profiles all
# expect: 10:7: torch.compile must be written torch.compile(f, backend=backend, ...)
import torch


def fn(x):
    return x + 1


out = torch.compile(backend=backend)(fn)(torch.ones(2))
