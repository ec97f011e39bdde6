"""Age bands (年代, 年齢層, age group) of a numeric age column, when a question groups by them.

The table has 年齢 (or age); the person asks 年代別 or "by age group". The plan sees one more
category column, named as the question names it, whose values are the decades (20代, 30s); the
generated code adds that column before filtering or grouping, from the age column.
"""

from __future__ import annotations

import math
import re

from bunseki.brain.text import fold
from bunseki.data.summary import ColumnInfo, DataFrameInfo

_ASKED = re.compile(r"(?<!\d)年代|年齢層|年齢帯|\bage (?:group|bracket|band|range)s?\b", re.I)
_DECADE = re.compile(r"(?<![\d.])[1-9]0代|(?<![\d.])\b[1-9]0s\b")  # 20代, "in their 30s": one band named
_AGE = re.compile(r"^(?:age|ages|年齢|歳|年令)$|(?:^|_|\s)age$|年齢$")


def with_bands(info: DataFrameInfo, question: str) -> tuple[DataFrameInfo, list[str] | None]:
    """The summary with a band column added (and [band, age]) when the question asks for age bands."""
    asked = _ASKED.search(question)
    named = asked.group() if asked else None
    if named is None and (decade := _DECADE.search(question)):
        named = "age group" if decade.group().isascii() else "年代"
    if named is None or any(column.name == named for column in info.column_info):
        return info, None  # no bands asked, or the table has the column itself
    age = next((c for c in info.column_info if c.kind == "number" and _AGE.search(fold(c.name))), None)
    if age is None:
        return info, None
    name = "age group" if named.isascii() else named
    return add(info, name, age.name), [name, age.name]


def add(info: DataFrameInfo, band: str, age: str) -> DataFrameInfo:
    """``info`` with the band column ``band`` of the age column ``age``."""
    source = next(c for c in info.column_info if c.name == age)
    low, high = source.minimum, source.maximum
    decades = (
        _decades(float(low), float(high)) if isinstance(low, int | float) and isinstance(high, int | float) else []
    )
    labels = [label(decade, band.isascii()) for decade in decades]
    column = ColumnInfo(
        name=band, dtype="object", kind="category", missing=source.missing, unique=len(labels), values=labels
    )
    return info.model_copy(
        update={
            "column_info": [*info.column_info, column],
            "columns": [*info.columns, band],
            "dtypes": {**info.dtypes, band: "object"},
        }
    )


def label(decade: int, english: bool) -> str:
    if decade < 10:
        return "under 10" if english else "10歳未満"
    return f"{decade}s" if english else f"{decade}代"


def code(band: str, age: str) -> str:
    """The line that adds the band column in the generated code."""
    english = band.isascii()
    return (
        f"data = data.assign(**{{{band!r}: (pd.to_numeric(data[{age!r}], errors='coerce') // 10 * 10).map("
        f"lambda d: None if pd.isna(d) else ({'under 10' if english else '10歳未満'!r} if d < 10 else "
        f"f'{{int(d)}}{'s' if english else '代'}'))}})"
    )


def _decades(low: float, high: float) -> list[int]:
    if math.isnan(low) or math.isnan(high):
        return []
    return list(range(int(low // 10 * 10), int(high // 10 * 10) + 10, 10))[:20]
