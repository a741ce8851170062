# tdc: profiles all
# expect: 10:42: random generator 'torch.randn'
import torch


def fn(x):
    return x + 1


out = torch.compile(fn, backend=backend)(torch.randn(4))
