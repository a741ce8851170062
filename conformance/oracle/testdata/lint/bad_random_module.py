# tdc: profiles all
# expect: 4:8: random generator module 'random'
# expect: 8:35: random generator 'random.random'
import random

import torch

out = torch.compile(lambda x: x + random.random(), backend=backend)(torch.ones(2))
