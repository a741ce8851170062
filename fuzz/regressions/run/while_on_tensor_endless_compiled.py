# tdc: profiles all
# tdc: rules R-data-dependent-branch
# tdc: variant-of fixtures/data_dependent/while_on_tensor.py wrap
# Written by ci/variants from fixtures/data_dependent/while_on_tensor.py (wrap); do not edit: re-run ci/variants.
import torch

def fn_tdc_inner(x):
    y = x * 1
    while y.sum() < 6:
        y = y + 0
    return y.sin() + x

def fn(*args, **kwargs):
    return fn_tdc_inner(*args, **kwargs)
out = torch.compile(fn, backend=backend)(torch.linspace(-1.0, 2.0, 3))
out2 = torch.compile(fn, backend=backend)(torch.linspace(2.0, 3.0, 3))
