# tdc: profiles all
# expect: 10:7: torch.compile must pass the injected backend
import torch


def fn(x):
    return x + 1


out = torch.compile(fn)(torch.ones(2))
