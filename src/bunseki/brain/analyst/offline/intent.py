"""Typed pieces of what a question asks, filled against the table's schema and values.

The parser (``reading.read``) finds columns, values, conditions and periods; this module turns
them into the parts of an analysis intent the older pattern rules missed:

- ``expression``: a measure described in words or symbols (金額÷数量, tip divided by total_bill,
  temperature times 1.8 plus 32, (国語+数学+英語)/3), built only from the table's numeric columns;
- ``flag_filters``: a yes/no column named by a word ("smokers", 会員, 在宅勤務をしている) becomes
  the condition column = its positive value (or its negative one: 非会員, non-smokers, ていない);
- ``ratio``: a share of a whole (東京店の売上は全体の何％？) or a change between two subsets
  (2023年から2024年で何％伸びた？, A は B より何％高い？), answered as a percentage;
- ``answer_format``: the answers asked for by name (``@name[value]``), one slot each.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from bunseki.brain.analyst.offline.columns import SUFFIX_SCORE, ColumnMatcher, Mention
from bunseki.brain.analyst.offline.plan import Derived, Filter, Period, Ratio, Slot
from bunseki.brain.analyst.offline.vocab import PERCENT_ASKED
from bunseki.brain.lexicon import FLAGS
from bunseki.brain.text import fold
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

# --- measures described as arithmetic ------------------------------------------------------

_OPERATOR_WORDS: tuple[tuple[str, str], ...] = (
    ("/", r"÷|/|divided by"),
    ("*", r"×|\*|times|multiplied by"),
    ("+", r"\+|plus"),
    ("-", r"−|-|minus"),
)
# Japanese phrasings that put the operator after both operands: AをBで割った, AとBの積.
_JA_BINARY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("/", re.compile(r"(?P<a>§\d+§)\s*を\s*(?P<b>§\d+§|\d+(?:\.\d+)?)\s*で割")),
    ("*", re.compile(r"(?P<a>§\d+§)\s*(?:と|に)\s*(?P<b>§\d+§|\d+(?:\.\d+)?)\s*(?:の積|を掛け|をかけ)")),
    ("-", re.compile(r"(?P<a>§\d+§)\s*と\s*(?P<b>§\d+§)\s*の差")),
    ("+", re.compile(r"(?P<a>§\d+§)\s*と\s*(?P<b>§\d+§)\s*の和")),
)
_OPS: dict[str, Literal["/", "*", "+", "-"]] = {"/": "/", "*": "*", "+": "+", "-": "-"}
_OPERAND = r"(?:\(\s*)*(?:§\d+§|\d+(?:\.\d+)?)(?:\s*\))*"
_RUN = re.compile(rf"{_OPERAND}(?:\s*[-+*/]\s*{_OPERAND})+")


def expression(text: str, mentions: list[Mention], info: DataFrameInfo) -> Derived | None:
    """The per-row formula the question defines over numeric columns, if it defines one."""
    numeric = [m for m in mentions if (c := info.column(m.column)) is not None and c.kind == "number"]
    if not numeric:
        return None
    averaged = row_mean(text, numeric)
    if averaged is not None:
        return averaged
    skeleton, cursor = [], 0
    for number, mention in enumerate(numeric):
        skeleton += [text[cursor : mention.start], f"§{number}§"]
        cursor = mention.end
    skeleton.append(text[cursor:])
    marked = "".join(skeleton)
    for op, pattern in _JA_BINARY:
        marked = pattern.sub(rf"\g<a> {op} \g<b>", marked)
    for op, words in _OPERATOR_WORDS:
        marked = re.sub(rf"(?<=[§\d)])\s*(?:{words})\s*(?=[§\d(])", f" {op} ", marked, flags=re.IGNORECASE)
    runs = [m for m in _RUN.finditer(marked) if "§" in m.group()]
    if not runs:
        return None
    run = _balanced(max(runs, key=lambda m: len(m.group())).group())
    used = [numeric[int(i)].column for i in re.findall(r"§(\d+)§", run)]
    if len(run) < 3 or not used:
        return None
    code = re.sub(r"§(\d+)§", lambda m: f"data[{numeric[int(m.group(1))].column!r}]", run)
    shown = re.sub(r"§(\d+)§", lambda m: numeric[int(m.group(1))].column, run)
    ops = re.findall(r"[-+*/]", run)
    return Derived(
        name=re.sub(r"\s+", "", shown),
        left=used[0],
        op=_OPS[ops[0]],
        right=used[1] if len(used) > 1 else used[0],
        expression=code,
    )


_JOINER = re.compile(r"^\s*(?:,|、|・|と|and|,\s*and|&)\s*$", re.IGNORECASE)
_ROW_WISE = re.compile(
    r"\bper (?:student|row|person|record|employee|item|day|entry)|\bfor each\b|\beach (?:student|row|person)|"
    r"\brow[- ]wise|一人ひとり|一人一人|一人あたり|各生徒|生徒ごと|行ごと|各行|人ごと|それぞれの",
    re.IGNORECASE,
)
_AVERAGE_BEFORE = re.compile(r"(?:average|mean)\s+(?:of\s+)?(?:the\s+)?$", re.IGNORECASE)
_AVERAGE_AFTER = re.compile(r"^\s*(?:の)?\s*(?:平均|average|mean)")


def row_mean(text: str, numeric: list[Mention]) -> Derived | None:
    """'the average of 国語, 数学 and 英語 per student', '国語と数学と英語の平均を一人ひとり': a mean across columns."""
    if not _ROW_WISE.search(text):
        return None
    for start in range(len(numeric)):
        run = [numeric[start]]
        for mention in numeric[start + 1 :]:
            if not _JOINER.match(text[run[-1].end : mention.start]):
                break
            run.append(mention)
        columns = list(dict.fromkeys(m.column for m in run))
        if len(columns) < 2:
            continue
        before, after = text[max(0, run[0].start - 24) : run[0].start], text[run[-1].end : run[-1].end + 12]
        if _AVERAGE_BEFORE.search(before) or _AVERAGE_AFTER.match(after):
            summed = " + ".join(f"data[{column!r}]" for column in columns)
            return Derived(
                name=f"({'+'.join(columns)})/{len(columns)}",
                left=columns[0],
                op="+",
                right=columns[-1],
                expression=f"({summed}) / {len(columns)}",
            )
    return None


def column_change(text: str, numeric: list[Mention]) -> tuple[str, str] | None:
    """(base, compared) when a change is asked between two measures: 国語に比べて数学は何％低い."""
    columns = list(dict.fromkeys(m.column for m in numeric))
    if len(columns) != 2:
        return None
    first = next(m for m in numeric if m.column == columns[0])
    second = next(m for m in numeric if m.column == columns[1])
    after_first = text[first.end : first.end + 12]
    # "A に比べて B", "A より B": the first named is the base; "B than A", "B compared with A": the second.
    if _BASE_AFTER.match(re.sub(r"^\s*の?\s*(?:平均|合計)?\s*(?:点|値|額)?", "", after_first)):
        return columns[0], columns[1]
    if _BASE_BEFORE.search(text[: second.start].rstrip()) or _BASE_AFTER.match(text[second.end : second.end + 12]):
        return columns[1], columns[0]
    return None


def _balanced(run: str) -> str:
    """The run without parentheses it does not close or open itself."""
    run = run.strip()
    while run.startswith("(") and run.count("(") > run.count(")"):
        run = run[1:].lstrip()
    while run.endswith(")") and run.count(")") > run.count("("):
        run = run[:-1].rstrip()
    return run


# --- yes/no columns named by a word ---------------------------------------------------------

# "1"/"0": a flag stored as a number (survived 1/0, manual 1/0) is named as a yes or a no as well.
_POSITIVE = {"yes", "y", "true", "t", "1", "はい", "有", "有り", "あり", "○", "◯", "済", "該当"}
_NEGATIVE = {"no", "n", "false", "f", "0", "いいえ", "無", "無し", "なし", "×", "未", "非該当"}
_NEGATED_BEFORE = re.compile(
    r"(?:非|不|未|\bnon-?|\bnot\s+(?:a\s+)?|\bno\s+|\bwithout\s+(?:any\s+)?|"
    r"(?:\bnot|n't|\bnever)\s+(?:[a-z]+\s+){1,2})$",  # "do not work remotely", "don't have children"
    re.IGNORECASE,
)
_NEGATED_AFTER = re.compile(
    r"^\S{0,6}?(?:ていない|でない|ではない|じゃない|しない|なし|無し|無い|がない|のない|してない)|"
    r"^\s*(?:の|が)?\s*(?:いない|いなかった|なかった)|^\s*(?:=|は)?\s*(?:no|false)\b",
    re.IGNORECASE,
)


def flag_filters(
    text: str, mentions: list[Mention], info: DataFrameInfo, existing: list[Filter], group_by: str | None
) -> list[Filter]:
    """Conditions for yes/no columns the question names without naming a value."""
    conditioned = {f.column for f in existing}
    found: dict[str, Filter] = {}
    for mention in mentions:
        column = info.column(mention.column)
        if column is None or column.name in conditioned or column.name == group_by:
            continue
        sides = yes_no(column.values or [])
        if sides is None:
            continue
        if _BOTH_SIDES.match(text[mention.end : mention.end + 6]):
            continue  # 子供の有無別: both sides, a grouping, not a condition
        if mention.score <= SUFFIX_SCORE and not _SAYS_YES_OR_NO.match(text[mention.end : mention.end + 10]):
            continue  # V型エンジン names a kind of エンジン, not 直列エンジン = yes: only 組合に加入していない does
        negated = bool(_NEGATED_BEFORE.search(text[: mention.start]) or _NEGATED_AFTER.search(text[mention.end :]))
        value = sides[1] if negated else sides[0]
        before = _NEGATED_BEFORE.search(text[: mention.start])
        after = _NEGATED_AFTER.search(text[mention.end :])
        shown = text[before.start() if before else mention.start : mention.end + (after.end() if after else 0)]
        filters = found.setdefault(column.name, Filter(column=column.name, op="==", value=value, text=shown))
        if filters.op == "==" and filters.value != value:  # both sides named (会員と非会員): the pair, in order
            pair = f"{filters.text}|{shown}"
            found[column.name] = Filter(column=column.name, op="in", value=[filters.value, value], text=pair)
    for name, single in list(found.items()):
        flagged = info.column(name)
        sides = yes_no(flagged.values or []) if flagged else None
        other = _OTHER_SIDE.search(text) or _OTHER_SIDE_EN.search(text)
        if single.op == "==" and sides and other:  # 在宅勤務ありの…は、なしと比べて: both sides, named one first
            both = [single.value, sides[1] if single.value == sides[0] else sides[0]]
            found[name] = Filter(column=name, op="in", value=both, text=f"{single.text}|{other.group('side')}")
    return list(found.values())


# The other side of a yes/no comparison named by itself: "…、なしと比べて", "… than those without".
_OTHER_SIDE = re.compile(
    r"(?P<side>なし|無し|ない人|ない方|ない場合|ありません|\bwithout\b|\bthose who (?:do|did)n'?t\b)\s*"
    r"(?:の(?:人|方|場合))?\s*(?:と比べ|に比べ|と比較|より|に対し)",
    re.IGNORECASE,
)


# "… than people without", "compared with those who don't": the other side after the comparison word.
_OTHER_SIDE_EN = re.compile(
    r"\b(?:than|versus|vs\.?|compared (?:to|with))\s+(?:(?:the\s+)?(?:people|those|ones|others|[a-z]+s)\s+)?"
    r"(?P<side>without|with no|who (?:do|did)n'?t|who (?:are|were) not|not)\b",
    re.IGNORECASE,
)
_BOTH_SIDES = re.compile(r"^\s*の?\s*(?:有無|あるなし|ありなし)")
_SAYS_YES_OR_NO = re.compile(
    r"^\s*(?:が|は|に)?\s*(?:あり|有り|なし|無し|ある|ない|有|無)|^\S{0,4}?(?:していない|している|してない|した|しない)|"
    r"^\s*(?:=|は|が)?\s*(?:yes|no|true|false)\b",
    re.IGNORECASE,
)


def flag_words(text: str, info: DataFrameInfo, existing: list[Filter]) -> tuple[list[Filter], list[Mention]]:
    """Yes/no columns named by what their sides mean (亡くなった乗客: survived = no), and where."""
    conditioned = {c for f in existing for c in f.columns()}
    lowered = text.lower()
    found: list[Filter] = []
    mentions: list[Mention] = []
    for column in info.column_info:
        sides = yes_no(column.values or [])
        if sides is None:
            continue
        name = fold(column.name)
        for names, positive, negative in FLAGS:
            if not any(word in name for word in names):
                continue
            hits = [(m, sides[1]) for w in negative if (m := _word_at(lowered, w))]
            yes = [(m, sides[0]) for w in positive if (m := _word_at(lowered, w))]
            yes = [(m, v) for m, v in yes if not any(n.start() <= m.start() < n.end() for n, _ in hits)]
            if hits and yes:  # 既婚者と未婚者で: both sides, in the order named
                first, second = sorted([hits[0], yes[0]], key=lambda hit: hit[0].start())
                found.append(
                    Filter(
                        column=column.name,
                        op="in",
                        value=[first[1], second[1]],
                        text=f"{first[0].group()}|{second[0].group()}",
                    )
                )
                for match, _ in (first, second):
                    mentions.append(
                        Mention(column.name, match.start(), match.end(), 0.8, text[match.start() : match.end()])
                    )
                break
            if column.name in conditioned:
                break  # one side already read from the column's name
            hits = hits or yes
            hits = hits or _said_of(lowered, names, sides)  # 子供のいない, 子供がいる: the name, then あり/なし
            both = next(
                (m for w in names if not w.isascii() and (m := re.search(re.escape(w) + r"の?有無", lowered))), None
            )
            if both is not None and not hits:  # 子供の有無別: the column itself, both sides
                mentions.append(Mention(column.name, both.start(), both.end(), 0.8, text[both.start() : both.end()]))
            elif hits:
                match, value = hits[0]
                found.append(Filter(column=column.name, op="==", value=value, text=match.group()))
                mentions.append(
                    Mention(column.name, match.start(), match.end(), 0.8, text[match.start() : match.end()])
                )
            break
    return found, mentions


_ABSENT: Final = re.compile(
    r"(?!の有無)(?:の|が|は|も)?\s*(?:い|あ)?(?:ない|なし|無し|無い|いなかった|なかった)|(?:の|が)?\s*無(?!料)"
)
_PRESENT: Final = re.compile(r"(?:の|が|は)?\s*(?:いる|ある|あり|有り|いた|あった)|(?:が|の)?\s*有(?!料|効|無)")


def _said_of(lowered: str, names: tuple[str, ...], sides: tuple[str, str]) -> list[tuple[re.Match[str], str]]:
    """A yes/no column's name followed by whether it holds: 子供のいない → no, 子供がいる → yes."""
    for word in names:
        if word.isascii() or (match := _word_at(lowered, word)) is None:
            continue
        after = lowered[match.end() : match.end() + 8]
        for pattern, side in ((_ABSENT, sides[1]), (_PRESENT, sides[0])):
            if said := pattern.match(after):
                span = re.search(re.escape(word) + re.escape(said.group()), lowered)
                if span is not None:
                    return [(span, side)]
    return []


