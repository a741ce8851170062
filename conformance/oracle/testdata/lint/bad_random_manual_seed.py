# tdc: profiles all
# expect: 5:1: random generator 'torch.manual_seed'
import torch

torch.manual_seed(0)
out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
