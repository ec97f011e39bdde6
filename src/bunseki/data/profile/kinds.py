"""A column's kind: numeric, categorical, datetime, boolean, free text or identifiers."""

from __future__ import annotations

import re
from typing import Final

import pandas as pd

from bunseki.data.profile.arrays import Floats
from bunseki.data.profile.order import _Order
from bunseki.domain.profiles import ProfileKind

CATEGORY_VALUES: Final = 50  # text with at most this many distinct values is categorical
CATEGORY_SHARE: Final = 0.5  # … as is text whose values repeat on average (distinct ≤ half the filled)
MIN_ID_ROWS: Final = 20  # fewer rows than this are too few to call unique values identifiers
ID_SHARE: Final = 0.95  # identifiers are distinct in at least this share of the filled rows
_ID_NAME: Final = re.compile(r"(?i)(?:^|[^a-z])(?:id|code|no|key|uuid)$|(?:ID|Id)$|番号$|コード$|ＩＤ$")
_CODE_VALUE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-./:#]{0,39}")
_CODE_SAMPLE: Final = 1000  # unique text values checked for looking like codes


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
