"""The task a question asks for: a specific analysis named by its own words (a correlation, missing
values, a share, a growth, a top-N list, a trend…), else a summary of a measure (by group, a count,
distinct values, one statistic, an overview). Also the readings of a `Reading` that both the choice
and the plan rely on: the main statistic, a yes/no column's rate, the columns rows break down by.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.analyst.offline.accounting import asked_period, compares, dated_event, describes_rows
from bunseki.brain.analyst.offline.asking import capabilities
from bunseki.brain.analyst.offline.columns import ID_LIKE
from bunseki.brain.analyst.offline.groups import CROSS_MAX
from bunseki.brain.analyst.offline.intent import ASKS_PERCENT, yes_no
from bunseki.brain.analyst.offline.plan import Clarification, Filter, Ratio, Task
from bunseki.brain.analyst.offline.reading import Reading, names_entity
from bunseki.brain.analyst.offline.vocab import ADDITIVE, Stat
from bunseki.data.summary import DataFrameInfo

RELATIVE_GROWTH = r"前年度比|前年比|前月比|前週比|yoy|mom|year over year|month over month"


COMPARE = (
    r"比べ|比較|違い|違う|違っ|差|対比|どちら|どっち|\bcompare|\bversus\b|\bvs\.?\b|\bdifference|\bdiffer|\bgap\b|"
    r"\bwhich (?:one|of the two|of them)\b|\bwhich is (?:higher|lower|larger|smaller|more|less|bigger)\b"
)


def task(r: Reading, info: DataFrameInfo) -> Task | Clarification:
    """The kind of analysis: a specific one when its words appear, else a summary of a measure."""
    return _specific_task(r, info) or _summary_task(r, info)


def _specific_task(r: Reading, info: DataFrameInfo) -> Task | None:
    """Analyses named by their own words: correlation, missing values, outliers, trends…"""
    words = r.words
    if r.span is not None:
        return "span"  # Appleの最安値から最高値まで何か月: the time between two moments
    if "correlation" in words:
        return "correlation" if len(r.numeric(info)) + (1 if r.derived else 0) >= 2 else "correlation_matrix"
    if "duplicates" in words and not r.group_by:
        return "duplicates"
    if "missing" in words or "outliers" in words:
        return "missing" if "missing" in words else "outliers"
    if r.ratio is not None and flag_rate(r, info) is not None and r.form in ("difference", "times"):
        return "share"  # 女性と男性で生存率は何ポイント違う: two groups' rates, not a change between them
    if r.ratio is None and not r.group_by and (flag := _flag_named_rate(r, info)) is not None:
        r.ratio = Ratio(kind="share", part=[flag], part_label=flag.text)  # 60歳以上の乗客の生存率: a share
        return "ratio"
    if r.ratio is not None and not r.group_by and not _share_across(r, info):
        return "ratio"
    if "distribution" in words and not r.group_by:
        return "distribution"
    if "share" in words and (r.group_by or r.categorical(info) or _value_filter(r)):
        return "share"
    if flag_rate(r, info) is not None:
        return "share"  # 部署ごとの退職率, the churn rate by plan: a yes/no column's rate in each group
    trend_only = "trend" in words and not ASKS_PERCENT.search(r.lowered)  # "trending up or down month over month"
    if "growth" in words and (len(r.periods) >= 2 or re.search(RELATIVE_GROWTH, r.lowered)) and not trend_only:
        return "growth"
    if r.form in ("difference", "times") and len(r.periods) >= 2 and not r.group_by:
        return "growth"  # 2015年は2012年と比べて何度高い, 2014年は2013年の何倍: two periods compared
    if "top" in words:
        return "top"
    _period_asked(r, info)  # 入会者が一番多かった年は？: the periods compared, the extreme one named
    if (r.time_unit and r.date_column) or ("trend" in words and r.date_column):
        return "trend"
    return None


# "how many", and 何 with a counter word: 何件, 何人, 何台, 何社, 何か国, 何羽…
_HOW_MANY = re.compile(
    r"how many|いくつ|何\s*(?:件|人|日|台|名|社|個|本|匹|頭|羽|回|か国|カ国|ヶ国|店|店舗|軒|冊|枚|点|組|世帯|"
    r"か月|ヶ月|カ月|ヵ月|校)(?!通り)"
)


SHAPE = re.compile(
    r"列数|列の数|列はいくつ|何列|何行|行数|"
    r"\bhow many (?:rows|records|col(?:u|o|ou)?m?n?s|cols)\b|\bnumber of (?:rows|col(?:u|o|ou)?m?n?s)\b|\bshape\b"
)


_QUANTITY_ASKED = re.compile(r"多|少|高|低|\bmost\b|\bfewest\b|\bleast\b|\bhighest\b|\blowest\b")


def _period_asked(r: Reading, info: DataFrameInfo) -> None:
    """The grain of the period whose extreme the question asks to be named, as the reading's time unit."""
    grain = asked_period(r.lowered) if r.date_column and not r.time_unit and not r.group_by else None
    if grain is not None and (r.stats or _QUANTITY_ASKED.search(r.lowered)) and not _day_extreme(r, info, grain):
        r.time_unit = grain


