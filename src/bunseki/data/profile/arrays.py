"""The numpy arrays the profile computes with, and the one product it takes without BLAS."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.signedinteger[Any]]  # int32 positions where they fit: half the memory
Bools = npt.NDArray[np.bool_]
Words = npt.NDArray[np.uint64]


def _dot(x: Floats, y: Floats) -> float:
    """x · y without BLAS, whose threads would wake for each product and then spin, taking cores from ours."""
    return float(np.einsum("i,i->", x, y))
