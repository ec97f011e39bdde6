"""What a question names before a task is chosen: a `Reading`.

``read`` finds the columns and values the question names, the row conditions, the date window,
a measure computed per row (客単価, A per B, a formula), a duration, the statistics asked for, a
quantile and the N of a top-N list (``read_top``); the grouping comes from ``groups``. Nothing
here picks a task: ``tasks`` and ``building`` read the `Reading`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

import pandas as pd

from bunseki.brain.analyst.offline import accounting, dates, durations, groups
from bunseki.brain.analyst.offline.columns import ID_LIKE, SUFFIX_SCORE, ColumnMatcher, Mention, ValueMention
from bunseki.brain.analyst.offline.durations import END_NAME, START_NAME, Duration, read_duration, read_span
from bunseki.brain.analyst.offline.filters import (
    is_number,
    number_filters,
    presence_filters,
    sign_filters,
    value_filters,
)
from bunseki.brain.analyst.offline.groups import PHRASE
from bunseki.brain.analyst.offline.intent import (
    as_two_periods,
    asks_change,
    expression,
    flag_filters,
    flag_words,
    ratio,
    revenue,
    unit_price,
    yes_no,
)
from bunseki.brain.analyst.offline.plan import AnswerForm, Derived, Event, Filter, Period, Ratio, Span, TimeUnit
from bunseki.brain.analyst.offline.quantiles import Quantile, read_quantile
from bunseki.brain.analyst.offline.relations import column_comparisons, equalities
from bunseki.brain.analyst.offline.text import kanji_number
from bunseki.brain.analyst.offline.vocab import ASCENDING, ROLLING, STATS, TASK_WORDS, TOP_N, Stat
from bunseki.brain.lexicon import EXTREMES, concepts_for
from bunseki.brain.text import fold, normalize
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

Z_THRESHOLD = re.compile(r"(?:\|\s*z\s*\||z\s*-?\s*(?:スコア|score))[^\d]{0,24}?\d+(?:\.\d+)?", re.IGNORECASE)


_PER = re.compile(rf"(?P<a>\S{{1,{PHRASE}}}?)\s*(?:あたり|当たり|当り)(?:の)?\s*(?P<b>\S{{1,{PHRASE}}})")


_PER_EN = re.compile(
    rf"(?<!\w)(?P<b>[\w .]{{1,{PHRASE}}}?)\s+per\s+(?P<a>[\w .]{{1,{PHRASE}}})"
    rf"|ratio of\s+(?P<c>[\w .]{{1,{PHRASE}}}?)\s+to\s+(?P<d>[\w .]{{1,{PHRASE}}})",
    re.IGNORECASE,
)


@dataclass
class Reading:
    """Everything found in the question before a task is chosen."""

    text: str
    lowered: str
    language: Language
    mentions: list[Mention]
    filters: list[Filter]
    periods: list[Period]
    date_column: str | None
    group_by: str | None
    time_unit: TimeUnit | None
    stats: list[tuple[int, Stat]]
    words: set[str]
    top_n: int | None
    ascending: bool
    derived: Derived | None
    entity_question: bool = False  # "which store…": the answer is a group, not a value
    ratio: Ratio | None = None  # a share or a change asked as a percentage
    assumptions: list[str] = field(default_factory=list)
    value_spans: list[tuple[int, int]] = field(default_factory=list)  # category values named (関東, East)
    values: list[ValueMention] = field(default_factory=list)  # the same, with their columns
    quantile: Quantile | None = None  # 90パーセンタイル, 上位10%の境目: the statistic's parameter
    period_spans: list[tuple[int, int]] = field(default_factory=list)  # where each period is named
    top_spans: list[tuple[int, int]] = field(default_factory=list)  # where the N of a top-N list is named
    form: AnswerForm = "value"  # the form of the answer asked for (a name, a difference, yes/no…)
    duration: Duration | None = None  # a duration asked for: its derived column
    span: Span | None = None  # the time between two moments of the rows (first and last, low and high)
    span_spans: list[tuple[int, int]] = field(default_factory=list)
    condition_spans: list[tuple[int, int]] = field(default_factory=list)  # 管理費が未記録: conditions read as phrases
    cross: str | None = None  # a second grouping column: a cross table (店舗別・カテゴリ別)

    def numeric(self, info: DataFrameInfo) -> list[str]:
        """Numeric columns named, in order, without repeats; not a 1/0 flag named only by the end of its
        name (V型エンジン is no measure of 直列エンジン: the accounting asks what it means instead), nor an
        ID column named by its entity (求人 for 求人ID: the ads, whose IDs are no quantity)."""
        return list(
            dict.fromkeys(
                m.column
                for m in self.mentions
                if is_number(info, m.column)
                and not (m.score <= SUFFIX_SCORE and (c := info.column(m.column)) and yes_no(c.values or []))
                and not names_entity(m)
            )
        )

    def categorical(self, info: DataFrameInfo) -> list[str]:
        kinds = ("category", "text", "boolean")
        return list(dict.fromkeys(m.column for m in self.mentions if (c := info.column(m.column)) and c.kind in kinds))


def names_entity(mention: Mention) -> bool:
    """A mention that is an ID column's name without its ID word (注文 for 注文番号, order for order_id):
    the things the IDs name, not the ID numbers."""
    if not ID_LIKE.search(mention.column):
        return False
    stem = ID_LIKE.sub(" ", mention.column).strip(" _").casefold()
    return bool(stem) and mention.text.strip().casefold() in (stem, f"{stem}s")


def read(question: str, info: DataFrameInfo, language: Language) -> Reading:
    """Find columns, values, conditions, dates, grouping and statistics in ``question``."""
    text = normalize(question)
    lowered = text.lower()
    matcher = ColumnMatcher(info)
    mentions = matcher.columns(text)
    # 東京倉庫 is a value of 倉庫, not the column 倉庫: a value wins over a column name inside it.
    # 初診 is a value of 初診再診 as much as a prefix of its name: the value, so 初診と再診 compares both;
    # 退会 is a value of ステータス and a prefix of 退会日: the value, a condition (退会した会員の平均年齢).
    named = [(v.start, v.end, v.column) for v in matcher.values(text)]
    mentions = [
        m
        for m in mentions
        if not any(s <= m.start and m.end <= e and (e - s > m.end - m.start or m.score < 1) for s, e, _ in named)
    ]
    derived = _derived(text, matcher, mentions, language)
    duration = read_duration(text, lowered, info, mentions, language) if derived is None else None
    if duration is not None:  # 在任日数, 2019年1月1日時点で登録から何日: a duration column is the measure
        derived = duration.derived
    current, as_of = _current_on(text, info, duration)  # the day a duration runs to, or rows current on it
    date_column = _date_column(info, mentions, lowered)
    # a column's own name holds no period (前月差, last_month_sales): only the rest of the question is read
    named_columns = [(m.start, m.end) for m in mentions if m.score >= 0.95 and m.column != date_column]
    periods, period_spans = _periods(blank_spans(text, as_of + named_columns), info, date_column, language)
    period_spans += _event_verb(lowered, date_column) if periods else []  # 終了した: it chose the end date
    unnamed = blank_spans(lowered, named_columns)  # 前月差 asks for no difference, 伸び率 for no change
    two = asks_change(blank_spans(text, named_columns)) or accounting.asked_form(unnamed) in ("difference", "times")
    if len(periods) == 1 and two:  # 2023年から2024年で何％伸びた, 何週伸びた: two periods, not one range
        periods, period_spans = _periods(as_two_periods(text), info, date_column, language)
    quantile = read_quantile(lowered)  # 上位10%の境目 is a quantile, not a top-10 list nor a 10% condition
    quantile_spans = [quantile.span()] if quantile else []
    top_n, top_spans, ascending = read_top(blank_spans(lowered, quantile_spans))
    values = _without_events(_without_counted_noun(lowered, matcher.values(text, exclude=mentions)), text, info)
    values = _without_units(lowered, values)
    filters = value_filters(text, values)
    defined = _defined_name(text, mentions, derived)  # "Daily range = a - b": "daily" names the measure
    group_by, time_unit = groups.grouping(text, _blank(lowered, defined), mentions, info)
    if derived and derived.expression and group_by in (derived.left, derived.right):
        group_by = None  # "revenue per guest": guests divide the measure, they do not group the rows
    if group_by and groups.agent_by(lowered, mentions, info, group_by):
        group_by = None  # "orders placed by members": who did it, a condition, not a breakdown
    blanks = presence_filters(text, mentions)  # 管理費が設定されている物件: filled in or blank, not a flag
    blanks += sign_filters(text, mentions, info)  # 前月差がマイナスの月: below zero
    present = [f for f, _ in blanks]
    filters += present + flag_filters(text, mentions, info, filters + present, group_by)
    meant, flagged = flag_words(text, info, filters)  # 亡くなった乗客: the no side of a survived column
    both = {f.column for f in meant if f.op == "in"}  # 既婚者と未婚者: both sides replace the one read first
    filters = [f for f in filters if f.column not in both or f.op != "=="] + meant
    mentions = sorted([*mentions, *flagged], key=lambda m: m.start)
    numeric_default = derived.name if derived else None
    filters += number_filters(
        text,
        mentions,
        info,
        language=language,
        taken=period_spans + top_spans + quantile_spans + as_of + [m.span() for m in Z_THRESHOLD.finditer(text)],
        default_column=numeric_default,
    )
    filters = _with_current(filters, current) + column_comparisons(text, mentions, info)
    filters += equalities(text, mentions, info, filters)
    inside = [(m.start, m.end) for m in mentions]  # 最高 in 最高気温 names a column, not a maximum
    inside += [m.span() for m in ROLLING.finditer(lowered)]  # 移動平均 smooths the totals: no mean of rows
    inside += quantile_spans  # 上位10%に入るには最低: the boundary's words, not a minimum
    stats = _statistics(lowered, inside, quantile)
    for mention, stat in _extremes(lowered, mentions, info):  # the youngest: the smallest age
        mentions = sorted([*mentions, mention], key=lambda m: m.start)
        stats = sorted([*stats, (mention.start, stat)])
    if derived and derived.expression:  # "合計点（a+b+c）の平均": the statistic is the one after the formula
        formula_end = max((m.end for m in mentions if m.column in (derived.left, derived.right)), default=0)
        stats = [item for item in stats if item[0] >= formula_end] or stats
    unquantiled = blank_spans(lowered, quantile_spans)  # 上位10%の境目 asks no top list
    words = _task_words(unquantiled, conditioned_on_blanks=bool(present))
    if top_n is not None or (ascending and re.search(r"ワースト|下位|\bbottom\b|\bworst\b", lowered)):
        words.add("top")
    reading = Reading(
        text,
        lowered,
        language,
        mentions,
        filters,
        periods,
        date_column,
        group_by,
        time_unit,
        stats,
        words,
        top_n,
        ascending,
        derived,
    )
    reading.condition_spans = [span for _, span in blanks]
    if any(dates.is_fiscal(period.label) for period in periods):
        reading.assumptions.append(
            "年度は4月〜翌年3月の会計年度として集計しました。"
            if language == "ja"
            else "A fiscal year (年度) is taken as April to March."
        )
    if derived is not None and derived == revenue(text, matcher):
        formula = derived.left if derived.expression else f"{derived.left} × {derived.right}"
        reading.assumptions.append(
            f"売上の列がないため、売上 = {formula} として計算しました（1行を1点の販売として）。"
            if language == "ja" and derived.expression
            else f"売上の列がないため、売上 = {formula} として計算しました。"
            if language == "ja"
            else f"The table has no sales column: sales = {formula}"
            + (" (each row one item sold)." if derived.expression else ".")
        )
    reading.entity_question = "which" in words and bool(reading.categorical(info))
    if time_unit == "daytype" and date_column is None:  # no dates, but a column of day names (Sat, Sun)
        reading.date_column = groups.day_names(info)
    if group_by is None and not time_unit and (crossed := groups.crossed(lowered, mentions, info)):
        group_by = reading.group_by = crossed  # 店舗×カテゴリ: a cross table named by its two columns alone
    if group_by and not time_unit and (cross := groups.cross_group(text, lowered, mentions, info, group_by, filters)):
        reading.group_by, reading.cross = sorted((group_by, cross), key=lambda c: groups.first_at(mentions, c))
    reading.value_spans = [(value.start, value.end) for value in values]
    reading.values = values
    reading.quantile = quantile
    reading.period_spans = period_spans
    reading.top_spans = top_spans
    reading.duration = duration
    reading.form = accounting.asked_form(unnamed)
    _read_span(reading, info)  # 最安値から最高値まで何か月: two moments of the rows
    if reading.group_by is None and (ranked := groups.ranked_entity(text, mentions, info)):
        reading.group_by, reading.entity_question = ranked, True
    if reading.group_by is None and "which" in words and (few := groups.which_number(lowered, mentions, info)):
        reading.group_by, reading.entity_question = few, True  # "which party size…": a whole number with few values
    numeric_mentions = [m for m in mentions if is_number(info, m.column) and m.column != date_column]
    reading.ratio = ratio(text, filters, periods, date_column, numeric_mentions, language)
    return reading


def _read_span(r: Reading, info: DataFrameInfo) -> None:
    """The time between two moments the question names, dated by the dates it names or the only ones."""
    if r.form != "duration" or r.duration is not None:
        return
    dating = durations.moments(info)
    dating = [m.column for m in r.mentions if m.column in dating][:1] or dating
    if len(dating) == 1 and (span := read_span(r.lowered, info, r.mentions)):
        r.span, r.span_spans = span
        r.date_column = dating[0]
    elif len(dating) == 1 and _LASTED.search(r.lowered):  # how many days did Andrew last: its first to last row
        unit = next((name for name, pattern in _LASTED_UNITS if re.search(pattern, r.lowered)), "days")
        r.span = Span(start=Event(kind="first"), end=Event(kind="last"), unit=unit)  # type: ignore[arg-type]
        r.date_column = dating[0]


_LASTED: Final = re.compile(
    r"(?:日|週|か月|ヶ月|カ月|ヵ月|年)(?:間)?\s*(?:も)?\s*(?:続い|続く|持続)|\b(?:last|lasted|span|spanned)\b"
)
_LASTED_UNITS: Final = (
    ("weeks", r"何\s*週|\bweeks\b"),
    ("months", r"何\s*(?:か月|ヶ月|カ月|ヵ月)|\bmonths\b"),
    ("years", r"何\s*年|\byears\b"),
    ("days", r"何\s*日|\bdays\b"),
)


def _statistics(lowered: str, inside: list[tuple[int, int]], quantile: Quantile | None) -> list[tuple[int, Stat]]:
    """The statistics named, in order, but for words inside a column's name (最高 in 最高気温)."""
    stats: list[tuple[int, Stat]] = sorted(
        (match.start(), stat)
        for stat, pattern in STATS
        for match in re.finditer(pattern, lowered)
        if not any(start <= match.start() and match.end() <= end for start, end in inside)
    )
    if quantile is not None:
        stats = sorted([*stats, (quantile.start, "quantile")])
    return stats


