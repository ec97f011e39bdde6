"""Nothing in the question goes unaccounted for: every element it holds is used by the plan.

Before the analyst answers, each column the question names, each value it names, each number it
gives and the form it asks for (a number, a name, a date, a difference, a ratio, a percentile,
yes or no) is held against the plan. A column the plan does not read, a value it does not filter
on, a number it does not use, or a form it does not produce means the plan answers another
question; the analyst then asks one precise question back, naming the element, instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.durations import restates_active
from bunseki.brain.analyst.offline.plan import AnswerForm, Filter, Plan, TimeUnit
from bunseki.brain.text import fold
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

Form = AnswerForm

# The forms a question asks for, by the words that ask them (Japanese and English).
_HEAD: Final = r"(?:^|[,.;:?!、。]\s*|\b(?:and|but|tell me|show me|know|find|say)\s+)"
_FORMS: Final[tuple[tuple[Form, re.Pattern[str]], ...]] = (
    (
        "percentile",
        re.compile(
            r"パーセンタイル|百分位|四分位(?!範囲|偏差)|(?<!四)分位(?:数|点)|percentile|quantile|(?<!inter)quartile|"
            r"(?:上位|下位)\s*\d+(?:\.\d+)?\s*[%％](?:\s*(?:の|に入る|に入るための|に入るには))?\s*(?:境界|ライン|ボーダー|下限|上限|基準|値|水準)|"
            r"\b(?:top|bottom)\s+\d+(?:\.\d+)?\s*%\s*(?:cut-?off|threshold|boundary|line|mark)|"
            r"(?:cut-?off|threshold|boundary)\s+(?:for|of)\s+the\s+(?:top|bottom)\s+\d+(?:\.\d+)?\s*%",
            re.IGNORECASE,
        ),
    ),
    ("times", re.compile(r"何倍|倍率|\bhow many times\b|\bratio of\b|\bratio between\b", re.IGNORECASE)),
    (
        "difference",
        re.compile(
            r"(?<![誤時偏])差(?:は|を|が|って|額|分)?(?![別])|差分|違いは|"
            r"(?:どれ(?:くらい|ぐらい|だけ)|いくら|どのくらい|どのぐらい)\s*(?:高|低|多|少|長|短|大き|小さ|安|遅|速|早)|"
            r"何\s*(?:円|ドル|点|歳|年|日|人|件|ポイント|度|分|秒|時間|回|個|本|台|マイル|km|cm|mm|kg|g)?"
            r"(?:高|低|多|少|長|短|大き|小さ|遅|速|早|安)(?:い|かった|く)|"
            r"何\S{0,3}?(?:伸び|増え|減っ|減り|上が|下が|年上|年下|上回|下回)|"
            r"\bdifference\b|\bdiffer\b|\bgap\b|"
            r"how much (?:more|less|higher|lower|larger|smaller|bigger|longer|shorter)\b|"
            r"how many (?:\w+ )?(?:more|fewer|higher|lower|larger|smaller|longer|shorter)\b|"
            r"(?:何|どれ(?:くらい|ぐらい|だけ)|どのくらい|どのぐらい|いくら)[^、。?？]{0,6}?(?:違う|違い|差がある|開き)",
            re.IGNORECASE,
        ),
    ),
    (
        "duration",
        re.compile(
            r"何\s*(?:日|週|か月|ヶ月|カ月|ヵ月|年)(?:間)?\s*(?:が|も)?\s*(?:経|かか|たっ|過ぎ|後|前|ぶり|離れ|空い|あい)|"
            r"から[^。?？]{1,40}まで[^。?？]{0,6}何\s*(?:日|週|か月|ヶ月|カ月|ヵ月|年)|"
            r"\bhow many (?:days|weeks|months|years) (?:passed|elapsed|went by|did it take|does it take|were there "
            r"between|are there between|between|from|after|since|separate|lie between)\b|"
            r"\bhow long (?:did|does|was|were|is|between|from|after|since|has it been)\b|\bhow much time\b|"
            # how long something lasted: 何日間続いた, "how many days did the storm last"
            r"何\s*(?:日|週|か月|ヶ月|カ月|ヵ月|年)(?:間)?\s*(?:も)?\s*(?:続い|続く|持続)|"
            r"\bhow many (?:days|weeks|months|years)\b[^?.]{0,40}\b(?:last|lasted|run|ran|span|spanned)\b",
            re.IGNORECASE,
        ),
    ),
    # "when" and "who" ask only at the head of a clause: "months when the rate was below 5%" and
    # "people who had an affair" are conditions, not a date or a name asked for
    (
        "date",
        re.compile(rf"いつ|何月何日|何日に|どの日|{_HEAD}when\b|\bwhat date\b|\bwhich date\b|\bon which day\b", re.I),
    ),
    ("name", re.compile(rf"誰|だれ|{_HEAD}(?:who|whose)\b|名前は|\bwhat(?:'s| is) the name\b", re.IGNORECASE)),
)
# Words that ask for an extreme (the largest, 一番…) or a change (伸びた, "grew"): a plan that neither
# ranks nor compares answers another question.
_EXTREME: Final = re.compile(
    r"一番|いちばん|最も|もっとも|最大|最小|最高|最低|最多|最少|最長|最短|最年長|最年少|最安|"
    r"(?<!at )\b(?:most|least)\b(?! (?:common|frequent|recent))|"
    r"\b(?:highest|lowest|largest|smallest|biggest|best|worst|oldest|youngest|longest|shortest|heaviest|lightest|coldest|hottest|warmest|cheapest|fastest|slowest|"
    r"[a-z]{3,}iest)\b",
    re.IGNORECASE,
)
_CHANGE: Final = re.compile(
    r"伸び|伸ば|増え|減っ|減り|増加|減少|上昇|低下|下落|成長|"
    r"\b(?:grew|grown|grow|growth|increased?|increases|decreased?|decreases|rose|risen|rise|fell|fallen|"
    r"dropped|declined?|improved?)\b",
    re.IGNORECASE,
)


# Words that judge (良い, worst) say which end is wanted only when one knows which way is better.
_QUALITY: Final = re.compile(
    r"良い|よい|いい|良かった|よかった|悪い|わるい|悪かった|優れ|劣っ|\b(?:best|worst|better|worse)\b", re.IGNORECASE
)


def asks_quality(text: str) -> str | None:
    """The judging word ``text`` (column names and values blanked) ranks by (燃費が悪い, the best), if any."""
    found = _QUALITY.search(text)
    return found.group() if found else None


def asks_extreme(text: str) -> bool:
    """Whether ``text`` (column names and values blanked) asks for the largest or smallest of something."""
    return _EXTREME.search(text) is not None


def asks_change(text: str) -> bool:
    """Whether ``text`` (column names and values blanked) asks how much something grew or fell."""
    return _CHANGE.search(text) is not None


_NUMBER: Final = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])")
# A counted number that is a condition, not the answer's length: 3人以上, 2件を超える, "5 items or more".
_COMPARED: Final = re.compile(
    r"^\s*\S{0,4}?\s*(?:以上|以下|未満|超|より|を超え|を下回|を上回|まで|"
    r"or more|or fewer|or less|and (?:up|above|over))",
    re.IGNORECASE,
)
# What follows a word that names the rows being counted (伝票は何件, "bills are in the data").
_ROWS_NAMED: Final = re.compile(
    r"\s*(?:は|が|って|データ|ログ|リスト|一覧|表|data\b|list\b|log\b|table\b|file\b|"
    r"(?:are|is|were|was|does|do|did|have|has|had|listed|in|with|that|which|whose)\b)",
    re.IGNORECASE,
)
_ARITHMETIC: Final = frozenset({"times", "plus", "minus", "over", "divided", "multiplied"})
_DEFINED: Final = re.compile(r"[^()（）。?？]{0,10}[(（]")
_KEPT: Final = re.compile(
    r"^\S{0,4}?(?:は|を|も)?\s*(?:除かず|除外せず|含めて|含めた|含む|残して|keep|kept|includ)", re.IGNORECASE
)
_PER_ONE: Final = re.compile(r"^\s*\S{0,10}?(?:あたり|当たり|当り|につき)")
_DECIMALS: Final = re.compile(r"^\s*(?:桁|decimal)", re.IGNORECASE)


@dataclass(frozen=True)
class Unaccounted:
    """One element of the question the plan does not use."""

    kind: Literal["column", "value", "number", "form", "term", "ambiguous", "direction", "statistic", "negation"]
    text: str
    detail: str = ""


# Yes/no questions: "Is there …", "Did any …", 〜ってありますか / いる？ — with no question word in them.
_YES_NO_EN: Final = re.compile(
    r"^(?:[^,?]{0,40},\s*)?(?:(?:is|are|was|were|does|do|did|has|have|had|can|could)\s+"
    r"(?:there|any|anyone|anybody|some|the|a|an|it)\b|(?:is|are|was|were|does|do|did)\s+(?!you\b|we\b|i\b)[a-z]+)",
    re.IGNORECASE,
)
_YES_NO_JA: Final = re.compile(
    r"(?:います|あります|存在します|ありました|いました)か\s*[?？]?\s*$|(?:いる|ある|あった|いた)\s*[?？]\s*$|"
    r"(?:った|した|れた|んだ)\s*(?:の|んですか|のですか)?\s*[?？]\s*$|(?:ました|ましたか)\s*[?？]?\s*$"
)
# A comparison asked as yes or no: 全体より低いですか, 平均を上回っていますか, "is A higher than B".
_COMPARED_YES_NO_JA: Final = re.compile(
    r"(?:高|低|多|少|長|短|大き|小さ|早|遅)(?:い|かった)\s*(?:です|でした|でしょう)?か?\s*[?？]?\s*$|"
    r"(?:上回|下回|超え)(?:って|て)(?:い)?(?:ます|ました|る)?か?\s*[?？]?\s*$"
)
_COMPARED_YES_NO_EN: Final = re.compile(
    r"\b(?:higher|lower|more|less|fewer|larger|smaller|greater|longer|shorter|bigger|above|below|exceed\w*)\b",
    re.IGNORECASE,
)
_QUESTION_WORDS: Final = re.compile(
    r"何|いくつ|いくら|どれ|どの|どこ|どう|どちら|どっち|どんな|誰|だれ|いつ|なに|"
    r"\b(?:how|what|which|who|whom|whose|when|where|why)\b",
    re.IGNORECASE,
)


_EITHER: Final = re.compile(r"\bor\b|それとも|上が.{0,12}下が|増え.{0,12}減|下が.{0,12}上が|減.{0,12}増え")


# "The … that is most …" asked by the noun alone: 最も短かった大統領は？, 一番売れた日は？
_WHICH_ONE: Final = re.compile(
    r"(?:一番|最も|いちばん|もっとも)[^、。?？]{0,20}?(?:かった|い|な|た)\s*"
    r"(?P<noun>[^\s、。?？のはがを\u3041-\u3096][^\s、。?？のはがを]{0,7})"  # 少なかった年: 年, not かった年
    r"(?:は|って)\s*(?:誰|だれ|どこ|どれ|何|なに|いつ)?\s*(?:ですか|でしょうか|でしたか)?\s*[?？]?\s*$"
)
# a 曜日 or a 時間帯 is named (一番少ない曜日は？ Thursday), not dated
_DAY_NOUNS: Final = frozenset(
    {"日", "月", "年", "週", "日付", "時期", "年月", "月日", "四半期", "半期", "年度", "期", "日時"}
)


_PERIOD_NOUNS: Final[dict[str, TimeUnit]] = {
    "年": "Y",
    "年度": "Y",
    "月": "M",
    "週": "W",
    "日": "D",
    "日付": "D",
    "曜日": "weekday",
    "四半期": "Q",
}
_WHICH_PERIOD_EN: Final = re.compile(
    r"\b(?:which|what) (?P<noun>year|month|week|day of the week|weekday|quarter|day|date)s?\b", re.IGNORECASE
)
_PERIOD_EN: Final[dict[str, TimeUnit]] = {
    "year": "Y", "month": "M", "week": "W", "day of the week": "weekday", "weekday": "weekday", "quarter": "Q",
    "day": "D", "date": "D",
}  # fmt: skip


def asked_period(text: str) -> TimeUnit | None:
    """The grain of the period a question asks to be named (一番多かった年は？, which month had the most):
    "Y", "M", "W", "D", "Q" or "weekday"."""
    stripped = text.strip()
    if (which := _WHICH_ONE.search(stripped)) and which.group("noun") in _PERIOD_NOUNS:
        return _PERIOD_NOUNS[which.group("noun")]
    if english := _WHICH_PERIOD_EN.search(stripped):
        return _PERIOD_EN[english.group("noun").casefold()]
    return None


def asked_form(text: str) -> Form:
    """The form of the answer the question asks for ("value" when it asks for a plain number or table)."""
    for form, pattern in _FORMS:
        if pattern.search(text):
            return form
    stripped = text.strip()
    if which := _WHICH_ONE.search(stripped):  # 在任日数が最も短かった大統領は？: the one, named
        return "date" if which.group("noun") in _DAY_NOUNS else "name"
    if _WHICH_PERIOD_EN.search(stripped):  # "which months was it positive": periods, named
        return "date"
    either = _EITHER.search(stripped)  # "up or down", 上がっている？下がっている？: one of two, not yes or no
    if (_YES_NO_EN.search(stripped) or _YES_NO_JA.search(stripped) or _COMPARED_YES_NO_JA.search(stripped)) and not (
        _QUESTION_WORDS.search(stripped) or either
    ):
        return "yesno"
    return "value"


_THAN_NUMBER: Final = re.compile(r"\s+(?:than\s+)?(?:the\s+)?[$¥€£]?\s*\d")  # above 60, more than 300: a condition
_LOWER: Final = re.compile(r"低|少|短|小さ|遅|下回|\b(?:lower|less|fewer|smaller|shorter|below)\b", re.IGNORECASE)


def compares(text: str) -> Literal["higher", "lower"] | None:
    """The direction a yes/no question compares in (is A higher than B), None when it asks whether
    rows exist."""
    stripped = text.strip()
    found = _COMPARED_YES_NO_JA.search(stripped)
    if found is None and _YES_NO_EN.search(stripped):  # "more than 300" is a condition, not a comparison
        found = next(
            (m for m in _COMPARED_YES_NO_EN.finditer(stripped) if not _THAN_NUMBER.match(stripped[m.end() :])), None
        )
    if found is None:
        return None
    return "lower" if _LOWER.search(found.group()) else "higher"


def plan_columns(plan: Plan) -> set[str]:
    """Every column the plan reads: measures, groupings, dates, conditions, formulas, answer slots."""
    used = {c for c in (plan.target, plan.second, plan.group_by, plan.cross) if c}
    # the date column is read only when the plan works over time (a trend, periods, a span, a date asked)
    over_time = plan.time_unit or plan.periods or plan.task in ("trend", "growth", "span") or plan.form == "date"
    if plan.date_column and over_time:
        used.add(plan.date_column)
    filters: list[Filter] = [*plan.filters, *plan.within]
    if plan.ratio is not None:
        filters += [*plan.ratio.part, *plan.ratio.base]
        used |= {c for c in (plan.ratio.base_column, plan.ratio.part_column) if c}
    for derived in [plan.derived, *plan.derived_columns]:
        if derived is not None:
            used |= {derived.left, derived.right}
            if derived.expression:
                used |= set(re.findall(r"data\[['\"]([^'\"]+)['\"]\]", derived.expression))
    for slot in plan.slots:
        used |= {c for c in (slot.column, slot.second) if c}
        filters += slot.filters
    if plan.span is not None:
        used |= {e.column for e in (plan.span.start, plan.span.end) if e.column}
    for item in filters:
        used |= item.columns()
    used |= {plan.year_column} if plan.year_column else set()  # the year column read as dates
    used |= {plan.age_bands.column, plan.age_bands.age} if plan.age_bands else set()  # the age column banded
    return used | set(plan.columns)


def _plan_numbers(plan: Plan) -> set[float]:
    """Every number the plan uses: thresholds, list lengths, periods, windows."""
    found: set[float] = set()

    def add(value: object) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int | float):
            found.add(float(value))
        elif isinstance(value, str):
            found.update(float(n.replace(",", "")) for n in _NUMBER.findall(value))
        elif isinstance(value, list | tuple):
            for item in value:
                add(item)

    for item in _all_filters(plan):
        add(item.value)
        add(item.text)
    for period in plan.periods:
        add([period.start, period.end, period.label])
    add(plan.top_n)
    if plan.task == "outliers":  # the default 3.0 of any other plan is no number the question gave
        add(plan.threshold)
    if plan.quantile is not None:  # 90パーセンタイル, 上位10%: the quantile named either way
        add([round(plan.quantile * 100, 6), round(100 - plan.quantile * 100, 6)])
    for derived in [plan.derived, *plan.derived_columns]:
        if derived is not None and derived.expression:
            add(derived.expression)
    add([slot.decimals for slot in plan.slots])
    add(plan.rolling)
    if plan.task == "answers":  # "alpha 0.01", "2.5 IQR": the methods' numbers
        add(plan.method.numbers())
    return found


def unaccounted(
    plan: Plan,
    text: str,
    mentions: list[Mention],
    value_spans: list[tuple[int, int, str]],
    info: DataFrameInfo,
    *,
    consumed: list[tuple[int, int]] | None = None,
) -> list[Unaccounted]:
    """The elements of ``text`` (normalised) that ``plan`` leaves out: columns, values, then numbers."""
    consumed = list(consumed or [])
    used = plan_columns(plan)
    missing = [
        Unaccounted("column", mention.text, mention.column)
        for mention in mentions
        if not _column_used(mention, plan, used, text, info, consumed)
    ]
    missing += [
        Unaccounted("ambiguous", mention.text, "、".join([mention.column, *mention.others]))
        for mention in mentions
        if mention.others
        and mention.column in used
        and not used & set(mention.others)
        and not _told_apart(mention, text)
    ]
    filtered = {str(v) for f in _all_filters(plan) for v in (f.value if isinstance(f.value, list) else [f.value])}
    focused = set(map(str, plan.focus))
    for start, end, column in value_spans:
        named = text[start:end]
        if column in used and (column == plan.group_by or column == plan.cross):
            continue  # 東京と大阪を比べて: the values of the grouping are its groups
        current = any(f.op == "active_on" for f in _all_filters(plan)) and restates_active(named)
        if column not in used and not current and not any(_same(named, v) for v in filtered | focused):
            missing.append(Unaccounted("value", named, column))
    taken = [(m.start, m.end) for m in mentions] + [(s, e) for s, e, _ in value_spans] + consumed
    return missing + _unused_numbers(plan, text, taken, info)


def _told_apart(mention: Mention, text: str) -> bool:
    """Whether the question says which of the columns its words name it means: the part of the chosen
    column's name that the words leave out (最高 of 最高気温) appears in it, and no other's does."""
    named = mention.text.casefold()

    def rest(column: str) -> str:
        return column.casefold().replace(named, " ").strip(" _-.")

    def said(column: str) -> bool:
        part = rest(column)
        return len(part) >= 2 and part in text.casefold()

    return said(mention.column) and not any(said(other) for other in mention.others)


def _column_used(
    mention: Mention, plan: Plan, used: set[str], text: str, info: DataFrameInfo, consumed: list[tuple[int, int]]
) -> bool:
    """Whether a column the question names is accounted for by the plan (or is no element at all)."""
    if mention.column in used or describes_rows(mention, info):
        return True
    if dated_event(mention, info):
        return True  # 受診件数, "returns", days: the event a date column dates names the rows, not the date
    if plan.task == "count" and _ROWS_NAMED.match(text[mention.end : mention.end + 16]):
        return True  # counting rows: "how many bills are there", センサーデータは何行 name the rows themselves
    if any(s <= mention.start and mention.end <= e for s, e in consumed):
        return True  # 種類 in 何種類: a word of the statistic, not the column
    if plan.derived is not None and (
        _DEFINED.match(text[mention.end : mention.end + 16]) or mention.text.casefold() in _ARITHMETIC
    ):
        return True  # ページビュー（pageviews÷sessions）, "… times 100": the formula's name or operator
    stem = mention.text.casefold().removesuffix("s")
    return len(stem) >= 3 and any(stem in column.casefold() for column in used)  # "pages" beside pageviews


def dated_event(mention: Mention, info: DataFrameInfo) -> bool:
    """Whether a mention names the event a date column dates (発売された for 発売日, 受診 for 受診日),
    rather than the date itself."""
    column = info.column(mention.column)
    return column is not None and column.kind == "datetime" and mention.score < 0.9


def _unused_numbers(plan: Plan, text: str, taken: list[tuple[int, int]], info: DataFrameInfo) -> list[Unaccounted]:
    numbers = _plan_numbers(plan)
    missing = []
    for match in _NUMBER.finditer(text):
        if any(s <= match.start() < e for s, e in taken):
            continue  # a digit inside a column's name or a value (1/4マイル, 2等)
        # bounded windows: a slice to either end per number made a long question quadratic
        after = text[match.end() : match.end() + 24]
        if _DECIMALS.match(after):
            continue  # "小数第2位": the answer's shape
        if _KEPT.match(after) or (match.group() == "1" and _PER_ONE.match(after)):
            continue  # 0歳は除かず: rows kept, no condition; 1セッションあたり: per one, a rate's unit
        value = float(match.group().replace(",", ""))
        # "上位3", "3人挙げて", "4都市合計", "3教科の合計": how many the plan lists, compares or adds up —
        # unless a comparison follows (3人以上: a condition)
        sizes = set() if _COMPARED.match(after) else _sizes(plan, info)
        if not any(abs(value - n) < 1e-9 for n in numbers | sizes):
            missing.append(Unaccounted("number", match.group()))
    return missing


def _sizes(plan: Plan, info: DataFrameInfo) -> set[float]:
    """How many things the plan lists or compares: its named groups, its answer slots, the columns of its
    formula (3教科の合計), all the values of a column it reads (4都市合計)."""
    sizes = {float(len(f.value)) for f in _all_filters(plan) if isinstance(f.value, list) and f.op == "in"}
    sizes |= {float(len(plan.focus)), float(len(plan.slots))}
    for derived in [plan.derived, *plan.derived_columns]:
        if derived is not None and derived.expression:
            sizes.add(float(len(set(re.findall(r"data\[['\"]([^'\"]+)['\"]\]", derived.expression)))))
    whole = {c for c in (plan.group_by, plan.cross) if c}  # columns whose every value the plan takes
    if plan.ratio is not None and plan.ratio.kind == "share":  # 4都市合計: a share's whole is every value
        whole |= {f.column for f in plan.ratio.part}
    for name in whole:
        column = info.column(name)
        if column is not None and column.kind in ("category", "boolean") and column.unique:
            sizes.add(float(column.unique))
    return sizes - {0.0}


def _all_filters(plan: Plan) -> list[Filter]:
    filters = [*plan.filters, *plan.within]
    if plan.ratio is not None:
        filters += [*plan.ratio.part, *plan.ratio.base]
    for slot in plan.slots:
        filters += slot.filters
    return filters


def _same(named: str, value: str) -> bool:
    return named.casefold() in value.casefold() or value.casefold() in named.casefold()


def describes_rows(mention: Mention, info: DataFrameInfo) -> bool:
    """A column naming each row (a name, an id) stands for the rows themselves: 'how many players'."""
    column = info.column(mention.column)
    rows = info.shape[0]
    return column is not None and column.kind in ("text", "category") and rows > 0 and column.unique >= 0.9 * rows


# --- words the reading did not place ------------------------------------------------------------

# The vocabulary of asking itself, general and closed: question and function words, the words of
# statistics, comparisons, time and shape, and nouns that stand for the table's rows. A content word
# outside it, and outside every column, value, date and number the reading placed, is an element
# the plan cannot be using: "日本の一人当たりGDPの最高値" answered over every country would be wrong.
_ASKING_JA: Final = re.compile(
    r"教えて|ください|下さい|でしょう|ですか|ますか|ました|について|における|に関して|として|とは|場合|全体|全部|"
    r"合計|総計|総数|平均|中央値|最大|最小|最高|最低|最多|最少|最も|一番|上位|下位|順位|以上|以下|未満|以外|超過|"
    r"比較|比率|割合|構成比|差|違い|倍|何|値|数値|件数|人数|行数|列数|回数|個数|種類|全員|全員|各|毎|別|"
    r"時点|現在|期間|年間|月間|週間|日間|年代|年度|年|月|日|週|曜日|時間|半期|四半期|上期|下期|"
    r"今年|昨年|去年|前年|今月|先月|前月|昨日|今日|直近|最近|最後|最初|初めて|以前|以降|前後|"
    r"データ|表|列|行|項目|結果|数|人|者|方|件|名|全|中|間|内|うち|ほう|方が|順|位|点|個|台|頭|社|回|"
    r"グラフ|チャート|図|一覧|リスト|ランキング|トップ|ワースト|ベスト|パーセント|パーセンタイル|ポイント|"
    r"分布|相関|推移|傾向|外れ値|欠損|重複|変化|増加|減少|伸び|上昇|低下|計算|集計|算出|比べ|比較|"
    # methods and units of analysis
    r"スコア|スピアマン|ピアソン|ケンドール|ログ|ベース|レコード|サンプル|合計値|平均値|最大値|最小値|"
    r"品目|項目|単位|基準|対象|条件|全体|全社|全件|ライン|境目|境界|"
    # units an answer is asked in
    r"グラム|キログラム|キロ|メートル|センチ|ミリ|リットル|ドル|ユーロ|ポンド|マイル|カロリー|ワット|"
    r"傾向|範囲|較差|絶対値|一人|ひとり"
)


def _words(text: str) -> list[str]:
    return text.split()


# Methods, measures and units named in English inside a question, capitalised or not.
_METHODS_EN: Final = frozenset(
    ("iqr", "z-score", "zscore", "spearman", "pearson", "kendall", "celsius", "fahrenheit", "usd", "jpy", "yen")
)
_ASKING_EN: Final = frozenset(
    _words(
        """
        a about above across after again against all all-time also am among an and any anyone anything are
        as at average avg be been before being below between big biggest both but by can case cases compare
        compared could count counts data dataset day days did do does during each either entire entries
        entry every few fewer fewest find first for from get give had has have having he her high higher
        highest his how i if in into is it its large larger largest last least less list low lower lowest
        many max maximum mean median min minimum month months more most much my no not number of off on one
        ones ones' only or other our out over overall people per percent percentage person persons please
        rank ranked ranking rate ratio record records row rows same share she should show since small
        smaller smallest so some sum table tell than that the their them then there these they this those
        through times to top total totals under until up value values was we were what when where which
        while who whole whom whose why will with within without would year years you your
        change changed changes changing grow grew grown growth rise rose risen fall fell fallen drop dropped
        increase increased increases decrease decreased decreases compare compares versus trend trends
        file files spreadsheet sheet sheets list listed included contained recorded shown appear appears
        altogether unique distinct different separate column columns
        missing null nulls empty blank outlier outliers duplicate duplicates duplicated correlation correlated
        distribution distributed percentile quantile quartile deviation standard variance summary describe
        statistics chart graph plot histogram scatter rule rules method methods threshold cutoff test score
        """
    )
)


# A number and its unit: 10mm, 5万ドル, 30℃, 25歳 — numbers are held against the plan on their own.
_QUANTITY: Final = re.compile(
    r"\d+(?:[.,]\d+)*\s*(?:[A-Za-z%％℃°]{1,5}|[万億千百]|[\u30a1-\u30fa\u30fc]{1,4}|[円歳度回件人台個点倍位年月日週])*"
)


def _unplaced(text: str, placed: list[tuple[int, int]], *, quantities: bool = False) -> str:
    """``text`` with the spans the reading placed blanked out (``\\x00``), and with ``quantities`` its
    numbers with their units (10mm, 25歳) too: what is left is what the plan may be leaving out."""
    chars = list(text)
    for start, end in placed:
        chars[start:end] = "\x00" * (end - start)
    rest = "".join(chars)
    return _QUANTITY.sub(lambda m: " " * len(m.group()), rest) if quantities else rest


def residue(text: str, placed: list[tuple[int, int]], language: Language) -> list[str]:
    """Names in ``text`` (normalised) that the reading did not place: a capitalised word inside a
    sentence (Japan, Microsoft), a katakana word (イングランド), a word right before a column it
    qualifies (日本の一人当たりGDP). Each would be a condition the plan silently leaves out."""
    rest = _unplaced(text, placed, quantities=True)
    found = []
    for match in _NAME_LIKE.finditer(rest):
        word = match.group()
        at = match.start()
        if _TABLE_NOUN.search(word):
            continue  # アクセスログ, 在庫データ, "the stock list": the table itself
        if _COUNTED.match(rest[match.end() : match.end() + 8]):
            continue  # ランナーは何人, 店舗の数: the rows being counted, no condition on them
        if re.match(r"\s*[(（]", rest[match.end() : match.end() + 4]):
            continue  # ページビュー（pageviews÷sessions）: a name the brackets define
        if word[0].isascii():
            acronym = language == "ja" and word.isupper()  # ATで…: a Japanese sentence's AT is no "at"
            starts = at == 0 or re.search(r"[.?!:;。？！]\s*$", rest[max(0, at - 8) : at]) is not None
            # "Compute the …" capitalises a verb, not a name; Appleの… opens a Japanese sentence with one
            english = re.match(r"\s+[A-Za-z]", rest[match.end() : match.end() + 2]) is not None
            sentence_start = starts and not acronym and (language == "en" or english)
            owner = word.endswith("'s") and word[:-2].lower() not in _ASKING_EN  # Amazon's; not What's
            base = word.lower().removesuffix("'s")
            if (base in _ASKING_EN and not acronym) or base in _METHODS_EN or (sentence_start and not owner):
                continue
            if not word[0].isupper():
                continue  # a lower-case word is English's own: only names are read here
        elif _KATAKANA.fullmatch(word):
            if _ASKING_JA.fullmatch(word):
                continue
        elif _ASKING_JA.fullmatch(re.sub(r"(?:別|ごと|毎)$", "", word)):
            continue  # 月別, 四半期別: a grouping by a word of asking
        elif _GROUPED.match(rest[match.end() : match.end() + 3]) or word.endswith(("別", "毎")):
            pass  # 銘柄ごとの最高値: a grouping by a column the reading did not find
        elif not (_KANJI.fullmatch(word) and rest[match.end() : match.end() + 2] == "の\x00") or _ASKING_JA.fullmatch(
            word
        ):
            continue
        found.append(word)
    return found


def value_like(text: str, placed: list[tuple[int, int]], info: DataFrameInfo) -> list[str]:
    """Lower-case words the reading did not place that look like a value of a category column
    ("professors" beside Prof, AsstProf): a condition the plan would silently leave out."""
    rest = _unplaced(text, placed)
    stems: dict[str, str] = {}
    for column in info.column_info:
        if column.kind in ("category", "boolean") and column.values and column.unique <= 50:
            for value in column.values:
                for word in re.findall(r"[a-z]{4,}", _split_camel(str(value)).casefold()):
                    stems.setdefault(word[:4], column.name)
    counted = COUNTED_NOUN.search(text)
    found = []
    for match in re.finditer(r"(?<![A-Za-z'])[a-z]{4,}(?![A-Za-z])", rest):
        word = match.group()
        if word in _ASKING_EN or word in _METHODS_EN:
            continue
        if counted is not None and match.start() == counted.start("noun"):
            continue  # "how many deaths were homicides": the rows counted, not a condition
        if word[:4] in stems:
            found.append(word)
    return found


# a negation right after a Japanese condition (が関わっていない, でない, 以外) or before an English one
_NEGATED_AFTER: Final = re.compile(
    r"^\s*(?:が|を|は|に|と|で)?\s*[\u3041-\u3096\u4e00-\u9fff]{0,6}?(?:ていない|てない|でない|じゃない|ではない|"
    r"していない|しない|しなかった|がない|のない|なし|無し|以外)"
)
_NEGATED_BEFORE: Final = re.compile(
    r"(?:\bnot|\bwithout|\bno|\bnon-?|\bnever|\bexcluding|\bexcept|n't)\s*(?:\w+\s+){0,2}$", re.IGNORECASE
)


def dropped_negations(text: str, values: list[tuple[int, int, str]], filters: list[Filter]) -> list[tuple[str, str]]:
    """Values the question negates (Business Associate が関わっていない, not in Texas) that the plan uses as a
    positive condition (== / in): the answer would be about the very rows the question excludes."""
    found = []
    for start, end, column in values:
        written = text[start:end]
        positive = [
            f
            for f in filters
            if f.column == column
            and f.op in ("==", "in")
            and (written.casefold() in f.text.casefold() or written in map(str, f.value if f.op == "in" else [f.value]))
        ]
        if not positive:
            continue
        after = _NEGATED_AFTER.match(text[end : end + 16])
        before = _NEGATED_BEFORE.search(text[max(0, start - 24) : start])
        if after or before:
            found.append((written, (after or before).group().strip()))  # type: ignore[union-attr]
    return found


# the thing a "which" question asks for: 一番多いメニューは？, 嵐はどれ, トップ3のピザ, which journal
_ASKED_NOUN: Final = re.compile(
    r"(?P<ja>[\u30a1-\u30fa\u30fc]{2,}|[\u4e00-\u9fff\u3005]{1,6})(?=\s*(?:は\s*(?:[?？]|どれ|どこ|誰|何|$)|を教えて|、?\s*(?:トップ|上位|ベスト)))"
    r"|(?:トップ|上位|ベスト)\s*\d+\s*(?:の)?(?P<ja_after>[\u30a1-\u30fa\u30fc]{2,}|[\u4e00-\u9fff\u3005]{1,6})"
    r"|\b(?:which|what)\s+(?:\w+\s+)?(?P<en>[a-z]{3,})\b",
    re.IGNORECASE,
)


def asked_nouns(text: str) -> set[str]:
    """The nouns a question asks to be named (メニュー of 一番多いメニューは？, journal of "which journal")."""
    found = set()
    for match in _ASKED_NOUN.finditer(text):
        word = match.group("ja") or match.group("ja_after") or match.group("en")
        found |= {word, word.removesuffix("s")} if word.isascii() else {word}
    return found


# 欠航が一番多かった日, 欠航は何件: a noun whose rows are counted
_COUNTED_SUBJECT: Final = re.compile(
    r"(?P<noun>[\u30a1-\u30fa\u30fc]{2,}|[\u4e00-\u9fff\u3005]{2,})(?:が|は|の)\s*"
    r"(?:(?:一番|いちばん|最も|もっとも)\s*(?:多|少)|何\s*(?:件|回|便|人)|(?:件数|回数|数)(?!量))"
)


def counted_subject(text: str, placed: list[tuple[int, int]], flags: list[str]) -> list[str]:
    """欠航が一番多かった日 over a table with a yes/no column (cancelled): the noun counted, unplaced, may be
    that flag's yes side rather than every row; counting every row would answer another question."""
    if not flags:
        return []
    rest = _unplaced(text, placed)
    found = []
    for match in _COUNTED_SUBJECT.finditer(rest):
        noun = match.group("noun")
        before = rest[max(0, match.start() - 1) : match.start()]
        # 100ドル以上の返品, 記録されていないランナー: a noun its clause qualifies names the rows
        qualified = before in ("の", "\x00") or (
            re.fullmatch(r"[\u3041-\u3096]", before) is not None and before not in "はでにもとがを"
        )
        if not qualified and not _TABLE_NOUN.search(noun) and not _ASKING_JA.fullmatch(noun):
            found.append(noun)
    return found