def _day_extreme(r: Reading, info: DataFrameInfo, grain: str) -> bool:
    """The day asked is one row's (最高気温が一番高かった日): the row's date, not a total per day."""
    return grain == "D" and bool(r.numeric(info))


def _summary_task(r: Reading, info: DataFrameInfo) -> Task | Clarification:
    """A measure summarised: by group, counted, distinct values, one statistic, or an overview."""
    stat = main_stat(r)
    if SHAPE.search(r.lowered) and not r.filters and not r.group_by:
        return "count"
    asks_count = _HOW_MANY.search(r.lowered) and r.duration is None  # 何日経った: a duration
    conditioned = {c for f in r.filters for c in f.columns()}
    counted = None if how_many_measure(r, info) else _after_how_many(r, info)  # "how many bills": the rows
    measured_apart = [
        c for c in r.numeric(info) if c not in conditioned and c != counted
    ]  # 年収が600万円以上の社員は何人
    two_named = [f for f in r.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) == 2]
    counted_more = _COUNT_MORE.search(r.lowered) is not None
    if r.form == "yesno" and (r.filters or r.periods) and not r.group_by and compares(r.lowered) is None:
        return "count"  # 2012年に雪は降った？: whether any row meets the conditions
    weighed = r.form in ("difference", "times") or (r.form == "yesno" and compares(r.lowered) is not None)
    if weighed and two_named and not r.group_by and (r.numeric(info) or counted_more):
        r.group_by = two_named[0].column  # how many more dogs than cats, AはBより何円高い: each, compared
        return "group"
    if asks_count and not measured_apart and not r.group_by and not distinct_target(r, info):
        return "count"  # how many orders / rows / 件: rows, whatever the total word
    measured = bool(r.numeric(info) or r.derived)
    compared = re.search(COMPARE, r.lowered) and any(f.op == "in" for f in r.filters)
    if r.group_by or compared:
        return "group"  # 東京と大阪を比べて: one bar per value
    if r.entity_question and (measured or stat in ("max", "min", "count") or wants_one(r)):
        return "group"
    if r.form in ("name", "date") and measured and stat in ("max", "min"):
        return "group"  # 最高気温が一番高かった日はいつ, who is the oldest: the row, named by a column
    named = [c for c in r.categorical(info) if c not in conditioned]
    if measured and stat in ("max", "min") and named and not _value_filter(r):
        return "group"  # 平均寿命が最も短かった国: the country, not the shortest life expectancy
    if distinct_target(r, info):
        return "distinct"
    if stat == "count" and not how_many_measure(r, info):
        return "count"
    if stat is not None or (measured and not r.words & {"describe", "chart"}):
        return "stat"  # 7月以降の飲料の売上: a measure under conditions, total by default
    # an overview when asked for, or of a column named alone; not of a date the question names only by
    # its event (最初に発売されたCPUは？, 1990年の優勝者は？): that asks for something else
    described = [m for m in r.mentions if not dated_event(m, info) and not describes_rows(m, info)]
    ordered = _ORDERING.search(r.lowered)  # 最初に登録された猫の郵便番号: one row's value, not an overview
    if "describe" in r.words or (described and "chart" not in r.words and not ordered):
        return "describe"
    if "chart" in r.words and r.categorical(info):
        return "group"
    return capabilities(r, info)