def _word_at(lowered: str, word: str) -> re.Match[str] | None:
    pattern = rf"(?<![a-z]){re.escape(word)}(?![a-z])" if word.isascii() else re.escape(word)
    return re.search(pattern, lowered)


def yes_no(values: list[str]) -> tuple[str, str] | None:
    """(positive, negative) when a column holds exactly one yes-like and one no-like value."""
    if len(values) != 2:
        return None
    positive = [v for v in values if str(v).strip().casefold() in _POSITIVE]
    negative = [v for v in values if str(v).strip().casefold() in _NEGATIVE]
    if len(positive) == 1 and len(negative) == 1:
        return positive[0], negative[0]
    return None


# --- shares and changes as percentages -----------------------------------------------------

# The words asking for a percentage, and any % or ratio word at all (a share or change is then read)
ASKS_PERCENT = re.compile(
    PERCENT_ASKED + r"|[%％]|percent|パーセント|比率|share|fraction|伸長率|前年比|前月比|前年同期比|"
    r"\byoy\b|\bmom\b|year over year|month over month",
    re.IGNORECASE,
)
_SHARE = re.compile(r"割合|比率|構成比|シェア|占め|全体|\bshare\b|proportion|fraction|\bof all\b|\bof total\b", re.I)
_CHANGE = re.compile(
    r"伸び|伸長|増え|減っ|減り|増加|減少|成長|変わ|変化|増減|高い|低い|多い|少ない|大きい|小さい|違|"
    r"\bgrow|\bgrew|increase|decrease|\bchange|\bhigher\b|\blower\b|\blarger\b|\bsmaller\b|\bmore\b|\bless\b|"
    r"\bfewer\b|\bdrop|\bfell\b|\brose\b",
    re.IGNORECASE,
)
_BASE_AFTER = re.compile(r"^\s*(?:より|に比べ|と比べ|と比較|に対し|than\b)", re.IGNORECASE)
_BASE_BEFORE = re.compile(
    r"(?:\bthan|\bcompared (?:to|with)|\bversus|\bvs\.?)(?:\s+(?:the|at|in|for|on|of|with))*\s*$", re.IGNORECASE
)


