# tdc: profiles torch-2.13
# The aot_eager outcome (tests/test_recording.py): AOT autograd traces an allowed
# function's body with torch.compiler.is_compiling() True, so under torch's aot_eager the
# program gets 3 * x where the Dynamo graph, run as it is, calls the body eagerly (False)
# and gets x + x. The counts are the recorder's in both runs.
import torch


def body(x):
    if torch.compiler.is_compiling():
        return x * 3
    return x + x


torch._dynamo.allow_in_graph(body)


def fn(x):
    return body(x)


out = torch.compile(fn, backend=backend)(torch.tensor([1.0, 2.0]))
out_counts = (backend.frame_count, backend.op_count)