_ORDERING = re.compile(
    r"最初|最後|最新|最古|一番|最も|いちばん|もっとも|\b(?:first|last|earliest|latest|newest|oldest|most|least)\b"
)


def main_stat(r: Reading) -> Stat | None:
    """The statistic asked for; max/min are orderings when a group or a 'which' is involved."""
    found = [stat for _, stat in r.stats]
    if "quantile" in found:
        return "quantile"
    ordering = {"max", "min"}
    for stat in found:
        if stat not in ordering and stat != "count" and stat != "nunique":
            return stat
    if any(stat in ordering for stat in found):
        if r.group_by or r.entity_question or "top" in r.words or r.time_unit:
            return None
        return next(stat for stat in found if stat in ordering)
    if "count" in found:
        return "count"
    if "nunique" in found:
        return "nunique"
    return None


def how_many_measure(r: Reading, info: DataFrameInfo) -> bool:
    """'how many customers' over a whole-number 客数 column means its sum, not a row count."""
    match = re.search(r"how many|何人|何個|何点", r.lowered)
    if not match:
        return False
    after = [m for m in r.mentions if m.start >= match.end() and m.start - match.end() <= 3]
    column = info.column(after[0].column) if after else None
    whole = column is not None and column.kind == "number" and column.dtype.lower().startswith(("int", "uint"))
    return whole and bool(ADDITIVE.search(after[0].column))


def _after_how_many(r: Reading, info: DataFrameInfo) -> str | None:
    """An amount named right after 'how many' (how many bills → total_bill): the rows are counted.

    A whole-number column there (how many sessions) counts things itself and stays the measure.
    """
    match = re.search(r"how many", r.lowered)
    after = [m for m in r.mentions if match and 0 <= m.start - match.end() <= 3]
    column = info.column(after[0].column) if after else None
    if column is None or column.dtype.lower().startswith(("int", "uint")):
        return None
    return column.name


def distinct_target(r: Reading, info: DataFrameInfo) -> str | None:
    """'How many stores?', '地域は何種類?': the category column whose distinct values are counted."""
    if entity := counted_entity(r, info):
        return entity
    if any(stat == "nunique" for _, stat in r.stats):
        categorical = r.categorical(info)
        if categorical or r.mentions:
            return (categorical or [r.mentions[0].column])[0]
    for mention in r.mentions:  # 都道府県の数, 部署はいくつ: the number of a category's values
        column = info.column(mention.column)
        rest = r.text[mention.end :]
        if column and column.kind in ("category", "text") and re.match(r"\s*(?:の数(?!量)|は\s*(?:いくつ|何個))", rest):
            return mention.column
    counter = re.search(r"(?:how many|何)\s*(?P<word>[^\s、。?？]{1,12})", r.lowered)
    if counter:
        after = [m for m in r.mentions if counter.start() <= m.start <= counter.end() + 2]
        for mention in after:
            column = info.column(mention.column)
            if column and column.kind in ("category", "text") and not _value_filter(r):
                return mention.column
    return None


def _share_across(r: Reading, info: DataFrameInfo) -> bool:
    """新宿店の支払方法の割合: a share across a column named besides the condition, not the condition's share."""
    if r.ratio is None or r.ratio.kind != "share" or "share" not in r.words:
        return False
    conditioned = {c for f in r.filters for c in f.columns()}
    return any(c not in conditioned for c in breakdowns(r, info))


_RATE = re.compile(r"率|割合|比率|\brates?\b|percentage|proportion|share", re.I)


# Counting rows of two groups against each other (how many more dogs than cats, 何人多い), not a measure's
# difference (how many more years, 何倍重い).
_COUNT_MORE = re.compile(
    r"how many (?:more|fewer|less)\b(?!\s+(?:years?|months?|weeks?|days?|hours?|minutes?|points?|dollars?|yen|"
    r"percent|times|kg|pounds|grams?|cm|inches|miles)\b)|何\s*(?:件|人|個|台|匹|頭|羽|社|回|店|か国|カ国)\s*(?:多|少)|"
    r"件数|人数|\bnumber of\b|\bcount\b"
)
_RATE_AFTER = re.compile(r"^\s*(?:率|の割合|の比率|rates?\b)", re.IGNORECASE)


