"""A deterministic profile of a table, computed once and vectorised (no loops over rows).

The profile is what the EDA planner and its reviewers see: rows and duplicate rows; per column
its kind, missing and distinct counts and most frequent values; for numbers the moments,
quartiles, zeros and 1.5×IQR outliers; for dates the range and the step between them; and
Pearson and Spearman correlations between numeric columns, strongest first. Its JSON field names
are an external contract (the EDA API and `bunseki eda --format json`).

Each numeric column is sorted once; quartiles, distinct values, frequent values, outliers and
ranks all come from that one sort. Other columns are factorized once. Duplicate rows are found by
folding every column into one 64-bit hash per row (no column is hashed twice) and comparing
exactly only the few rows whose hashes repeat. The size of the profile is bounded however wide
the table: a few frequent values per column, each cut short, and at most `MAX_CORRELATION_PAIRS`
pairs among `MAX_CORRELATION_COLUMNS` columns.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

ProfileKind = Literal["numeric", "categorical", "datetime", "boolean", "text", "id"]
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.signedinteger[Any]]  # int32 positions where they fit: half the memory
Bools = npt.NDArray[np.bool_]
Words = npt.NDArray[np.uint64]

TOP_VALUES: Final = 5
VALUE_CHARS: Final = 40
MAX_CORRELATION_COLUMNS: Final = 50  # 1,225 pairs at most are computed …
MAX_CORRELATION_PAIRS: Final = 100  # … and the strongest of them kept
CATEGORY_VALUES: Final = 50  # text with at most this many distinct values is categorical
CATEGORY_SHARE: Final = 0.5  # … as is text whose values repeat on average (distinct ≤ half the filled)
IQR_FENCE: Final = 1.5
MIN_ID_ROWS: Final = 20  # fewer rows than this are too few to call unique values identifiers
ID_SHARE: Final = 0.95  # identifiers are distinct in at least this share of the filled rows
FREQUENCY_SHARE: Final = 0.5  # dates have a frequency when at least this share of steps is the same
_ID_NAME: Final = re.compile(r"(?i)(?:^|[^a-z])(?:id|code|no|key|uuid)$|(?:ID|Id)$|番号$|コード$|ＩＤ$")
_CODE_VALUE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-./:#]{0,39}")
_FREQUENCY_SAMPLE: Final = 10_000  # distinct dates pandas infers a frequency from
_CODE_SAMPLE: Final = 1000  # unique text values checked for looking like codes
MAX_WORKERS: Final = 4
_INT32_ROWS: Final = 2**31 - 1
_PEARSON_BLOCK: Final = 65_536  # rows at a time, so the centred copy stays small however long the table
_KEY_SPAN: Final = 65535  # whole numbers within this span sort as 16-bit keys
_HASH_MULTIPLIER: Final = np.uint64(0x9E3779B97F4A7C15)  # odd, with well-mixed bits (golden ratio)


class TopValue(BaseModel):
    """One of a column's most frequent values, as text cut to `VALUE_CHARS`, and how often it occurs."""

    model_config = ConfigDict(frozen=True)

    value: str
    count: int


class ColumnProfile(BaseModel):
    """Facts about one column; the numeric ones are None for other kinds, and so on."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: ProfileKind
    dtype: str
    missing: int
    missing_pct: float = Field(description="Missing values as a percentage of the rows, 0-100.")
    distinct: int = Field(description="Distinct values, missing not counted.")
    top_values: list[TopValue] = Field(default_factory=list, description=f"At most {TOP_VALUES}, most frequent first.")
    mean: float | None = None
    std: float | None = Field(default=None, description="Sample standard deviation (n - 1).")
    min: float | str | None = Field(default=None, description="A number, or an ISO date for dates.")
    p25: float | None = None
    median: float | None = None
    p75: float | None = None
    max: float | str | None = Field(default=None, description="A number, or an ISO date for dates.")
    skew: float | None = Field(default=None, description="Adjusted Fisher-Pearson skewness, as pandas computes it.")
    zeros: int | None = None
    outliers: int | None = Field(default=None, description="Values beyond 1.5×IQR below Q1 or above Q3.")
    frequency: str | None = Field(
        default=None, description="Dates: the pandas frequency of their steps (D, h, MS…), None when irregular."
    )


class Correlation(BaseModel):
    """The correlation of two numeric columns over the rows where both have a value."""

    model_config = ConfigDict(frozen=True)

    a: str
    b: str
    pearson: float
    spearman: float


class TableProfile(BaseModel):
    """The profile of a whole table: the JSON shape is a contract, so fields are only ever added."""

    model_config = ConfigDict(frozen=True)

    rows: int
    duplicates: int = Field(description="Rows that repeat an earlier row exactly (pandas' duplicated()).")
    columns: list[ColumnProfile]
    correlations: list[Correlation] = Field(
        default_factory=list, description=f"Strongest |Pearson| first; at most {MAX_CORRELATION_PAIRS}."
    )
    uncorrelated_columns: int = Field(
        default=0, description=f"Numeric columns left out of correlations beyond the first {MAX_CORRELATION_COLUMNS}."
    )

    def column(self, name: str) -> ColumnProfile | None:
        return next((column for column in self.columns if column.name == name), None)


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


def _value_bits(values: Floats) -> Words:
    """Numbers as 64-bit words that are equal exactly when the numbers are (0.0 is -0.0, NaN is NaN)."""
    canonical = values + 0.0  # -0.0 + 0.0 is +0.0
    canonical[np.isnan(canonical)] = np.nan
    return canonical.view("uint64")


# Kinds ------------------------------------------------------------------------------------------


def _is_number(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def looks_like_id_name(name: str) -> bool:
    """Whether a column's name says it holds identifiers (customer_id, 顧客ID, 会員番号, 商品コード…)."""
    return _ID_NAME.search(name.strip()) is not None


