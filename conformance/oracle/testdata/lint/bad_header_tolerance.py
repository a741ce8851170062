# tdc: profiles all
# tdc: tolerance int64 rtol=1 atol=1
# expect: 2:1: tdc tolerance: 'int64' is not a floating dtype
import torch

out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
