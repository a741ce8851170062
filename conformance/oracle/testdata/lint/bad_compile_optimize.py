# tdc: profiles all
# expect: 10:7: torch._dynamo.optimize: compile only with
import torch


def fn(x):
    return x + 1


out = torch._dynamo.optimize(backend)(fn)(torch.ones(2))