def _flag_named_rate(r: Reading, info: DataFrameInfo) -> Filter | None:
    """The yes/no condition whose rate the question names by the flag itself (生存率, survival rate),
    when one is asked for with no grouping: the share of the rows meeting it."""
    if any(f.op == "in" for f in r.filters):
        return None  # 営業と開発で在宅勤務率: each named group's rate
    for f in r.filters:
        column = info.column(f.column)
        if f.op != "==" or column is None or yes_no(column.values or []) is None or not f.text:
            continue
        if _rate_named(f, r):
            return f
    return next((f for f in r.filters if _value_rate(f, r, info)), None)


def _rate_named(f: Filter, r: Reading) -> bool:
    """The condition's own words are followed by 率 or "rate" (生存率, 退会率, churn rate)."""
    at = r.lowered.find((f.text or "").lower())
    return bool(f.text) and at >= 0 and _RATE_AFTER.match(r.lowered[at + len(f.text) :]) is not None


def _value_rate(f: Filter, r: Reading, info: DataFrameInfo) -> bool:
    """A category value named as a rate (退会率 over a ステータス of 有効/退会): the share of rows holding it."""
    column = info.column(f.column)
    return f.op == "==" and column is not None and column.kind == "category" and _rate_named(f, r)


def flag_rate(r: Reading, info: DataFrameInfo) -> Filter | None:
    """The yes/no condition whose rate the question asks for in each group (退職率, churn rate), if any."""
    flags = [
        f
        for f in r.filters
        if f.op == "==" and (c := info.column(f.column)) and (yes_no(c.values or []) or _value_rate(f, r, info))
    ]
    if len(flags) != 1 or not _RATE.search(r.lowered):
        return None
    others = [f for f in r.filters if f is not flags[0]]
    named = [f for f in others if f.op == "in" and isinstance(f.value, list) and len(f.value) >= 2]
    grouped = r.group_by or r.entity_question or re.search(r"ごと|別|\bby\b|\bper\b|\beach\b", r.lowered)
    if not (grouped and not others) and not (
        len(named) == 1 and len(others) == 1 and r.group_by in (None, named[0].column)
    ):
        return None  # 部署ごとの退職率; 女性と男性の生存率: the rate in each named group
    if [c for c in r.numeric(info) if c != flags[0].column]:
        return None  # a measure named besides the flag: its statistic, not the rate
    if named and r.group_by is None:
        r.group_by = named[0].column
    return flags[0]


def breakdowns(r: Reading, info: DataFrameInfo) -> list[str]:
    """Category columns named that can break rows down: not an identifier (生徒ID for 生徒), few values."""
    return [
        c
        for c in r.categorical(info)
        if not ID_LIKE.search(c) and (column := info.column(c)) is not None and 1 < column.unique <= CROSS_MAX
    ]


_COUNTED: Final = re.compile(r"件数|の数(?!量)|\bnumber of\b|\bcount of\b|\bcount the\b")


def counted_entity(r: Reading, info: DataFrameInfo) -> str | None:
    """注文件数 over order lines, "how many orders" with an order_id repeated on each line: the orders,
    counted by the ID column the noun names (注文 → 注文番号), not the lines."""
    if not (_HOW_MANY.search(r.lowered) or _COUNTED.search(r.lowered)):
        return None
    conditioned = {c for f in r.filters for c in f.columns()} | {r.group_by}
    rows = info.shape[0]
    for mention in r.mentions:
        column = info.column(mention.column)
        if column is None or mention.column in conditioned:
            continue
        if names_entity(mention) and column.unique < rows - column.missing:
            return mention.column
    return None


def _value_filter(r: Reading) -> bool:
    return any(f.op in ("==", "in") and isinstance(f.value, str | list) for f in r.filters)


def wants_one(r: Reading) -> bool:
    return any(stat in ("max", "min") for _, stat in r.stats)


def wants_smallest(r: Reading) -> bool:
    ordering = [stat for _, stat in r.stats if stat in ("max", "min")]
    return bool(ordering) and ordering[0] == "min"