def _extremes(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> list[tuple[Mention, Stat]]:
    """Adjectives naming the extreme of a measure: youngest, 最も重い (最も若い犠牲者の年齢: of 年齢 too)."""
    found: list[tuple[Mention, Stat]] = []
    for words, concept_word, largest in EXTREMES:
        match = next((m for word in words if (m := re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered))), None)
        if match is None:
            continue
        columns = [
            c.name
            for c in info.column_info
            if c.kind == "number" and any(concept_word in concept.words for concept, _ in concepts_for(c.name))
        ]
        if len(columns) == 1:
            mention = Mention(columns[0], match.start(), match.end(), 0.8, match.group())
            found.append((mention, "max" if largest else "min"))
    return found


def _derived(text: str, matcher: ColumnMatcher, mentions: list[Mention], language: Language) -> Derived | None:
    """A ratio the question computes per row: 客単価, 単価, A あたり B, A per B, A / B."""
    formula = expression(text, mentions, matcher.info)
    if formula is not None:
        return formula
    per_unit = unit_price(text, matcher) if "単価" in text else None
    if per_unit is not None:
        return per_unit
    sales = revenue(text, matcher)  # 売上 of a ledger with 単価 and 数量 but no sales column
    if sales is not None:
        return sales
    inside = [(m.start, m.end) for m in mentions]  # gdp_per_capita names a column, not a ratio

    def within(match: re.Match[str], word: str) -> bool:
        at = match.string.find(word, match.start())
        return any(start <= at < end for start, end in inside)

    per = _PER.search(text) if re.search("あたり|当たり|当り", text) else None  # cheap test first
    if per and any(within(per, w) for w in ("あたり", "当たり", "当り")):
        per = None
    if per:
        left, right = matcher.resolve(per.group("b")), matcher.resolve(per.group("a"))
        if left and right and left != right and all(is_number(matcher.info, c) for c in (left, right)):
            return Derived(name=f"{left}/{right}", left=left, op="/", right=right)
    lowered = text.lower()
    english = _PER_EN.search(text) if "per" in lowered or "ratio of" in lowered else None
    if english and english.group("b") and within(english, " per "):
        english = None
    if english:
        numerator_text = english.group("b") or english.group("c")
        denominator_text = english.group("a") or english.group("d")
        left, right = matcher.resolve(numerator_text or ""), matcher.resolve(denominator_text or "")
        if left and right and left != right and all(is_number(matcher.info, c) for c in (left, right)):
            return Derived(name=f"{left}/{right}", left=left, op="/", right=right)
    return None


