"""Tests of the oracle, run by ctest (conformance/CMakeLists.txt, label python)."""
