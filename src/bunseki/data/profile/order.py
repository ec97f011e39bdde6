"""The one sort of a numeric column.

Each numeric column is sorted once; quartiles, distinct values, frequent values, outliers and
ranks all come from that one sort.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Final

import numpy as np
import numpy.typing as npt
import pandas as pd

from bunseki.data.profile.arrays import Bools, Floats, Ints

_INT32_ROWS: Final = 2**31 - 1
_KEY_SPAN: Final = 65535  # whole numbers within this span sort as 16-bit keys


@dataclass(frozen=True, eq=False)
class _Order:
    """A numeric column's filled values in ascending order: the rows they are in, and where ties start."""

    rows: Ints  # row positions of the filled values, in ascending order of value
    starts: Ints  # positions in that order where a new distinct value starts

    @property
    def filled(self) -> int:
        return len(self.rows)

    @property
    def distinct(self) -> int:
        return len(self.starts)

    def run_lengths(self) -> Ints:
        return np.diff(np.append(self.starts, self.filled))

    def sorted_ranks(self) -> Floats:
        """The average rank (1-based, ties share their mean) of each value, in ascending order."""
        starts, lengths, positions = self.ties
        if positions is None:  # mostly ties: value by value
            lengths = self.run_lengths()
            return np.repeat(self.starts + (lengths + 1) / 2, lengths)
        ranks = np.arange(1, self.filled + 1, dtype="float64")  # by position, then the runs of ties
        ranks[positions] = np.repeat(starts + (lengths + 1) / 2, lengths)
        return ranks

    def ranks(self, rows: int) -> Floats:
        """Per row, the average rank of its value; NaN where it is missing."""
        ranks = np.full(rows, np.nan)
        ranks[self.rows] = self.sorted_ranks()
        return ranks

    def ranks_of_kept(self, kept: Bools) -> Floats:
        """The ranks of the values that ``kept`` (in ascending order) keeps, among those alone."""
        if self.distinct == self.filled:  # no ties: the ranks are the positions
            return np.arange(1, np.count_nonzero(kept) + 1, dtype="float64")
        starts, lengths, positions = self.ties
        if positions is None:  # mostly ties: rank value by value
            kept_per_value = np.add.reduceat(kept, self.starts, dtype="int64")
            before = np.cumsum(kept_per_value) - kept_per_value
            present = kept_per_value > 0
            average = before[present] + (kept_per_value[present] + 1) / 2
            return np.repeat(average, kept_per_value[present])
        # few ties: rank by position, then give each run of ties the mean of the ranks it spans
        counted = np.cumsum(kept)
        ranks = counted.astype("float64")
        before = np.where(starts > 0, counted[np.maximum(starts - 1, 0)], 0)
        ranks[positions] = np.repeat((before + 1 + counted[starts + lengths - 1]) / 2, lengths)
        return ranks[kept]

    @cached_property
    def ties(self) -> tuple[Ints, Ints, Ints | None]:
        """Where runs of two or more equal values start, how long they are, and every position in them.

        The positions are None when most values are tied: then ranking goes value by value.
        """
        lengths = self.run_lengths()
        tied = lengths > 1
        starts, lengths = self.starts[tied], lengths[tied]
        total = int(lengths.sum())
        if 2 * total > self.filled:
            return starts, lengths, None
        offsets = np.cumsum(lengths) - lengths
        return starts, lengths, np.repeat(starts - offsets, lengths) + np.arange(total)


def _sort(column: pd.Series, values: Floats) -> tuple[_Order, Floats]:
    """The column's order of values, and its filled values in that order."""
    missing = np.isnan(values)
    keys = _small_integer_keys(values, missing, pd.api.types.is_integer_dtype(column.dtype))
    # numpy radix-sorts 16-bit keys (stable), several times faster than it sorts 64-bit numbers
    order = np.argsort(values) if keys is None else np.argsort(keys, kind="stable")  # missing values last
    filled = len(values) - int(np.count_nonzero(missing))
    order = order[:filled]
    ordered = values[order]
    change = np.empty(filled, dtype=bool)
    if filled:
        change[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=change[1:])
    return _Order(_positions(order), _positions(np.flatnonzero(change))), ordered


def _positions(positions: Ints) -> Ints:
    return positions.astype("int32") if len(positions) < _INT32_ROWS else positions


def _small_integer_keys(values: Floats, missing: Bools, integral: bool) -> npt.NDArray[np.uint16] | None:
    """Whole numbers spanning fewer than 65,535 values as 16-bit keys (missing: the largest); else None."""
    if missing.all():
        return None
    with np.errstate(invalid="ignore"):  # infinities
        low, high = np.nanmin(values), np.nanmax(values)
        if not high - low < _KEY_SPAN:
            return None
        if not integral and not bool((np.floor(values) == values)[~missing].all()):
            return None
        return np.where(missing, _KEY_SPAN, values - low).astype("uint16")