# "~" between two digits is a month range inside one period (上期（1〜6月）), not a joiner of two periods
_RANGE_WORDS = re.compile(
    r"から|まで(?:に|の間に|の間で)?|(?<!\d)~|~(?!\d)|→|\bto\b|\bthrough\b|\band\b|\bfrom\b|\bbetween\b", re.IGNORECASE
)


def asks_change(text: str) -> bool:
    """A percent change is asked (何％伸びた, by what percent did … grow)."""
    return bool(ASKS_PERCENT.search(text) and _CHANGE.search(text) and not _SHARE.search(text))


def as_two_periods(text: str) -> str:
    """'2023年から2024年' names two periods to compare, not one range: the joiner is blanked (same length)."""
    return _RANGE_WORDS.sub(lambda m: "、" * len(m.group()), text)


def ratio(
    text: str,
    filters: list[Filter],
    periods: list[Period],
    date_column: str | None,
    numeric: list[Mention] | None = None,
    language: Language = "ja",
) -> Ratio | None:
    """The share or change the question asks for as a percentage; None when it asks for neither."""
    if not ASKS_PERCENT.search(text):
        return None
    change = _CHANGE.search(text) and not _SHARE.search(text)
    if change or (not _SHARE.search(text) and len(periods) >= 2):
        found = _change(text, filters, periods, date_column)
        if found is not None:
            return found
        measures = column_change(text, numeric or []) if change else None
        if measures is not None:  # 国語に比べて数学は何％低い: one measure against another, same rows
            first, second = measures
            return Ratio(kind="change", base_column=first, part_column=second, base_label=first, part_label=second)
    if not _SHARE.search(text) and not re.search(r"何\s*[%％]|何パーセント|percent", text, re.IGNORECASE):
        return None
    singled = [f for f in filters if f.op in ("==", "!=", ">", ">=", "<", "<=", "between") and f.column != date_column]
    if not singled:
        return None
    lowered = text.lower()
    # the part is the condition said last: "of passengers under 10, how many survived", 乗客のうち生存した人
    part = max(enumerate(singled), key=lambda item: (lowered.rfind((item[1].text or "").lower()), item[0]))[1]
    # 東京 names itself; 1000 alone does not: a bound is said with its column (単価 が 1000 以上)
    label = part.text or str(part.value) if part.op in ("==", "!=") else part.describe(language)
    return Ratio(kind="share", part=[part], part_label=label)