def _defined_name(text: str, mentions: list[Mention], derived: Derived | None) -> tuple[int, int] | None:
    """Where the question names the measure it defines: 'Daily range' in 'Daily range = a - b'."""
    if derived is None or not derived.expression:
        return None
    for mention in mentions:
        if mention.column not in (derived.left, derived.right):
            continue
        before = text[max(0, mention.start - PHRASE) : mention.start]  # a window: long texts stay linear
        equals = re.search(r"(?:=|＝|:=|is defined as|とは|を)\s*\(?\s*$", before)
        named = equals or re.search(r"[(（]\s*$", before)  # "refund per day since purchase (a / b)"
        if named is not None:
            break
    else:
        return None
    end = mention.start - len(before) + named.start()
    clause = max(text.rfind(mark, max(0, end - PHRASE), end) for mark in (".", ",", ";", "、", "。", "?", "\n"))
    clause = clause if clause >= 0 else max(-1, end - PHRASE - 1)
    if equals is None and re.search(r"別|ごと|毎|\bby\b|\beach\b", text[clause + 1 : end]):
        return None  # 月別の客単価（金額÷客数）: the grouping is asked, not part of the name
    return clause + 1, end


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    for span in spans:
        text = _blank(text, span)
    return text


def _blank(text: str, span: tuple[int, int] | None) -> str:
    if span is None:
        return text
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


