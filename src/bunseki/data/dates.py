"""Dates written in several ways in one column: 2024-01-05, 2024/03/07, March 4 2024, 05.01.2024.

Each known way of writing a date is a pattern and an explicit pandas format; the values that
match a pattern are parsed with its format, whole columns at a time (no per-value guessing by
dateutil). Day and month written as numbers (05/01/2024) are ambiguous: the column is read
day-first if some first number is above 12, month-first if some second number is, and
month-first (with a note saying so) when no value tells them apart. A column with values that
read both ways is not taken for dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

import pandas as pd

from bunseki.data.notes import LoadNote, shown

DATE_SHARE: Final = 0.95
_SAMPLE: Final = 200
MAX_CHARS: Final = 40

Order = Literal["day-first", "month-first"]
_NUMERIC_DMY: Final = r"([0-9]{1,2})[/.\-]([0-9]{1,2})[/.\-]([0-9]{4})"
_MONTH_NAME: Final = r"[A-Za-z]{3,9}\.?"


@dataclass(frozen=True)
class _Style:
    pattern: str
    formats: tuple[str, ...]  # tried in turn on the values that match the pattern
    label: str


_STYLES: Final = (
    _Style(
        r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[T ][0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?)?",
        ("ISO8601",),
        "2024-01-05",
    ),
    _Style(r"[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}", ("%Y/%m/%d",), "2024/01/05"),
    _Style(
        r"[0-9]{4}/[0-9]{1,2}/[0-9]{1,2} [0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?",
        ("%Y/%m/%d %H:%M", "%Y/%m/%d %H:%M:%S"),
        "2024/01/05 10:30",
    ),
    _Style(r"[0-9]{4}\.[0-9]{1,2}\.[0-9]{1,2}", ("%Y.%m.%d",), "2024.01.05"),
    _Style(r"[0-9]{4}年[0-9]{1,2}月[0-9]{1,2}日", ("%Y年%m月%d日",), "2024年1月5日"),
    _Style(rf"{_MONTH_NAME} [0-9]{{1,2}},? [0-9]{{4}}", ("%B %d %Y", "%b %d %Y"), "March 4 2024"),
    _Style(rf"[0-9]{{1,2}} {_MONTH_NAME},? [0-9]{{4}}", ("%d %B %Y", "%d %b %Y"), "4 March 2024"),
)


@dataclass(frozen=True, eq=False)
class MixedDates:
    """A column read as dates, the ways it was written, and how day and month were told apart."""

    values: pd.Series
    styles: tuple[str, ...]
    order: Order | None  # None: no value had day and month as bare numbers
    decided: bool  # whether some value showed which number is the day


def read_mixed_dates(column: pd.Series, filled: pd.Series) -> MixedDates | None:
    """``column`` as dates when nearly all its ``filled`` values are dates written in known ways.

    ``filled`` holds the stripped, non-empty values of ``column`` (same index).
    """
    if filled.empty or not _sample_matches(filled.iloc[:_SAMPLE]):
        return None
    text = filled.where(filled.str.len() <= MAX_CHARS, "")
    parsed = pd.Series(pd.NaT, index=filled.index, dtype="datetime64[ns]")
    styles: list[str] = []
    for style in _STYLES:
        matches = text.str.fullmatch(style.pattern)
        if not matches.any():
            continue
        values = text[matches].str.replace(",", "", regex=False).str.replace(".", "", regex=False)
        if style.formats == ("%Y.%m.%d",):
            values = text[matches]
        for date_format in style.formats:
            todo = parsed[matches].isna()
            if not todo.any():
                break
            read = pd.to_datetime(values[todo[todo].index], format=date_format, errors="coerce")
            parsed.loc[read.index] = parsed.loc[read.index].fillna(read.astype("datetime64[ns]"))
        styles.append(style.label)
    order, decided = _day_month(text, parsed)
    if order is not None:
        styles.append("05/01/2024")
    if parsed.notna().sum() < DATE_SHARE * len(filled):
        return None
    return MixedDates(parsed.reindex(column.index), tuple(styles), order, decided)


def _sample_matches(sample: pd.Series) -> bool:
    """A cheap refusal: nearly all of the first values are written in some known way."""
    known = sample.str.fullmatch(_NUMERIC_DMY)
    for style in _STYLES:
        known |= sample.str.fullmatch(style.pattern)
    return bool(known.mean() >= DATE_SHARE)


def _day_month(text: pd.Series, parsed: pd.Series) -> tuple[Order | None, bool]:
    """Parse 05/01/2024-style values into ``parsed``: day-first or month-first, as the values say.

    Both readings are tried on the whole column (vectorised); a value that reads only one way
    (a number above 12) decides the order.
    """
    numeric = text.str.fullmatch(_NUMERIC_DMY)
    if not numeric.any():
        return None, False
    values = text[numeric].str.replace(r"[.\-]", "/", regex=True)
    day_first = pd.to_datetime(values, format="%d/%m/%Y", errors="coerce")
    month_first = pd.to_datetime(values, format="%m/%d/%Y", errors="coerce")
    only_day_first = bool((day_first.notna() & month_first.isna()).any())
    only_month_first = bool((month_first.notna() & day_first.isna()).any())
    if only_day_first and only_month_first:
        return None, False  # both ways in one column: not one style of dates
    order: Order = "day-first" if only_day_first else "month-first"
    read = day_first if only_day_first else month_first
    parsed.loc[read.index] = parsed.loc[read.index].fillna(read.astype("datetime64[ns]"))
    return order, only_day_first or only_month_first


def dates_note(name: str, filled: pd.Series, read: MixedDates) -> LoadNote | None:
    """Say how a column of dates was read, when that was not the obvious way (several styles, or day/month)."""
    if len(read.styles) < 2 and read.order is None:
        return None
    count = int(read.values.notna().sum())
    examples = tuple(shown(value) for value in filled.drop_duplicates().head(3))
    listed = ", ".join(f"'{value}'" for value in examples)
    ways_en = f" in {len(read.styles)} ways" if len(read.styles) > 1 else ""
    ways_ja = f"{len(read.styles)}通りの書き方の" if len(read.styles) > 1 else ""
    en = f"{name}: {count:,} values written as dates{ways_en} (e.g. {listed}) were read as dates."
    ja = f"{name}: {ways_ja}日付（例: {listed}）{count:,}件を日付として読み込みました。"
    if read.order is not None:
        how_en = "day/month/year" if read.order == "day-first" else "month/day/year"
        how_ja = "日/月/年" if read.order == "day-first" else "月/日/年"
        if read.decided:
            en += f" Dates such as 05/01/2024 were read as {how_en}, as values above 12 showed."
            ja += f" 05/01/2024 のような日付は、12を超える値があったため{how_ja}として読みました。"
        else:
            en += (
                f" Dates such as 05/01/2024 are ambiguous (no day above 12 tells day and month apart); "
                f"they were read as {how_en}."
            )
            ja += (
                " 05/01/2024 のような日付は日と月の区別がつかないため（12を超える日がない）、"
                f"{how_ja}として読みました。"
            )
    return LoadNote(kind="dates", column=name, count=count, examples=examples, en=en, ja=ja)
