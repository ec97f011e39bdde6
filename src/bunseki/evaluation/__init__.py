"""Evaluations of the analyst against public benchmarks (for internal measurement only)."""