def _change(text: str, filters: list[Filter], periods: list[Period], date_column: str | None) -> Ratio | None:
    if len(periods) >= 2 and date_column:
        first, second = sorted(periods[:2], key=lambda p: p.start)  # a change runs forward in time
        return Ratio(
            kind="change",
            base=[Filter(column=date_column, op="between", value=[first.start, first.end], text=first.label)],
            part=[Filter(column=date_column, op="between", value=[second.start, second.end], text=second.label)],
            base_label=first.label,
            part_label=second.label,
        )
    pairs = [f for f in filters if f.op == "in" and isinstance(f.value, list) and len(f.value) == 2]
    if not pairs:
        return None
    pair = pairs[0]
    a, b = (str(v) for v in pair.value)
    at_a, at_b = _locate(text, a, pair, 0), _locate(text, b, pair, 1)
    b_len = len(b) if text.lower().find(b.lower()) >= 0 else len(re.split(r"\||, ", pair.text)[-1])
    compared_to_b = (
        at_b >= 0
        and at_a <= at_b
        and (_BASE_AFTER.match(text[at_b + b_len :]) or _BASE_BEFORE.search(text[:at_b].rstrip()))
    )
    # "A は B より", "A than B": B is the base; otherwise the first named is ("A から B", "from A to B").
    base, part = (b, a) if compared_to_b else (a, b)
    return Ratio(
        kind="change",
        base=[Filter(column=pair.column, op="==", value=base, text=base)],
        part=[Filter(column=pair.column, op="==", value=part, text=part)],
        base_label=base,
        part_label=part,
    )


