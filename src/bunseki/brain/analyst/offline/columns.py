"""Mapping the words of a question to columns and to values of columns.

A column is found by its exact name, by a separator- and case-insensitive variant, by a
synonym of a concept its name contains (売上 for 売上金額, sales for Revenue), by a prefix of
a Japanese name, or by a close spelling. A value is found in the distinct values of
low-cardinality columns, also without a trailing 店/県/都/府 (新宿 for 新宿店).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bunseki.brain.analyst.offline.text import Spans
from bunseki.brain.lexicon import concepts_for, value_forms
from bunseki.brain.text import fold, normalize
from bunseki.brain.transliteration import (
    is_katakana,
    katakana_skeleton,
    katakana_words,
    latin_skeletons,
    latin_words,
    sound_alike,
)
from bunseki.data.summary import ColumnInfo, DataFrameInfo

# English words too common to be a misspelt column name ("with" is no Width)
_FUNCTION_WORD_LIST = (
    "with from that this these those have were what when where which than then there their they them over under "
    "into also each only some more most less many much very does done will would could should about after before "
    "between during without within"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_LIST.split())
_SEX_CODES = {"m": "male", "f": "female"}


def _names_sex(name: str) -> bool:
    return any("sex" in concept.words for concept, _ in concepts_for(name))


def _split_name(name: str) -> re.Pattern[str]:
    """The name with a particle after any of its characters but the last (妻が大卒, 妻の大卒 for 妻大卒)."""
    cuts = [re.escape(name[:cut]) + _PARTICLE + re.escape(name[cut:]) for cut in range(1, len(name))]
    return re.compile("|".join(cuts))


_CJK = re.compile(r"[\u4e00-\u9fff\u3005\u30a1-\u30fa\u30fc]+")
_PARTICLE = "(?:が|の|は|を)"
SPLIT_SCORE = 0.85  # a column's name with a particle inside it
VALUE_SUFFIXES = ("店", "県", "都", "府", "市", "区", "町", "村", "部", "課", "支店", "地方")
_ASCII = re.compile(r"^[\x00-\x7f]+$")
_ID_WORD = re.compile(r"(?:^|\s)(?:id|no|code|number|key)$|番号$|コード$|ID$", re.IGNORECASE)
_COMMON_WORDS = {
    "the",
    "and",
    "for",
    "per",
    "with",
    "total",
    "number",
    "count",
    "value",
    "values",
    "rate",
    "max",
    "min",
    "avg",
    "mean",
    "sum",
    "new",
    "old",
    "date",
    "time",
    "type",
    "name",
    "year",
}


@dataclass(frozen=True)
class Mention:
    """A column named in the question, at ``start:end`` of the normalised text."""

    column: str
    start: int
    end: int
    score: float
    text: str
    others: tuple[str, ...] = ()  # columns of the same kind the same words name as well (気温: 最高気温, 最低気温)


@dataclass(frozen=True)
class ValueMention:
    """A value of a column named in the question (関東 for 地域 = 関東)."""

    column: str
    value: str
    start: int
    end: int


class ColumnMatcher:
    """Finds columns and values of one table in questions about it."""

    def __init__(self, info: DataFrameInfo) -> None:
        self.info = info
        self._name_cache: dict[str, dict[str, str]] = {}
        self._sounds: dict[str, dict[str, set[tuple[str, str]]]] | None = None
        self._aliases: list[tuple[str, str, float]] = []  # (alias, column, score)
        for column in info.column_info:
            # return_id names each row, not a kind of thing (a measure with many values is still a measure)
            many = column.unique > 0.5 * max(info.shape[0], 1)
            named_rows = many and (column.kind != "number" or bool(_ID_WORD.search(fold(column.name))))
            self._aliases += [(alias, column.name, score) for alias, score in _aliases(column.name, named_rows)]
            words = fold(column.name).split()
            if (
                column.kind != "number"
                and len(words) == 2
                and words[1] in ("id", "no", "code", "name")
                and not named_rows
            ):
                # sensor_id holds sensors: "which sensor", "how many sensors" (a numeric id only numbers rows)
                self._aliases += [(words[0], column.name, 0.6), (_plural(words[0]), column.name, 0.6)]
        # A head noun two columns share (気温 of 最高気温 and 最低気温) names neither of them.
        claimed: dict[str, set[str]] = {}
        for alias, column_name, score in self._aliases:
            if score == SUFFIX_SCORE:
                claimed.setdefault(alias, set()).add(column_name)
        self._aliases = [
            item for item in self._aliases if item[2] != SUFFIX_SCORE or len(claimed.get(item[0], ())) == 1
        ]
        self._aliases.sort(key=lambda item: (-len(item[0]), -item[2]))
        # Words that name two columns of one kind equally well (temperature: 最高気温 and 最低気温).
        best: dict[str, tuple[float, set[str]]] = {}
        for alias, column_name, score in self._aliases:
            top, holders = best.get(alias, (score, set()))
            if score > top:
                best[alias] = (score, {column_name})
            elif score == top:
                best[alias] = (top, holders | {column_name})
        self._split_names = [
            (c.name, _split_name(c.name)) for c in info.column_info if len(c.name) >= 3 and _CJK.fullmatch(c.name)
        ]
        self._shared = {
            alias: holders
            for alias, (_, holders) in best.items()
            if len(holders) > 1 and len(self._kinds(holders)) == 1
        }

    def _kinds(self, columns: set[str]) -> set[str]:
        return {self.kind(c) for c in columns}

    def kind(self, column: str) -> str:
        info = self.info.column(column)
        return info.kind if info else "text"

    def columns(self, text: str) -> list[Mention]:
        """Non-overlapping column mentions in ``text`` (normalised), in order of position."""
        text = normalize(text)
        lowered = text.lower()
        found: list[Mention] = []
        for alias, column, score in self._aliases:
            for start in _occurrences(lowered, alias):
                found.append(Mention(column, start, start + len(alias), score, text[start : start + len(alias)]))
        found += self._fuzzy(lowered)
        found += self._split(lowered, text)
        chosen = _non_overlapping(found, key=lambda m: (-m.score, -(m.end - m.start)))
        return [
            replace(m, others=tuple(sorted(self._shared[alias] - {m.column})))
            if (alias := lowered[m.start : m.end]) in self._shared and m.column in self._shared[alias]
            else m
            for m in chosen
        ]

    def _split(self, lowered: str, text: str) -> list[Mention]:
        """A Japanese column name written with a particle inside it: 妻が大卒 for 妻大卒, 夫の年収 for 夫年収."""
        return [
            Mention(name, match.start(), match.end(), SPLIT_SCORE, text[match.start() : match.end()])
            for name, pattern in self._split_names
            for match in pattern.finditer(lowered)
        ]

    def values(self, text: str, exclude: list[Mention] | None = None) -> list[ValueMention]:
        """Values of category columns named in ``text``, skipping spans taken by ``exclude``."""
        text = normalize(text)
        lowered = text.lower()
        taken = Spans([(mention.start, mention.end) for mention in exclude or []])
        found: list[ValueMention] = []
        for column in self.info.column_info:
            found += self._names(column, text, taken)
            for value in column.values or []:
                forms = _value_forms(value)
                if re.fullmatch(r"[A-Z]", value) and column.unique <= 12:  # grades and ranks: 評価がS, class B
                    forms.append(value)
                if (full := _SEX_CODES.get(value.casefold())) and _names_sex(column.name):  # F: women, 女性
                    forms += [full, *value_forms(full)]
                for form in forms:
                    # Codes such as "IN" or "NY" only count written as codes, not as the word "in".
                    coded = _ASCII.match(form) and form.isupper() and len(form) <= 4
                    haystack, needle = (text, form) if coded else (lowered, form.lower())
                    for start in _occurrences(haystack, needle, case_sensitive=bool(coded)):
                        end = start + len(form)
                        if _inside_a_verb(form, text, end) or _inside_a_word(form, text, start, end):
                            continue
                        if not taken.overlaps((start, end)):
                            found.append(ValueMention(column.name, value, start, end))
        spelt = Spans([(m.start, m.end) for m in found] + [(m.start, m.end) for m in exclude or []])
        found += self._sounded(text, spelt)
        return _non_overlapping(found, key=lambda m: -(m.end - m.start))

    def _sounded(self, text: str, taken: Spans) -> list[ValueMention]:
        """Values the question writes in the other script, by their sound: ニクソン for Nixon, a
        katakana borough for Westminster; kept only when one value of the data sounds so."""
        index = self._sound_index()
        found = []
        for script, words in (("latin", katakana_words(text)), ("katakana", latin_words(text))):
            for start, end, word in words:
                if taken.overlaps((start, end)) or _ANALYSIS_WORD.fullmatch(word):
                    continue
                heard = {katakana_skeleton(word)} if script == "latin" else latin_skeletons(word)
                exact = {hit for sound in heard for hit in index[script].get(sound, ())}
                near = exact or {
                    hit
                    for sound in heard
                    for known, hits in index[script].items()
                    if sound_alike(sound, known)
                    for hit in hits
                }
                if len(near) == 1:
                    column, value = next(iter(near))
                    found.append(ValueMention(column, value, start, end))
        return found

    def _sound_index(self) -> dict[str, dict[str, set[tuple[str, str]]]]:
        """The skeletons of the values written in Latin letters and of those in katakana: of a whole
        value and of each word of it that no other value of its column holds."""
        if self._sounds is not None:
            return self._sounds
        index: dict[str, dict[str, set[tuple[str, str]]]] = {"latin": {}, "katakana": {}}
        for column in self.info.column_info:
            if column.kind not in ("text", "category"):
                continue
            holders: dict[tuple[str, str], set[str]] = {}
            for value in column.names or column.values or []:
                normal = normalize(value)
                for part in {normal, *re.split(r"[\s・=_\-/]+", normal)}:
                    joined = re.sub(r"[\s・=_\-/.'’]+", "", part)
                    if is_katakana(joined):
                        holders.setdefault(("katakana", katakana_skeleton(joined)), set()).add(value)
                    elif re.fullmatch(r"[A-Za-z]{3,}", joined):
                        for sound in latin_skeletons(joined):
                            holders.setdefault(("latin", sound), set()).add(value)
            # among thousands of names a three-sound skeleton is heard by chance (ポイント ~ Bernt)
            shortest = 3 if len(column.names or column.values or []) <= 100 else 4
            for (script, sound), values in holders.items():
                if len(values) == 1 and len(sound) >= shortest:
                    index[script].setdefault(sound, set()).add((column.name, next(iter(values))))
        self._sounds = index
        return index

    def _names(self, column: ColumnInfo, text: str, taken: Spans) -> list[ValueMention]:
        """Names of a text column with many values (people, countries, titles) that ``text`` writes as the
        data does: in full (Kuwait, Katharine Hepburn), or by a word only one of them holds (Hepburn)."""
        forms = self._name_forms(column)
        found = []
        for form, value in forms.items():
            for start in _occurrences(text, form, case_sensitive=True):
                end = start + len(form)
                if not taken.overlaps((start, end)):
                    found.append(ValueMention(column.name, value, start, end))
        return found

    def _name_forms(self, column: ColumnInfo) -> dict[str, str]:
        cached = self._name_cache.get(column.name)
        if cached is not None:
            return cached
        forms: dict[str, str] = {}
        words: dict[str, set[str]] = {}
        listed = column.values if column.kind in ("text", "category") else None
        for value in column.names or listed or []:
            normal = normalize(value).strip()
            if len(normal) < 3 or normal.replace(".", "").replace("-", "").isdigit():
                continue
            if column.names:  # the few values of a category are matched as values already
                forms[normal] = value
            for word in re.findall(r"[A-Z][a-z]{3,}", normal):
                words.setdefault(word, set()).add(value)
        for word, holders in words.items():
            if len(holders) == 1 and word not in forms:
                forms[word] = next(iter(holders))
        self._name_cache[column.name] = forms
        return forms

    def resolve(self, phrase: str) -> str | None:
        """The one column a short phrase (a format slot name, a header fragment) refers to."""
        mentions = self.columns(phrase.replace("_", " "))
        if mentions:
            return max(mentions, key=lambda m: (m.score, m.end - m.start)).column
        return None

    def _fuzzy(self, lowered: str) -> list[Mention]:
        """English words one or two letters away from a one-word column name ('salry' → salary)."""
        names = {fold(info.name): info.name for info in self.info.column_info if _ASCII.match(info.name)}
        single = [name for name in names if " " not in name and len(name) >= 4]
        found = []
        closest: dict[str, list[str]] = {}  # a word repeated a thousand times is compared once
        for word in re.finditer(r"[a-z][a-z0-9]{3,}", lowered):
            if word.group() in _FUNCTION_WORDS:
                continue  # "with" is no misspelt Width
            if word.group() not in closest:
                closest[word.group()] = difflib.get_close_matches(word.group(), single, n=1, cutoff=0.84)
            close = closest[word.group()]
            if close and close[0] != word.group():
                found.append(Mention(names[close[0]], word.start(), word.end(), 0.55, word.group()))
        return found


# Words of the questions themselves, never a value heard in another script (パーセンタイル ~ Central).
_ANALYSIS_WORD = re.compile(
    r"パーセンタイル|パーセント|ポイント|ランキング|ランク|トップ|ワースト|ベスト|データ|グループ|カテゴリー?|"
    r"レコード|リスト|ライン|ボーダー|ペース|ケース|サイズ|タイプ|トータル|カウント|ユニーク|グラフ|チャート|"
    r"テーブル|ファイル|カラム|パターン|サンプル|スコア|レベル|シェア|メジャー|ピーク|トレンド|"
    r"percentile|percent|ranking|top|worst|best|data|group|category|record|list|line|total|count",
    re.IGNORECASE,
)
_Span = TypeVar("_Span", Mention, ValueMention)
SUFFIX_SCORE = 0.6  # the end of a Japanese header (its head noun), when no other header ends so
PREFIX_SCORE = 0.7  # the start of a Japanese header (売上 of 売上金額), when no other header starts so
_STAT_PREFIX = re.compile(r"^(?:平均|合計|総|最大|最小|最高|最低|中央)")  # 平均 of 平均収入 is a statistic


def _without_unit_suffix(name: str) -> str:
    """くちばしの長さ(mm) → くちばしの長さ: a unit in brackets is no part of the head noun."""
    return re.sub(r"\s*[（(][^）)]{1,8}[）)]\s*$", "", name)


_CONNECTORS = frozenset(("per", "of", "the", "and", "or", "for", "in", "to", "by", "at", "on", "a", "an"))


def _sub_phrases(folded: str) -> list[str]:
    """The runs of two or more of a name's words, shorter than the whole and not ending on a connector
    ("gdp per" of gdp per capita names nothing)."""
    words = folded.split()
    return [
        " ".join(words[at : at + size])
        for size in range(len(words) - 1, 1, -1)
        for at in range(len(words) - size + 1)
        if words[at] not in _CONNECTORS and words[at + size - 1] not in _CONNECTORS
    ]


def _english_parts(folded: str, identifier: bool) -> list[tuple[str, float]]:
    """Parts of an English name that name it too: runs of its words (run_time_minutes → "run time"),
    and, weakly, its words alone (per_dem → "dem"; total_bill → "bill", only "total" dropped)."""
    found = [(phrase, 0.75) for phrase in _sub_phrases(folded)]
    parts = [part for part in folded.split() if len(part) >= 3 and part not in _COMMON_WORDS]
    common = [part for part in folded.split() if part in _COMMON_WORDS]
    if (len(parts) > 1 or (parts and common)) and not identifier:  # weak, so a fuller name always wins
        for part in parts:
            found.append((part, 0.5))
            if not _is_plural(part):
                found.append((_plural(part), 0.45))
    return found


def _aliases(name: str, identifier: bool = False) -> list[tuple[str, float]]:
    """Every way a question may name the column ``name``, with how sure a match is."""
    aliases: dict[str, float] = {}

    def add(alias: str, score: float) -> None:
        alias = alias.strip().lower()
        if len(alias) >= 2 or (len(alias) == 1 and not _ASCII.match(alias)):
            aliases[alias] = max(aliases.get(alias, 0.0), score)

    normal = normalize(name)
    add(normal, 1.0)
    folded = fold(name)
    add(folded, 0.95)
    add(folded.replace(" ", "_"), 0.95)
    add(folded.replace(" ", ""), 0.9)
    add(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", normal), 0.9)  # TotalIncome → total income
    if _ASCII.match(folded):
        if not _is_plural(folded):
            add(_plural(folded), 0.9)
        elif len(folded) > 3:
            add(folded[:-1], 0.85)
        if re.fullmatch(r"[a-z]{4,}", folded):  # read → reading, write → writing
            add(re.sub(r"e$", "", folded) + "ing", 0.8)
        add(folded.replace("no of", "number of"), 0.9)
        for phrase, score in _english_parts(folded, identifier):
            add(phrase, score)
    else:
        for size in range(len(normal) - 1, 1, -1):  # 売上金額 → 売上金, 売上
            if not _STAT_PREFIX.fullmatch(normal[:size]):
                add(normal[:size], PREFIX_SCORE)
        head = _without_unit_suffix(normal)
        for size in range(len(head) - 1, 1, -1):  # 労働組合 → 組合, 直列エンジン → エンジン: the head noun
            if not _ASCII.match(head[-size:]):
                add(head[-size:], SUFFIX_SCORE)
    for concept, score in concepts_for(name, identifier=identifier):  # payment method → 支払方法, 人口 → population
        for synonym in concept.words:
            add(synonym, score)
            if _ASCII.match(synonym) and not _is_plural(synonym):
                add(_plural(synonym), score - 0.05)  # "products", "countries"
    return list(aliases.items())


def _is_plural(word: str) -> bool:
    """'sales', 'orders' are plural already; 'class', 'status' are not."""
    return bool(re.search(r"(?<![su])s$", word))


def _plural(word: str) -> str:
    """English plural of a header word: country → countries, class → classes, sensor → sensors."""
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(?:s|x|ch|sh)$", word):
        return word + "es"
    return word + "s"


def _value_forms(value: str) -> list[str]:
    value = normalize(value)
    if not value or value.replace(".", "").replace("-", "").isdigit():
        return []  # bare numbers are read as numbers, not as category values
    forms = [value] if len(value) >= 2 or not _ASCII.match(value) else []
    if re.fullmatch(r"[A-Za-z]{3,}", value) and not value.isupper():
        forms.append(_plural(value))  # "errors", "Suites": a value named in the plural
    forms += [form for form in value_forms(value) if len(form) >= 3 or not _ASCII.match(form)]  # Sat → 土曜日
    for suffix in VALUE_SUFFIXES:
        stem = value.removesuffix(suffix)
        if stem != value and len(stem) >= 2:
            forms.append(stem)
    return forms


_HIRAGANA = re.compile(r"^[\u3041-\u309f]+$")
_PARTICLES = "のがはをにでともやかへ"


def _inside_a_verb(form: str, text: str, end: int) -> bool:
    """あり in ありますか, なし in なしで済む…: a kana value followed by more kana that is not a particle."""
    if not _HIRAGANA.match(form) or end >= len(text):
        return False
    following = text[end]
    return bool(_HIRAGANA.match(following)) and following not in _PARTICLES


_KANJI = re.compile(r"[\u4e00-\u9fff々]")


def _inside_a_word(form: str, text: str, start: int, end: int) -> bool:
    """高 in 一番高い or 最高, 大 in 大きい: a one-kanji value read inside an adjective or a longer word."""
    if len(form) != 1 or not _KANJI.match(form):
        return False
    after = text[end] if end < len(text) else ""
    before = text[start - 1] if start > 0 else ""
    return bool(_KANJI.match(before) or _KANJI.match(after) or (after and after in _ADJECTIVE_ENDINGS))


_ADJECTIVE_ENDINGS = (
    "いくかさけめすそき"  # 高い, 高く, 高かった, 高さ, 高め, 高すぎ, 高そう, 大きい; not 雨だった, 雨の
)


def _occurrences(lowered: str, alias: str, *, case_sensitive: bool = False) -> list[int]:
    """Start offsets of ``alias``; ASCII aliases only as whole words."""
    escaped = re.escape(alias)
    word = "A-Za-z0-9" if case_sensitive else "a-z0-9"
    pattern = rf"(?<![{word}]){escaped}(?![{word}])" if _ASCII.match(alias) else escaped
    return [match.start() for match in re.finditer(pattern, lowered)]


def _non_overlapping(found: list[_Span], key: Callable[[_Span], Any]) -> list[_Span]:
    """The best-ranked spans (by ``key``) that do not overlap, in order of position."""
    chosen: list[_Span] = []
    kept = Spans()
    for item in sorted(found, key=key):
        if not kept.overlaps((item.start, item.end)):
            kept.add((item.start, item.end))
            chosen.append(item)
    return sorted(chosen, key=lambda item: item.start)


def column_info(info: DataFrameInfo, name: str) -> ColumnInfo:
    found = info.column(name)
    if found is None:
        raise KeyError(name)
    return found


# --- the column that names each row ---

ID_LIKE = re.compile(r"(?:^|[_\s])(?:id|no|code|番号|コード|ID)(?:$|[_\s])|^id|id$|番号$|コード$", re.IGNORECASE)
NAME_WORDS = re.compile(r"name|名前|氏名|名称|品名|商品名|タイトル|title", re.IGNORECASE)


def row_label(info: DataFrameInfo, *, repeated: bool = False) -> str | None:
    """A column naming each row once (a name, else an id): top-N rows are listed by it.

    ``repeated``: a name column may name a row more than once (a winner of two awards); any column
    naming most rows (a car model, a title) does as well, when there is no column called a name.
    """
    rows = info.shape[0]
    unique = [c for c in info.column_info if rows > 0 and c.unique == rows and c.missing == 0]
    named = [c.name for c in unique if c.kind in ("text", "category") and NAME_WORDS.search(c.name)]
    ids = [c.name for c in unique if ID_LIKE.search(c.name)]
    if repeated:
        texts = [c for c in info.column_info if c.kind in ("text", "category") and rows and c.unique >= 0.5 * rows]
        named += sorted((c.name for c in texts if NAME_WORDS.search(c.name)), key=lambda n: -_unique(info, n))
        named += [c.name for c in texts if not ID_LIKE.search(c.name) and c.name not in named]
    return next(iter(named + ids), None)


def _unique(info: DataFrameInfo, name: str) -> int:
    column = info.column(name)
    return column.unique if column else 0