# "how many deaths …": the noun counted names the rows
COUNTED_NOUN: Final = re.compile(r"\bhow many\s+(?:of\s+the\s+)?(?P<noun>[a-z][\w'-]*)", re.IGNORECASE)


def unread_predicate(text: str, placed: list[tuple[int, int]]) -> list[str]:
    """In "how many <rows> <predicate>" with no condition read: the predicate's content words ("are in
    the labour force"), which a count of every row would silently leave out."""
    asked = COUNTED_NOUN.search(text)
    if asked is None:
        return []
    rest = _unplaced(text, placed)[asked.end() :]
    words = re.findall(r"(?<![A-Za-z'\x00])[A-Za-z]{4,}(?![A-Za-z\x00])", rest)
    return [w for w in words if w.casefold() not in _ASKING_EN and w.casefold() not in _METHODS_EN]


# a relative clause or a with-phrase after a noun ("runners who …"), not a question word opening the question
_CLAUSE: Final = re.compile(r"(?<=\w\s)(?:with|without|who|whose|having|where)\b[^,.;?!]*", re.IGNORECASE)


def unread_clause(text: str, placed: list[tuple[int, int]]) -> list[str]:
    """Content words of a "with …" or "who …" clause that the reading did not place ("cars with a manual
    transmission available", "customers who churned"): a condition the plan would silently leave out."""
    rest = _unplaced(text, placed, quantities=True)
    found = []
    for clause in _CLAUSE.finditer(rest):
        for word in re.finditer(r"(?<![A-Za-z'\x00])[a-z]{4,}(?![A-Za-z\x00])", clause.group()):
            if re.match(r"\s*\x00", clause.group()[word.end() : word.end() + 2]):
                continue  # "with party size": a word naming the column placed right after it
            if word.group() not in _ASKING_EN and word.group() not in _METHODS_EN and word.group() not in found:
                found.append(word.group())
    return found