def _locate(text: str, value: str, pair: Filter, index: int) -> int:
    """Where the question names one value of a pair (by the words it used, for yes/no columns)."""
    lowered = text.lower()
    found = lowered.find(value.lower())
    if found >= 0:
        return found
    pieces = [piece.strip().lower() for piece in re.split(r"\||, ", pair.text)]
    if len(pieces) != 2:
        return -1
    first = lowered.find(pieces[0])
    # the second words are looked for after the first ("smokers" after "non-smokers")
    return first if index == 0 else lowered.find(pieces[1], first + len(pieces[0]) if first >= 0 else 0)


# --- the answer format the question asks for ------------------------------------------------

# Bounded name and placeholder: "@a[@a[@a[…" without a closing bracket is otherwise rescanned
# to the end of the line from every "@", which is quadratic.
FORMAT_SLOT = re.compile(r"@(?P<name>[A-Za-z_]\w{0,79})\[(?P<placeholder>[^\]\n]{0,200})\]")
_NEARBY = 2000  # characters after a slot where the format may say more about it
_WORD_DECIMALS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DECIMALS = re.compile(r"(?P<n>\d|zero|one|two|three|four|five|six)\s+decimal(?:\s+places?|s)?", re.IGNORECASE)
_INTEGER = re.compile(r"\b(?:integer|whole number|rounded to the nearest (?:integer|whole)|no decimal)", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“']([^\"”'\n]{1,40})[\"”']")


