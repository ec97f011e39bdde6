"""The periods of a plan: the date window rows are filtered to, the two periods a growth compares
(the named ones, the one compared against first, or the last two complete ones for 前年比 / 前月比),
and a trend's time unit, moving-average window and running total.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pandas as pd

from bunseki.brain.analyst.offline import dates
from bunseki.brain.analyst.offline.asking import ask_date, ask_periods
from bunseki.brain.analyst.offline.plan import Clarification, Filter, Period, Plan, TimeUnit
from bunseki.brain.analyst.offline.reading import Reading
from bunseki.brain.analyst.offline.tasks import wants_smallest
from bunseki.brain.analyst.offline.vocab import CUMULATIVE, ROLLING, WINDOW_UNITS
from bunseki.data.summary import DataFrameInfo

WINDOWS = {"D": 7, "W": 4, "M": 3, "Q": 4, "Y": 3}  # a moving average's window when none is named


def over_time(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
    """Growth between two periods, or a trend by day, week, month, quarter or year."""
    if plan.task == "growth":
        plan.periods = _base_first(r) if len(r.periods) >= 2 else _previous_periods(r, info)
        plan.assumptions += [text for text in r.assumptions if text not in plan.assumptions]
        if len(plan.periods) < 2:
            return ask_periods(r)
        plan.chart = "bar"
        return plan
    window = ROLLING.search(r.lowered)
    named: TimeUnit | None = WINDOW_UNITS.get(window.group("unit") or window.group("unit_en") or "") if window else None
    unit = plan.time_unit = r.time_unit or named or _auto_unit(info, r.date_column)
    if window and unit in WINDOWS:
        given = window.group("n") or window.group("n_en")
        plan.rolling = int(given) if given and 1 < int(given) <= 366 else WINDOWS[unit]
    elif CUMULATIVE.search(r.lowered) and unit in WINDOWS:
        plan.cumulative = True
    plan.ascending = wants_smallest(r)  # 最も少なかった月: the lowest period leads the answer
    plan.group_by = r.group_by if r.group_by and r.group_by != r.date_column else None
    plan.chart = "line"
    return plan if plan.date_column is not None else ask_date(r)


_BASE_AFTER = re.compile(r"^\s*(?:の\s*)?(?:より|に比べ|と比べ|と比較|に対し|対比|の何倍|比)")


_BASE_BEFORE = re.compile(r"(?:\bthan|\bcompared (?:to|with)|\bversus|\bvs\.?|\brelative to)\s*(?:in\s+|the\s+)?$")


def _base_first(r: Reading) -> list[Period]:
    """Two periods, the one compared against first: 2015年は2012年と比べて → 2012, then 2015."""
    periods = r.periods[:2]
    spans = r.period_spans[:2]
    if len(spans) == 2:
        based = [
            bool(_BASE_AFTER.match(r.text[end : end + 8]) or _BASE_BEFORE.search(r.lowered[max(0, start - 24) : start]))
            for start, end in spans
        ]
        if based == [False, True]:
            return [periods[1], periods[0]]
    return periods


def period_filters(r: Reading) -> list[Filter]:
    if r.date_column is None:
        return []
    period = r.periods[0]
    if len(r.periods) > 1:  # several windows without a comparison: take all of them
        period = Period(
            start=min(p.start for p in r.periods),
            end=max(p.end for p in r.periods),
            label="・".join(p.label for p in r.periods),
        )
    return [Filter(column=r.date_column, op="between", value=[period.start, period.end], text=period.label)]


def _previous_periods(r: Reading, info: DataFrameInfo) -> list[Period]:
    """前年比 / 前月比 without named periods: the last complete period and the one before."""
    if r.date_column is None:
        return []
    column = info.column(r.date_column)
    if column is None or column.maximum is None:
        return []
    last = pd.Timestamp(str(column.maximum))
    first = pd.Timestamp(str(column.minimum))
    monthly = bool(re.search(r"前月比|month over month|mom", r.lowered))
    if monthly:
        end = date(last.year, last.month, 1)
        middle = (pd.Timestamp(end) - pd.DateOffset(months=1)).date()
        start = (pd.Timestamp(end) - pd.DateOffset(months=2)).date()
    elif "前年度比" in r.lowered:  # fiscal years, April to March: the last complete one and the one before
        end = date(last.year + (1 if last.month >= 4 else 0), 4, 1)
        ja = r.language == "ja"
        # the last complete fiscal year, unless the one before it has no data: then the latest, partial one
        if end - timedelta(days=1) > last.date() and date(end.year - 3, 4, 1) >= first.date() - timedelta(days=31):
            end = date(end.year - 1, 4, 1)
        elif end - timedelta(days=1) > last.date():
            r.assumptions.append(
                "最新の年度は途中までのデータです。" if ja else "The latest fiscal year is not complete."
            )
        middle, start = date(end.year - 1, 4, 1), date(end.year - 2, 4, 1)
        r.assumptions.append(
            "年度は4月〜翌年3月の会計年度として比べました。" if ja else "Fiscal years run April to March."
        )
        return [
            Period(
                start=start.isoformat(), end=middle.isoformat(), label=f"{start.year}年度" if ja else f"FY{start.year}"
            ),
            Period(
                start=middle.isoformat(), end=end.isoformat(), label=f"{middle.year}年度" if ja else f"FY{middle.year}"
            ),
        ]
    else:
        end = date(last.year, 1, 1) if last.month < 12 else date(last.year + 1, 1, 1)
        middle = date(end.year - 1, 1, 1)
        start = date(end.year - 2, 1, 1)
    if pd.Timestamp(start) < first.normalize() - pd.Timedelta(days=31):
        return []
    label = dates._label_month if monthly else (lambda d, lang: f"{d.year}年" if lang == "ja" else str(d.year))
    return [
        Period(start=start.isoformat(), end=middle.isoformat(), label=label(start, r.language)),
        Period(start=middle.isoformat(), end=end.isoformat(), label=label(middle, r.language)),
    ]


def _auto_unit(info: DataFrameInfo, date_column: str | None) -> TimeUnit:
    column = info.column(date_column) if date_column else None
    if column is None or column.minimum is None or column.maximum is None:
        return "M"
    span = pd.Timestamp(str(column.maximum)) - pd.Timestamp(str(column.minimum))
    if span.days <= 62:
        return "D"
    if span.days <= 3 * 366:
        return "M"
    return "Y"
