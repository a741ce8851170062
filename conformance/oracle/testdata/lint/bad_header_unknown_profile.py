# tdc: profiles torch-2.12
# expect: 1:1: tdc profiles: unknown profile 'torch-2.12'
import torch

out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
