# tdc: rules R-example
# expect: 1:1: missing '# tdc: profiles ...' directive (required)
import torch

out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
