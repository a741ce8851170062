# tdc: profiles all
# expect: 5:1: tdc directive after code: the header comes first
import torch

# tdc: rules R-late
out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
