# tdc: profiles torch-2.13
# An uncaught exception ends the program; the results bound before it are kept.
import torch

out_before = torch.arange(1.0, 4.0)
out_list = [1, 2.5, "s", None]
raise RuntimeError("stopped here")
