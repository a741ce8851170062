# tdc: profiles torch-2.13
# The recording smoke test (tests/test_recording.py): a graph break between relu and
# sigmoid gives two backend invocations, fn's graph (torch.relu) and the resume
# function's (torch.sigmoid); under TORCHDYNAMO_DISABLE=1 torch.compile returns fn.
import torch


def fn(x):
    x = torch.relu(x)
    torch._dynamo.graph_break()
    x = torch.sigmoid(x)
    return x


compiled = torch.compile(fn, backend=backend)
out_same_function = compiled is fn
out = compiled(torch.linspace(-2.0, 2.0, 8))
out_counts = (backend.frame_count, backend.op_count)