def _text_kind(name: str, uniques: pd.Index, filled: int) -> ProfileKind:
    """Categorical, free text or identifiers, for a column of text (or other objects)."""
    distinct = len(uniques)
    if _nearly_unique(distinct, filled):
        if looks_like_id_name(name):
            return "id"
        sample = pd.Series(uniques[:_CODE_SAMPLE], dtype="str")
        if sample.str.fullmatch(_CODE_VALUE.pattern).all():
            return "id"
    if distinct <= CATEGORY_VALUES or distinct <= CATEGORY_SHARE * filled:
        return "categorical"
    return "text"


def _number_kind(name: str, order: _Order, ordered: Floats, integral: bool) -> ProfileKind:
    """Numbers are numeric, unless they are (nearly) unique integers named like identifiers or counting rows."""
    filled = order.filled
    if not integral or not _nearly_unique(order.distinct, filled):
        return "numeric"
    consecutive = order.distinct == filled and ordered[-1] - ordered[0] == filled - 1  # 1, 2 … n
    return "id" if looks_like_id_name(name) or consecutive else "numeric"


def _nearly_unique(distinct: int, filled: int) -> bool:
    """Whether values are unique but for a few repeats (duplicated rows repeat identifiers too)."""
    return filled >= MIN_ID_ROWS and distinct >= ID_SHARE * filled


# Numbers ----------------------------------------------------------------------------------------


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


def _numeric_profile(name: str, column: pd.Series, order: _Order, values: Floats, rows: int) -> ColumnProfile:
    filled = len(values)
    integral = pd.api.types.is_integer_dtype(column)
    kind = _number_kind(name, order, values, integral)
    facts: dict[str, Any] = {}
    if filled and kind == "numeric":
        with np.errstate(invalid="ignore", over="ignore"):  # infinities make NaN (reported as None), not noise
            q1, median, q3 = (_quantile(values, share) for share in (0.25, 0.5, 0.75))
            spread = q3 - q1
            low = np.searchsorted(values, q1 - IQR_FENCE * spread, side="left")
            high = filled - np.searchsorted(values, q3 + IQR_FENCE * spread, side="right")
            zeros = np.searchsorted(values, 0.0, side="right") - np.searchsorted(values, 0.0, side="left")
            mean, std, skew = _moments(values)
        facts = {
            "mean": mean,
            "std": std,
            "min": _finite(values[0]),
            "p25": _finite(q1),
            "median": _finite(median),
            "p75": _finite(q3),
            "max": _finite(values[-1]),
            "skew": skew,
            "zeros": int(zeros),
            "outliers": int(low + high),
        }
    elif filled:  # identifiers: their range, not their moments
        facts = {"min": _finite(values[0]), "max": _finite(values[-1])}
    lengths = order.run_lengths()
    top = _top_positions(lengths)
    top_values = [
        TopValue(value=_show_number(values[order.starts[at]], integral), count=int(lengths[at])) for at in top
    ]
    return _column(name, kind, column, rows - filled, rows, order.distinct, top_values, facts)


def _quantile(ordered: Floats, share: float) -> float:
    """The ``share`` quantile of sorted values, interpolated linearly (pandas' and numpy's default)."""
    position = (len(ordered) - 1) * share
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * fraction)


def _moments(values: Floats) -> tuple[float | None, float | None, float | None]:
    """Mean, sample standard deviation and adjusted skewness, by pandas' formulas."""
    count = len(values)
    mean = float(values.mean())
    centred = values - mean
    squares = centred * centred
    m2 = float(squares.sum())
    m3 = _dot(squares, centred)
    std = math.sqrt(m2 / (count - 1)) if count > 1 else None
    if count < 3:
        skew = None
    elif m2 <= 1e-14 * max(1.0, mean * mean) * count:  # constant, up to rounding: pandas says 0
        skew = 0.0
    else:
        skew = (count * (count - 1) ** 0.5 / (count - 2)) * (m3 / m2**1.5)
    return _finite(mean), _finite(std), _finite(skew)


# Other kinds ------------------------------------------------------------------------------------


