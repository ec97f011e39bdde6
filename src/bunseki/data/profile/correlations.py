"""Pearson and Spearman correlations between numeric columns, strongest first."""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cached_property
from typing import Final

import numpy as np

from bunseki.data.profile.arrays import Bools, Floats, _dot
from bunseki.data.profile.common import _finite
from bunseki.data.profile.order import _Order
from bunseki.domain.profiles import MAX_CORRELATION_PAIRS, Correlation

_PEARSON_BLOCK: Final = 65_536  # rows at a time, so the centred copy stays small however long the table


@dataclass(frozen=True, eq=False)
class _Ranked:
    """A numeric column kept for correlations: its values, their mean and their one sort."""

    values: Floats
    order: _Order
    mean: float

    @property
    def complete(self) -> bool:
        return self.order.filled == len(self.values)

    def warm(self) -> None:
        """Compute what correlations will read: which rows have a value, and the ranks."""
        _ = self.present, self.ranks

    @cached_property
    def present(self) -> Bools:
        return ~np.isnan(self.values)

    @cached_property
    def ranks(self) -> Floats:
        return self.order.ranks(len(self.values))


def _correlations(columns: dict[str, _Ranked], pool: Executor) -> list[Correlation]:
    """Pearson for every pair at once, then Spearman for the strongest `MAX_CORRELATION_PAIRS`.

    Spearman for pairs of complete columns comes from one product of their ranks; pairs with
    missing values are re-ranked on the pool. When every pair will be kept anyway, those start
    at once, while Pearson is being computed.
    """
    names = list(columns)
    if len(names) < 2:
        return []
    first, second = np.triu_indices(len(names), k=1)
    pairs = [(int(a), int(b)) for a, b in zip(first, second, strict=True)]

    def complete(pair: tuple[int, int]) -> bool:
        return columns[names[pair[0]]].complete and columns[names[pair[1]]].complete

    def spearman(pair: tuple[int, int]) -> float:
        return _spearman(columns[names[pair[0]]], columns[names[pair[1]]])

    every_pair_kept = len(pairs) <= MAX_CORRELATION_PAIRS
    started = {pair: pool.submit(spearman, pair) for pair in pairs if every_pair_kept and not complete(pair)}
    pearson = _pearson_matrix([columns[name] for name in names])
    strength = np.abs(np.nan_to_num(pearson[first, second], nan=-1.0))
    kept = [pairs[at] for at in np.argsort(-strength, kind="stable")[:MAX_CORRELATION_PAIRS]]
    started |= {pair: pool.submit(spearman, pair) for pair in kept if not complete(pair) and pair not in started}
    ranked = sorted({at for pair in kept if complete(pair) for at in pair})
    block = _rank_products([columns[names[at]] for at in ranked])
    where = {at: place for place, at in enumerate(ranked)}
    correlations = []
    for a, b in kept:
        rank_coefficient = block[where[a], where[b]] if complete((a, b)) else started[a, b].result()
        linear, monotonic = _finite(pearson[a, b]), _finite(rank_coefficient)
        if linear is not None and monotonic is not None:
            correlations.append(Correlation(a=names[a], b=names[b], pearson=linear, spearman=monotonic))
    return correlations


def _pearson_matrix(columns: list[_Ranked]) -> Floats:
    """Pairwise-complete Pearson coefficients (as pandas' corr), from matrix products over blocks of rows.

    Missing values count as 0 in the products, so they sum over the rows both columns have. The
    other sums a pair needs start from each column's totals; for a column with missing values,
    what the other columns hold on its missing rows (usually few) is taken off again.
    """
    rows, width = len(columns[0].values), len(columns)
    products = np.zeros((width, width))
    totals = np.zeros(width)
    lost_sums = np.zeros((width, width))  # [a, b]: the sum of a over the rows where b has no value
    lost_squares = np.zeros((width, width))
    lost_counts = np.zeros((width, width))  # [a, b]: rows where a has a value and b has none
    gaps = [at for at, column in enumerate(columns) if not column.complete]
    for start in range(0, rows, _PEARSON_BLOCK):
        block = slice(start, start + _PEARSON_BLOCK)
        centred = np.empty((len(columns[0].values[block]), width), order="F")
        for at, column in enumerate(columns):  # centring first keeps the sums accurate; r is shift-invariant
            np.subtract(column.values[block], column.mean, out=centred[:, at])
            if not column.complete:
                centred[~column.present[block], at] = 0.0
        products += centred.T @ centred
        totals += centred.sum(axis=0)
        for at in gaps:
            missing = np.flatnonzero(~columns[at].present[block])
            lost = centred[missing]
            lost_sums[:, at] += lost.sum(axis=0)
            lost_squares[:, at] += np.einsum("ij,ij->j", lost, lost)
            lost_counts[:, at] += [np.count_nonzero(other.present[block][missing]) for other in columns]
    if not gaps:
        return _normalised(products)
    filled = np.array([column.order.filled for column in columns], dtype="float64")
    # [a, b]: over the rows where b has a value (and a too: a is 0 where it has none)
    counts = filled[:, None] - lost_counts
    sums = totals[:, None] - lost_sums
    squares = np.diag(products)[:, None] - lost_squares
    with np.errstate(divide="ignore", invalid="ignore"):
        covariance = products - sums * sums.T / counts
        variance = squares - sums * sums / counts  # [a, b]: a's, over the rows where b has a value
        return np.asarray(covariance / np.sqrt(variance * variance.T), dtype="float64")


def _rank_products(columns: list[_Ranked]) -> Floats:
    """Spearman coefficients of complete columns: Pearson's of their ranks, from products over blocks of rows."""
    if not columns:
        return np.empty((0, 0))
    rows, width = len(columns[0].values), len(columns)
    products = np.zeros((width, width))
    for start in range(0, rows, _PEARSON_BLOCK):
        block = slice(start, start + _PEARSON_BLOCK)
        centred = np.empty((len(columns[0].ranks[block]), width), order="F")
        for at, column in enumerate(columns):
            np.subtract(column.ranks[block], (rows + 1) / 2, out=centred[:, at])  # ranks 1…n average (n + 1) / 2
        products += centred.T @ centred
    return _normalised(products)


def _normalised(products: Floats) -> Floats:
    scale = np.sqrt(np.diag(products))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(products / np.outer(scale, scale), dtype="float64")


def _spearman(a: _Ranked, b: _Ranked) -> float:
    """Pearson's coefficient of the ranks, each column ranked anew over the rows both have (as pandas).

    Both are read in b's order of values. A column that has a value on all of the rows both have
    keeps its own ranks; the other is re-ranked from its one sort, so no column is sorted again.
    """
    kept = int(np.count_nonzero(a.present & b.present))
    if kept < 2:
        return math.nan
    if kept == b.order.filled and kept != a.order.filled:
        a, b = b, a  # a keeps its ranks
    if kept == a.order.filled:
        ranks_a = a.ranks
    else:
        kept_by_a = b.present[a.order.rows]
        ranks_a = np.full(len(a.values), np.nan)
        ranks_a[a.order.rows[kept_by_a]] = a.order.ranks_of_kept(kept_by_a)
    x = ranks_a[b.order.rows]  # a's ranks in b's order of values; NaN where a has none
    kept_by_b = ~np.isnan(x)
    x = x[kept_by_b]
    y = b.order.ranks_of_kept(kept_by_b)
    centre = (kept + 1) / 2  # the mean of ranks 1…k, ties averaged or not
    x -= centre
    y -= centre
    denominator = math.sqrt(_dot(x, x) * _dot(y, y))
    return _dot(x, y) / denominator if denominator else math.nan