# "on the short runs", "for the senior staff": an adjective before the rows' noun; "working in
# construction", "living in Texas": what a participle's phrase names
_QUALIFIER: Final = re.compile(
    r"\b(?:in|on|for|among|with|from)\s+(?:the|my|our|all)\s+(?P<adjective>[a-z]{3,})\s+[a-z]{3,}s\b"
    r"|\b(?![a-z]*thing\b)[a-z]{3,}ing\s+(?:in|at|for|on|from)\s+(?:the\s+)?(?P<object>[a-z]{4,})\b"
)
_NO_QUALIFIER: Final = frozenset({"whole", "full", "past", "recent", "given", "listed", "above", "following"})


def unread_qualifier(text: str, placed: list[tuple[int, int]]) -> list[str]:
    """An English word qualifying the rows that the reading did not place ("average pace on the short
    runs", "people working in construction"): the plan would answer over every row."""
    rest = _unplaced(text, placed, quantities=True)
    found = []
    for match in _QUALIFIER.finditer(rest):
        word = match.group("adjective") or match.group("object")
        if word not in _ASKING_EN and word not in _METHODS_EN and word not in _NO_QUALIFIER and word not in found:
            found.append(word)
    return found


def column_parts(text: str, placed: list[tuple[int, int]], info: DataFrameInfo, used: set[str]) -> list[str]:
    """Words the reading did not place that are part of the name of a column the plan does not use
    (子供 of 5歳以下の子供数): the question names that column, and the plan leaves it out."""
    rest = _unplaced(text, placed, quantities=True)
    unused = [fold(c.name) for c in info.column_info if c.name not in used]
    found = []
    for match in _NAME_LIKE.finditer(rest):
        word = match.group()
        folded = fold(word)
        if word[0].isascii() and (len(word) < 4 or folded in _ASKING_EN or folded in _METHODS_EN):
            continue
        if not word[0].isascii() and _ASKING_JA.fullmatch(word):
            continue
        if any(folded in name for name in unused) and not any(folded in fold(c) for c in used):
            found.append(word)
    return found


def _split_camel(value: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", value)


_GROUPED: Final = re.compile(r"ごと|毎に|別に|別の")
_COUNTED: Final = re.compile(
    r"(?:は|が)?\s*(?:全部で|全体で)?\s*何\s*(?:人|件|台|名|社|個|本|校|店|軒|頭|匹)|の(?:人数|件数|数)"
)
_NAME_LIKE: Final = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}|[\u4e00-\u9fff\u3005]{2,}|[A-Za-z][A-Za-z'\-]*[A-Za-z]")
_TABLE_NOUN: Final = re.compile(r"(?:データ|ログ|リスト|一覧|記録|履歴|台帳|名簿|ファイル|テーブル)$")
_KATAKANA: Final = re.compile(r"[\u30a1-\u30fa\u30fc]+")
_KANJI: Final = re.compile(r"[\u4e00-\u9fff\u3005]+")
