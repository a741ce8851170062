# tdc: profiles all
# expect: 6:2: torch.compile used other than as
import torch


@torch.compile
def fn(x):
    return x + 1


out = fn(torch.ones(2))
