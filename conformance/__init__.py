"""tdconform's conformance harness; the oracle (real torch) lives in ``oracle``."""
