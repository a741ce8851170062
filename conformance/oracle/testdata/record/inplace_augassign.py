# tdc: profiles torch-2.13
# Passes the lint, but mutates a tensor in place: recording refuses it.
import torch

x = torch.ones(3)
x += 1
out = x
