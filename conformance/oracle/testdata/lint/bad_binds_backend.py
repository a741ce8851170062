# tdc: profiles all
# expect: 5:1: fixture binds 'backend'
import torch

backend = "eager"
out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