def _current_on(
    text: str, info: DataFrameInfo, duration: Duration | None
) -> tuple[Filter | None, list[tuple[int, int]]]:
    """The day a duration runs to (no date window), or the rows current on a day named as a point in time
    (2024年12月31日時点の会員数): begun by it and not ended."""
    if duration is not None:
        return None, duration.spans
    found = durations.as_of_filter(text, info)
    return (found[0], [found[1]]) if found else (None, [])


def _with_current(filters: list[Filter], current: Filter | None) -> list[Filter]:
    """The conditions with the rows current on a day; 有効 (active) restates it, so it gives way."""
    if current is None:
        return filters
    return [f for f in filters if not durations.restates_active(f.value)] + [current]


def _date_column(info: DataFrameInfo, mentions: list[Mention], lowered: str = "") -> str | None:
    """The date column the question means: the one it names, else the one whose event it names
    (退会者数 → 退会日, hires → hire_date; 終了した → enddate of a start and an end date), else the
    table's first."""
    for mention in mentions:
        column = info.column(mention.column)
        if column and column.kind == "datetime":
            return mention.column
    dated = [c.name for c in info.column_info if c.kind == "datetime"]
    events = [
        name
        for name in dated
        if (stem := _EVENT_SUFFIX.sub("", name.casefold())) and len(stem) >= 2 and stem in lowered
    ]
    if len(events) == 1:
        return events[0]
    # 10月に終了した調査, polls that ended in October: of a start and an end date, the end
    for asked, named in _EVENT_VERBS:
        chosen = [name for name in dated if named.search(name)]
        if len(dated) > 1 and asked.search(lowered) and len(chosen) == 1:
            return chosen[0]
    return next(iter(dated), None)


