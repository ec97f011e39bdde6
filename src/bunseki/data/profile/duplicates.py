"""Duplicate rows, counted exactly from one hash per row.

Duplicate rows are found by folding every column into one 64-bit hash per row (no column is
hashed twice) and comparing exactly only the few rows whose hashes repeat.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import pandas as pd

from bunseki.data.profile.arrays import Floats, Words

_HASH_MULTIPLIER: Final = np.uint64(0x9E3779B97F4A7C15)  # odd, with well-mixed bits (golden ratio)


def _value_bits(values: Floats) -> Words:
    """Numbers as 64-bit words that are equal exactly when the numbers are (0.0 is -0.0, NaN is NaN)."""
    canonical = values + 0.0  # -0.0 + 0.0 is +0.0
    canonical[np.isnan(canonical)] = np.nan
    return canonical.view("uint64")


class _RowHash:
    """A 64-bit hash per row, folded from its values as words; equal rows always hash alike.

    Rows whose hash is unique cannot be duplicates. The few that share a hash are then compared
    exactly by pandas, so the count is exact, whatever the collisions.
    """

    def __init__(self, rows: int) -> None:
        self.hash = np.zeros(rows, dtype="uint64")

    def add(self, identity: Words) -> None:
        """Fold in one column's values as words (missing equals missing, as in pandas' duplicated)."""
        self.hash *= _HASH_MULTIPLIER  # wraps around modulo 2**64, as intended
        self.hash += identity

    def duplicates(self, frame: pd.DataFrame) -> int:
        if len(self.hash) == 0:
            return 0
        candidates = pd.Series(self.hash, copy=False).duplicated(keep=False).to_numpy()
        if not candidates.any():
            return 0
        return int(frame.iloc[np.flatnonzero(candidates)].duplicated().sum())