def answer_format(text: str) -> list[Slot]:
    """The answers a question asks for by name (``@name[value]``), one slot each, not yet filled.

    Each slot carries what the format says of it: its description, its rounding and the values
    it may take ("yes"/"no"); ``formats.fill`` decides what it measures.
    """
    found = list(FORMAT_SLOT.finditer(text))
    placeholders = {m.group("placeholder").strip().strip('"') for m in found}
    slots: list[Slot] = []
    for index, match in enumerate(found):
        name = match.group("name")
        if any(slot.name == name for slot in slots):
            continue
        description = _slot_description(text, match, found[index + 1] if index + 1 < len(found) else None)
        slots.append(
            Slot(
                name=name,
                description=description,
                decimals=_decimals(description, text),
                choices=_choices(description, match.group("placeholder"), placeholders),
            )
        )
    return slots


def _slot_description(text: str, match: re.Match[str], following: re.Match[str] | None) -> str:
    """What the format says about this slot: the sentence(s) that mention its placeholder."""
    placeholder = match.group("placeholder").strip()
    end = following.start() if following else len(text)
    own = text[match.end() : end]
    mentions = []
    if placeholder:
        for sentence in re.split(r"(?<=[.;])\s+|\n", text[match.start() : match.start() + _NEARBY]):
            if placeholder in sentence and sentence.strip() and not sentence.strip().startswith("@"):
                mentions.append(sentence.strip())
    return " ".join([own.strip(), *mentions]).strip()[:600]


def _decimals(description: str, text: str) -> int | None:
    for source in (description, text):
        match = _DECIMALS.search(source)
        if match:
            value = match.group("n").lower()
            return int(value) if value.isdigit() else _WORD_DECIMALS[value]
        if _INTEGER.search(source):
            return 0
    return None


