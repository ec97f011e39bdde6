"""A deterministic profile of a table, computed once and vectorised (no loops over rows).

The profile is what the EDA planner and its reviewers see: rows and duplicate rows; per column
its kind, missing and distinct counts and most frequent values; for numbers the moments,
quartiles, zeros and 1.5×IQR outliers; for dates the range and the step between them; and
Pearson and Spearman correlations between numeric columns, strongest first. Its JSON field names
are an external contract (the EDA API and `bunseki eda --format json`).

The models and their bounds are `bunseki.domain.profiles`; ``table`` profiles a whole table, column by column
on threads. A column's kind is decided in ``kinds``; numbers are sorted once (``order``) and
described from that sort (``numbers``); dates, categories, booleans and text are factorized once
(``others``); what every column's profile shares is in ``common``. Duplicate rows are counted in
``duplicates`` and correlations computed in ``correlations``; ``arrays`` names the array types.
"""

from __future__ import annotations

from bunseki.data.profile.arrays import Bools, Floats, Ints, Words
from bunseki.data.profile.kinds import CATEGORY_SHARE, CATEGORY_VALUES, ID_SHARE, MIN_ID_ROWS, looks_like_id_name
from bunseki.data.profile.numbers import IQR_FENCE
from bunseki.data.profile.others import FREQUENCY_SHARE
from bunseki.data.profile.table import MAX_WORKERS, default_workers, profile_table
from bunseki.domain.profiles import (
    MAX_CORRELATION_COLUMNS,
    MAX_CORRELATION_PAIRS,
    TOP_VALUES,
    VALUE_CHARS,
    ColumnProfile,
    Correlation,
    ProfileKind,
    TableProfile,
    TopValue,
)

__all__ = [
    "CATEGORY_SHARE",
    "CATEGORY_VALUES",
    "FREQUENCY_SHARE",
    "ID_SHARE",
    "IQR_FENCE",
    "MAX_CORRELATION_COLUMNS",
    "MAX_CORRELATION_PAIRS",
    "MAX_WORKERS",
    "MIN_ID_ROWS",
    "TOP_VALUES",
    "VALUE_CHARS",
    "Bools",
    "ColumnProfile",
    "Correlation",
    "Floats",
    "Ints",
    "ProfileKind",
    "TableProfile",
    "TopValue",
    "Words",
    "default_workers",
    "looks_like_id_name",
    "profile_table",
]
