# tdc: profiles all
# tdc: rules R-graph-break-call R-gb-counter R-resume-function R-graph-outputs
# Seed guide, example 5 (spec/seed-examples.md): torch._dynamo.graph_break forces a break;
# the code before and after it is still traced, so two graphs reach the backend: relu,
# then sigmoid.
import torch


def fn(x):
    x = torch.relu(x)
    torch._dynamo.graph_break("explicit break")
    x = torch.sigmoid(x)
    return x


out = torch.compile(fn, backend=backend)(torch.linspace(-2.0, 2.0, 8))
