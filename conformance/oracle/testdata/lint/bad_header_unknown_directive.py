# tdc: profiles all
# tdc: owner someone
# expect: 2:1: unknown tdc directive 'owner'
import torch

out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
