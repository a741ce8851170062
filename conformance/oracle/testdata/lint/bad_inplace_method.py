# tdc: profiles all
# expect: 7:5: in-place tensor method 'add_'
import torch


def fn(x):
    x.add_(1)
    return x


out = torch.compile(fn, backend=backend)(torch.ones(2))
