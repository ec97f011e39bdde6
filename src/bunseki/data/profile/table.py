"""The profile of a whole table: its columns profiled on threads, then duplicate rows and correlations."""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd

from bunseki.data.profile.arrays import Floats, Words
from bunseki.data.profile.correlations import _correlations, _Ranked
from bunseki.data.profile.duplicates import _RowHash, _value_bits
from bunseki.data.profile.kinds import _is_number
from bunseki.data.profile.numbers import _numeric_profile
from bunseki.data.profile.order import _sort
from bunseki.data.profile.others import _other_profile
from bunseki.domain.profiles import MAX_CORRELATION_COLUMNS, ColumnProfile, TableProfile

MAX_WORKERS: Final = 4


def profile_table(frame: pd.DataFrame, *, workers: int | None = None) -> TableProfile:
    """The profile of ``frame``: every statistic computed once, column by column, without row loops.

    Columns are profiled on ``workers`` threads (default: one per core, at most `MAX_WORKERS`);
    numpy, pandas and Arrow release the GIL while they sort and hash, so threads share the work.
    """
    rows = len(frame.index)
    threads = workers if workers is not None else default_workers()
    row_hash = _RowHash(rows)
    columns: list[ColumnProfile] = []
    ranked: dict[str, _Ranked] = {}
    numeric_seen = 0
    names = [str(label) for label in frame.columns]
    series = [frame.iloc[:, position] for position in range(len(names))]
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        # map() yields in column order and lets go of each result once read: identities do not pile up.
        for result in pool.map(_profile_column, names, series, itertools.repeat(rows)):
            row_hash.add(result.identity)
            columns.append(result.profile)
            if result.ranked is not None:
                numeric_seen += 1
                if len(ranked) < MAX_CORRELATION_COLUMNS:
                    ranked[result.profile.name] = result.ranked
        correlations = _correlations(ranked, pool)
    return TableProfile(
        rows=rows,
        duplicates=row_hash.duplicates(frame),
        columns=columns,
        correlations=correlations,
        uncorrelated_columns=numeric_seen - len(ranked),
    )


def default_workers() -> int:
    """One thread per core this process may run on, at most `MAX_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


@dataclass(frozen=True, eq=False)
class _ColumnResult:
    profile: ColumnProfile
    identity: Words  # per row, a word equal for equal values (missing too), for finding duplicate rows
    ranked: _Ranked | None  # numeric columns that can be correlated (not constant, not identifiers)


def _profile_column(name: str, column: pd.Series, rows: int) -> _ColumnResult:
    if _is_number(column):
        values = _floats(column)
        order, ordered = _sort(column, values)
        profile = _numeric_profile(name, column, order, ordered, rows)
        correlated = profile.kind == "numeric" and order.distinct > 1
        ranked = _Ranked(values, order, profile.mean or 0.0) if correlated else None
        if ranked is not None:  # on this worker thread, rather than later on the main one
            ranked.warm()
        return _ColumnResult(profile, _value_bits(values), ranked)
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    identity = (codes + 1).astype("uint64", copy=False)  # 0 for missing
    return _ColumnResult(_other_profile(name, column, codes, uniques, rows), identity, None)


def _floats(column: pd.Series) -> Floats:
    """The column as float64 with NaN for missing: the frame's own array when it already is one."""
    if column.dtype == np.float64:
        return np.asarray(column.to_numpy(), dtype="float64")
    return column.to_numpy(dtype="float64", na_value=np.nan)