def _choices(description: str, placeholder: str, placeholders: set[str]) -> list[str]:
    """The values a slot may take, when the format lists them ("yes" or "no", True/False).

    A quoted word that is the placeholder of any slot of the format ("r_value" is a number…) is
    what the format explains, not a value to choose.
    """
    found = [value.strip() for value in _QUOTED.findall(placeholder) + _QUOTED.findall(description)]
    placeholder_words = {placeholder.strip(), placeholder.strip().strip('"'), *placeholders}
    choices = [
        value for value in dict.fromkeys(found) if value and value not in placeholder_words and len(value.split()) <= 4
    ]
    if not choices and re.search(r"\bboolean\b|\bTrue\b[^.]{0,200}\bFalse\b", placeholder + " " + description):
        choices = ["True", "False"]
    return choices


# --- a price per unit named by a word -----------------------------------------------------

# 単価 is an amount of money per unit; 客単価 is per customer (客 → the table's 客数 column), 坪単価 per
# tsubo (坪 → 坪数).
_UNIT_PRICE = re.compile(r"(?P<per>[\u4e00-\u9fff\u30a0-\u30ff]{0,4})単価")


def unit_price(text: str, matcher: ColumnMatcher) -> Derived | None:
    """'X単価' as the money column over the count of X (else over the quantity column), when both exist.

    Only the question's word and the table's columns decide it: the money column is the one the
    table calls its amount, sales or price, the denominator the numeric column whose name starts with X (or holds it).
    """
    found = _UNIT_PRICE.search(text)
    if found is None:
        return None
    info = matcher.info
    per = re.sub(r"^(?:平均|最大|最小|最高|最低|合計|中央値?)+", "", found.group("per"))
    if not per and matcher.resolve("単価"):
        return None  # 平均単価 of a table with a 単価 column: that column, not amount / quantity
    money = matcher.resolve("金額") or matcher.resolve("売上") or matcher.resolve("価格")
    counts = [c for c in info.column_info if c.kind == "number" and c.name != money]
    # the longest end of the word before 単価 that starts a numeric column's name: 平均客 → 客 → 客数
    named = next(
        (
            (per[-size:], c.name)
            for size in range(len(per), 0, -1)
            for starts in (True, False)  # a name that starts with the word first (客数), else one holding it (来店客数)
            for c in counts
            if (c.name.startswith(per[-size:]) if starts else per[-size:] in c.name)
        ),
        None,
    )
    prefix, denominator = named or ("", matcher.resolve("数量"))
    if money is None or denominator is None or money == denominator:
        return None
    name = f"{prefix}単価"
    return Derived(name=name, left=money, op="/", right=denominator)


_REVENUE = re.compile(
    r"売上(?!件数|数|回数)|売り上げ|販売額|販売金額|\brevenue\b|\bsales\b(?!\s+(?:count|volume|number))", re.I
)
_UNIT_PRICE_COLUMN = re.compile(r"単価|unit.?price|^price$|price.?each", re.I)
_PRICE_COLUMN = re.compile(r"価格|値段|代金|\bprice\b", re.I)
_QUANTITY_COLUMN = re.compile(r"数量|個数|販売数|\bqty\b|quantity|^units$", re.I)


REVENUE_NAMES = ("sales", "売上")


def revenue(text: str, matcher: ColumnMatcher) -> Derived | None:
    """売上 asked of a table that records each line's unit price and quantity but has no sales column:
    unit price × quantity. A column the word already names (売上金額, 金額, Revenue) always wins."""
    found = _REVENUE.search(text)
    if found is None or matcher.resolve(found.group()) or matcher.resolve("売上"):
        return None
    if re.search(r"\b(?:how many|number of)\s+sales\b", text, re.I):
        return None  # a count of sales, not their amount
    numbers = [c.name for c in matcher.info.column_info if c.kind == "number"]
    price = next((name for name in numbers if _UNIT_PRICE_COLUMN.search(name) or _PRICE_COLUMN.search(name)), None)
    quantity = next((name for name in numbers if _QUANTITY_COLUMN.search(name)), None)
    name = REVENUE_NAMES[0] if found.group().isascii() else REVENUE_NAMES[1]
    if price is not None and quantity is None and len([n for n in numbers if _PRICE_COLUMN.search(n)]) == 1:
        # one price per row and no quantity: each row is one item sold, and its price is what it brought in
        return Derived(name=name, left=price, op="*", right=price, expression=f"data[{price!r}]")
    if price is None or quantity is None or price == quantity:
        return None
    return Derived(name=name, left=price, op="*", right=quantity)