def _other_profile(name: str, column: pd.Series, codes: npt.NDArray[Any], uniques: Any, rows: int) -> ColumnProfile:
    present = codes[codes >= 0]
    filled = len(present)
    counts = np.bincount(present, minlength=len(uniques)).astype("int64")
    index = pd.Index(uniques)
    if pd.api.types.is_bool_dtype(column):
        kind: ProfileKind = "boolean"
    elif pd.api.types.is_datetime64_any_dtype(column):
        kind = "datetime"
    elif isinstance(column.dtype, pd.CategoricalDtype):
        kind = "categorical"
    else:
        kind = _text_kind(name, index, filled)
    facts: dict[str, Any] = {}
    if kind == "datetime" and len(index):
        dates = _sorted_dates(pd.DatetimeIndex(index))
        facts = {"min": _iso(dates[0]), "max": _iso(dates[-1]), "frequency": _frequency(dates)}
    top_values = [TopValue(value=_show(index[at]), count=int(counts[at])) for at in _top_positions(counts)]
    return _column(name, kind, column, rows - filled, rows, len(index), top_values, facts)


def _sorted_dates(dates: pd.DatetimeIndex) -> pd.DatetimeIndex:
    """Distinct dates in ascending order, sorted as integers (NaT is never a distinct value)."""
    stamps = np.sort(dates.asi8).view(f"M8[{dates.unit}]")  # UTC for dates with a time zone
    return pd.DatetimeIndex(stamps) if dates.tz is None else pd.DatetimeIndex(stamps, tz="UTC").tz_convert(dates.tz)


def _frequency(dates: pd.DatetimeIndex) -> str | None:
    """The regular step between the first distinct dates, or the step most of them take; None if irregular."""
    if len(dates) < 3:
        return None
    regular = pd.DatetimeIndex(dates[:_FREQUENCY_SAMPLE], freq="infer").freq  # pandas' infer_freq
    if regular is not None:
        return regular.freqstr
    if _at_midnight(dates[:_FREQUENCY_SAMPLE]) and _at_midnight(dates):  # the sample refuses cheaply
        if bool((dates.day == 1).all()):
            return "YS" if bool((dates.month == 1).all()) else "MS"
        if bool(dates.is_month_end.all()):
            return "ME"
    steps = np.diff(dates.asi8)
    codes, uniques = pd.factorize(steps)
    counts = np.bincount(codes)
    if counts.max() < FREQUENCY_SHARE * len(steps):
        return None
    step = pd.Timedelta(int(uniques[counts.argmax()]), unit=dates.unit)
    days, rest = divmod(step, pd.Timedelta(days=1))
    if days and not rest:  # pandas would write a day as "24h"
        return "D" if days == 1 else f"{days}D"
    return pd.tseries.frequencies.to_offset(step).freqstr


def _at_midnight(dates: pd.DatetimeIndex) -> bool:
    return bool((dates == dates.normalize()).all())


# Shared -----------------------------------------------------------------------------------------


def _column(
    name: str,
    kind: ProfileKind,
    column: pd.Series,
    missing: int,
    rows: int,
    distinct: int,
    top_values: list[TopValue],
    facts: dict[str, Any],
) -> ColumnProfile:
    return ColumnProfile(
        name=name,
        kind=kind,
        dtype=str(column.dtype),
        missing=missing,
        missing_pct=round(100 * missing / rows, 4) if rows else 0.0,
        distinct=distinct,
        top_values=top_values,
        **facts,
    )


def _top_positions(counts: Ints) -> list[int]:
    """Positions of the largest counts, largest first; which of equal counts make the cut is up to numpy."""
    if len(counts) > TOP_VALUES and counts.max() == 1:  # all values unique: any five are the top five
        return list(range(TOP_VALUES))
    if len(counts) > TOP_VALUES:
        candidates = np.argpartition(-counts, TOP_VALUES - 1)[:TOP_VALUES]
    else:
        candidates = np.arange(len(counts))
    ranked = sorted(candidates.tolist(), key=lambda at: (-counts[at], at))
    return ranked[:TOP_VALUES]


def _finite(value: float | np.floating[Any] | None) -> float | None:
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _show_number(value: float, integral: bool) -> str:
    return str(int(value)) if integral or (float(value).is_integer() and abs(value) < 1e15) else repr(float(value))


def _show(value: object) -> str:
    text = _iso(value) if isinstance(value, pd.Timestamp) else str(value)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def _iso(value: Any) -> str:
    """ISO date, with the time only when there is one."""
    stamp = pd.Timestamp(value)
    return stamp.date().isoformat() if stamp == stamp.normalize() else stamp.isoformat()


# Duplicate rows ---------------------------------------------------------------------------------


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


# Correlations -----------------------------------------------------------------------------------


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


def _dot(x: Floats, y: Floats) -> float:
    """x · y without BLAS, whose threads would wake for each product and then spin, taking cores from ours."""
    return float(np.einsum("i,i->", x, y))
