# tdc: profiles all
# expect: 6:9: fixture binds 'backend'
import torch


def run(backend, x):
    return torch.compile(lambda y: y + 1, backend=backend)(x)


out = run(None, torch.ones(2))