def _event_verb(lowered: str, date_column: str | None) -> list[tuple[int, int]]:
    """The span of 終了 (ended, started) where it chose ``date_column`` among a start and an end date."""
    for asked, named in _EVENT_VERBS:
        if date_column and named.search(date_column) and (found := asked.search(lowered)):
            return [found.span()]
    return []


# the verbs of a question that say which of a start and an end date dates its rows, and those dates' names
_EVENT_VERBS = (
    (re.compile(r"終了|終わっ|終わり|締め切|完了|\b(?:ended|ending|finished|closed|completed)\b"), END_NAME),
    (re.compile(r"開始|始まっ|始め|着手|\b(?:started|starting|began|begun|opened)\b"), START_NAME),
)


_EVENT_SUFFIX = re.compile(r"(?:日付|日時|年月日|日|date|_date| date|_at| at|time)$")


def _periods(
    text: str, info: DataFrameInfo, date_column: str | None, language: Language
) -> tuple[list[Period], list[tuple[int, int]]]:
    if date_column is None:
        return [], []
    column = info.column(date_column)
    if column is None or column.minimum is None or column.maximum is None:
        return [], []
    first = pd.Timestamp(str(column.minimum)).date()
    last = pd.Timestamp(str(column.maximum)).date()
    found = dates.windows(text, first=first, last=last, language=language)
    periods = [Period(start=w.start.isoformat(), end=w.end.isoformat(), label=w.label) for w in found]
    return periods, [w.span for w in found]


