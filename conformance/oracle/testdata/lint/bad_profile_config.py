# tdc: profiles all
# expect: 5:1: fixture sets the profile config key 'nested_graph_breaks'
import torch

torch._dynamo.config.nested_graph_breaks = True
out = torch.compile(lambda x: x + 1, backend=backend)(torch.ones(2))