_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


# "多い都市を2つ", "the 3 sensors with the most …": a count of items next to an ordering word.
_COUNTED = (
    re.compile(  # 年齢が高い順に3人, 売上の多い順で5件
        r"(?P<order>多い|少ない|高い|低い|大きい|小さい|長い|短い|安い|古い|新しい|若い|早い|遅い)順(?:に|で)?\s*"
        r"(?:並べて)?\s*(?P<n>\d+|[一二三四五六七八九十]+)\s*(?:つ|件|個|人|名|社|か国|カ国|ヶ国|都市|店舗?|位|行|台|頭|羽|匹|本|冊|軒|銘柄|チーム)"
    ),
    re.compile(
        r"(?P<order>多い|少ない|高い|低い|大きい|小さい|長い|短い|安い|売れた)[^、。?？]{0,12}?を\s*"
        r"(?P<n>\d+|[一二三四五六七八九十]+)\s*(?:つ|件|個|人|社|か国|カ国|ヶ国|都市|店舗?|位)"
    ),
    re.compile(
        r"\b(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z_]+\s+){1,2}?"
        r"(?:with|that have|that had|having|have|has|had|are|were)\s+the\s+"
        r"(?P<order>highest|most|largest|biggest|lowest|least|fewest|smallest|coldest|warmest)\b"
    ),
)


_SMALL_FIRST = re.compile(
    r"(?:少な|低|小さ|短|安)い(?:順|方|ほう|もの)?|\b(?:shortest|cheapest|fewest|lowest|smallest)\b"
)


_SMALL = re.compile(r"少な|低|小さ|短|安|若|早|古|lowest|least|fewest|smallest|coldest")


_DATE_SUFFIX = re.compile(r"(?:[ _]?(?:date|day|time|at|on)|日付|日時|年月日|日)$", re.IGNORECASE)


def _without_events(values: list[ValueMention], text: str, info: DataFrameInfo) -> list[ValueMention]:
    """ "The most deaths" over a table whose every row has a death_date: the event each row dates, not
    the value Death of another column (both readings are possible; the condition is not taken, so it is
    asked). Where some rows have no such date (退会日), the value tells them apart (退会した会員)."""
    dated = [c.name for c in info.column_info if c.kind == "datetime" and not c.missing]
    stems = {fold(_DATE_SUFFIX.sub("", name)) for name in dated if _DATE_SUFFIX.search(name)}
    return [v for v in values if fold(text[v.start : v.end]).removesuffix("s") not in stems]


_UNIT_ASKED = re.compile(
    r"\bhow many\s+(?:more\s+|fewer\s+)?(?P<unit>seconds|minutes|hours|days|weeks|months|years)\b"
    r"|\b(?:number of|in|over|within|after|for)\s+(?:\d+\s+)?(?P<after>days|weeks|months|years)\b"
)


def _without_units(lowered: str, values: list[ValueMention]) -> list[ValueMention]:
    """ "How many days does the data cover": a unit of time asked for or counted in, not the value Day
    of a time-of-day column."""
    units = [m.span("unit") if m.group("unit") else m.span("after") for m in _UNIT_ASKED.finditer(lowered)]
    return [v for v in values if not any(s <= v.start < e for s, e in units)]


def _without_counted_noun(lowered: str, values: list[ValueMention]) -> list[ValueMention]:
    """ "How many deaths were homicides": the noun counted names the rows when another value of its
    column follows as the condition; it is no second condition (type in Death, Homicide)."""
    asked = accounting.COUNTED_NOUN.search(lowered)
    if asked is None:
        return values
    counted = [v for v in values if v.start <= asked.start("noun") < v.end]
    others = {v.column for v in values if v.start >= asked.end("noun")}
    return [v for v in values if not (v in counted and v.column in others)]


def _task_words(text: str, *, conditioned_on_blanks: bool) -> set[str]:
    """The analyses the question names by their words (TASK_WORDS)."""
    words = {name for name, pattern in TASK_WORDS.items() if re.search(pattern, text)}
    if conditioned_on_blanks:
        words.discard("missing")  # 管理費が未記録の物件の平均価格: a condition on the rows, not a count of blanks
    return words


def read_top(lowered: str) -> tuple[int | None, list[tuple[int, int]], bool]:
    """The N items asked for (上位5, ワースト三, "top 3", "the 3 largest", 多い都市を2つ), where, and smallest first."""
    ascending = bool(re.search(ASCENDING, lowered))
    for pattern in TOP_N:
        match = re.search(pattern, lowered)
        if match:
            for name, value in match.groupdict().items():
                if value:
                    number = int(value) if value.isdigit() else kanji_number(value)
                    # 短い診療科を上位3つ, "the 3 cheapest": the smallest lead when the ordering word says so
                    smallest = bool(_SMALL_FIRST.search(lowered))
                    return number, [match.span()], ascending or smallest or name.startswith("worst")
    for counted in _COUNTED:
        found = counted.search(lowered)
        if found:
            value = found.group("n")
            number = int(value) if value.isdigit() else _WORD_NUMBERS.get(value) or kanji_number(value)
            return number, [found.span("n")], ascending or bool(_SMALL.search(found.group("order")))
    return None, [], ascending
