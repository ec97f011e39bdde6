"""What kind of thing a question asks for, and that thing taken from the sentence that answers it.

Asked which option, setting, command, file or number, a reader wants the option first, not a
sentence around it. From the question (Japanese or English) the form is told — an option, a
setting, a command, a path, a number, a date, yes or no, a procedure, a definition — and from the
answering unit the span of that form is taken: the term of a definition (``-a, --all: …``), or the
first option, setting name, path or number the unit holds. The answer then leads with it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final, Literal

Form = Literal["option", "setting", "command", "path", "number", "date", "yesno", "procedure", "definition"]

# Checked in this order: the first that matches is the form.
_ASKED: Final[tuple[tuple[Form, re.Pattern[str]], ...]] = (
    ("option", re.compile(r"オプション|フラグ|スイッチ|\b(?:option|flag|switch)s?\b", re.IGNORECASE)),
    (
        "setting",
        re.compile(
            r"環境変数|設定項目|設定名|変数|フィールド|パラメータ|パラメーター|キー名|ディレクティブ|"
            r"\b(?:environment variable|variable|setting|field|parameter|directive|config(?:uration)? key)s?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "path",
        re.compile(
            r"(?:どの|何という|なんという|どこの)\s*(?:ファイル|ディレクトリ|フォルダ)|(?:ファイル|ディレクトリ|フォルダ|パス)(?:名)?は(?:何|どこ)|"
            r"(?:ファイル|ディレクトリ|フォルダ|ログ)(?:は|を|に|が)?[^。？?]{0,12}どこ|どこ[^。？?]{0,8}(?:ファイル|ディレクトリ|フォルダ)|"
            r"\b(?:which|what) (?:file|directory|folder|path)\b|"
            r"\bwhere\b[^?]{0,60}\b(?:file|directory|folder|log|logs|config(?:uration)?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "command",
        re.compile(
            r"(?:どの|何という|なんという|どんな)\s*(?:コマンド|サブコマンド|ツール|プログラム)|コマンドは|"
            r"(?:する|できる|使う)(?:ための)?\s*(?:コマンド|サブコマンド)(?:を教えて|は|って|を知りたい)|"
            r"\b(?:which|what) (?:command|subcommand|tool|program|utility|invocation)\b|"
            r"\bwhat (?:do|should) i (?:run|type)\b|\b(?:which|what) \w+ (?:command|invocation)\b",
            re.IGNORECASE,
        ),
    ),
    (  # "when" that asks (When was…?), not one that sets a condition (… when extracting; When X, what…?)
        "date",
        re.compile(r"いつ|何年|何月|^\s*when\b[^,?]*\?|\bwhat (?:date|year)\b|\bwhich (?:date|year)\b", re.IGNORECASE),
    ),
    (
        "number",
        re.compile(
            r"何\s*(?:日|秒|分|時間|文字|行|バイト|個|回|件|人|MB|KB|GB|%|パーセント|ビット|桁|番)|いくつ|どのくらい|どれくらい|何が既定|既定値|デフォルト値|"
            r"\bhow (?:many|much|long|big|large|often)\b|\bdefault (?:value|size|number)\b|\bmaximum\b|\bminimum\b",
            re.IGNORECASE,
        ),
    ),
    (
        "definition",
        re.compile(
            r"とは|って何|の意味|\bwhat (?:is|are) (?:a|an|the)?\b|\bwhat does .+ mean\b|\bwhat counts as\b",
            re.IGNORECASE,
        ),
    ),
    (
        "procedure",
        re.compile(
            r"方法|手順|どうすれば|どうしたら|どうやって|どうやる|どうする|するには|には[?？]\s*$|やり方|"
            r"\bhow (?:do|can|should) (?:i|you|we)\b|\bhow to\b",
            re.IGNORECASE,
        ),
    ),
    (
        "yesno",
        re.compile(
            r"(?:でき|あり|い|し|なり|使え)ますか[?？]?$|ですか[?？]?$|^\s*(?:can|is|are|does|do|should|must|will|may)\b",
            re.IGNORECASE,
        ),
    ),
)

_OPTION: Final = re.compile(r"(?<![\w/.-])--?[A-Za-z0-9][\w-]*(?:\[?=[\w.\-\[\]|]+\]?)?")
_SETTING: Final = re.compile(
    r"(?<![\w./-])(?:[A-Z][\w-]*(?:::[\w-]+)+|[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[0-9]*|[A-Z][a-z]+(?:-[A-Z][a-z]+)+)"
    r"(?![\w-])"
)
_NAMED_SETTING: Final = re.compile(r"\b([A-Z][\w-]+)\s*(?:field|setting|variable|directive|フィールド|変数)")
_PATH: Final = re.compile(
    r"(?<![\w:])(?:~|\$\w+)?/(?:[\w.+\-]+/)*[\w.+\-*]+/?|(?<![\w/])[\w.-]+/[\w.+\-/]*[\w+\-]|"
    r"(?<![\w/-])[\w-]+\.(?:conf|cfg|ini|list|txt|gz|ya?ml|json|py|sh|rc|d)\b"
)
_NUMBER: Final = re.compile(
    r"(?<![A-Za-z\d.])\d[\d,.]*\s*(?:[%％]|バイト|文字|行|日|秒|分|時間|個|回|件|人|ビット|桁|"
    r"(?:KiB|MiB|GiB|KB|MB|GB|bytes?|characters?|lines?|days?|seconds?|minutes?|hours?|bits?|times)\b)?"
)
# a command with its options (grep -E, dpkg --purge foo), or a Latin run in Japanese text (apt-mark hold で)
_COMMAND: Final = re.compile(
    r"(?<![\w/.-])[a-z][\w.+-]*(?: -{1,2}[A-Za-z][\w-]*)+(?: [\w./-]+)?|"
    r"(?<=[^\x00-\x7f] )[a-z][\w.+-]*(?: [a-z][\w.-]*)+(?= [^\x00-\x7f])"
)
# a sentence that says what something is: "A word is …", 「…とは…」, 「…のことです」
DEFINES: Final = re.compile(
    r"^(?:an?|the)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|means|refers to)\b|"
    r"とは|のこと(?:です|を指します)|を意味します|を(?:表|示)します",
    re.IGNORECASE,
)
# Forms whose answer is a span of the unit (a term, a number): a sentence that holds none does not answer.
TERM_FORMS: Final = ("option", "setting", "path", "command", "number")
_TERM: Final = re.compile(r"^([^:：。]{1,60}?)[:：]\s")


# What a question asks the meaning of, before any noun it names (what does the value 'all' mean in a field).
_MEANING: Final = re.compile(
    r"どういう意味|何を意味|を意味します?か|の意味は|何が違う|違いは|とは何|って何|"
    r"\bwhat does .+ mean\b|\bwhat is meant by\b|\bdifference between\b|\bwhat counts as\b",
    re.IGNORECASE,
)
# The noun a question asks for (which FILE, 設定オプション名は何): it names the form, whatever else it mentions.
_HEAD_NOUNS: Final[tuple[tuple[Form, str, str], ...]] = (
    (
        "setting",
        r"設定(?:オプション|項目|名|キー)|環境変数|変数|フィールド|パラメー?タ|ディレクティブ",
        r"environment variables?|variables?|settings?|fields?|parameters?|directives?"
        r"|config(?:uration)? (?:key|option)s?",
    ),
    ("option", r"オプション|フラグ|スイッチ", r"options?|flags?|switch(?:es)?"),
    ("path", r"ファイル|ディレクトリ|フォルダ|パス", r"files?|director(?:y|ies)|folders?|paths?"),
    (
        "command",
        r"サブコマンド|コマンド|ツール|プログラム",
        r"subcommands?|commands?|tools?|programs?|utilit(?:y|ies)|invocations?",
    ),
    (
        "number",
        r"ポート番号|ポート|終了ステータス|既定値|デフォルト値|上限|下限|倍数|バイト数|文字数|行数|件数|回数",
        r"ports?|numbers?|sizes?|limits?|exit (?:status|code)|status|sections?|counts?|percentages?",
    ),
)
_JA_ASKS_NOUN: Final = (
    r"(?:どの|何という|なんという|どんな|何の)[^、。？?\s]{{0,8}}?(?:{nouns})"
    r"|(?:{nouns})(?:名|の名前)?(?:は|って|が)(?:何|なに|なん|どれ|どこ)|(?:{nouns})を教えて"
)
_EN_ASKS_NOUN: Final = (
    r"\b(?:which|what)\s+(?:[\w-]+\s+){{0,2}}?(?:{nouns})\b"
    r"|\bis there (?:a|an|any)\s+(?:[\w-]+\s+){{0,2}}?(?:{nouns})\b"
)
_ASKED_NOUN: Final[tuple[tuple[Form, re.Pattern[str]], ...]] = tuple(
    (
        form,
        re.compile(_JA_ASKS_NOUN.format(nouns=japanese) + "|" + _EN_ASKS_NOUN.format(nouns=english), re.IGNORECASE),
    )
    for form, japanese, english in _HEAD_NOUNS
)
# Yes or no is asked only when no question word asks for something else (名前は何ですか is not yes/no).
_WH: Final = re.compile(r"何|なに|なん|どこ|どの|どれ|どう|どんな|いつ|誰|だれ|いくつ|いくら|なぜ|どちら|どのくらい")


def asked_form(question: str) -> Form | None:
    """The form of the answer ``question`` asks for, or None when it does not say: what it asks the
    meaning of, else the noun it asks for (which file, 変数名は何), else the words it asks with."""
    text = question.strip()
    if _MEANING.search(text):
        return "definition"
    noun = next((form for form, pattern in _ASKED_NOUN if pattern.search(text)), None)
    if noun is not None:
        return noun
    form = next((form for form, pattern in _ASKED if pattern.search(text)), None)
    if form == "yesno" and _WH.search(text):
        return None
    return form


def lead(form: Form | None, unit: str, question: str = "") -> str | None:
    """The span of ``unit`` (an answering sentence or definition) that is the asked thing, if any;
    never one the question itself names (asked which setting -y matches, the answer is not -y)."""
    if form is None:
        return None
    asked = _plain(question)
    term_match = _TERM.match(unit)
    term = term_match.group(1).strip() if term_match else ""
    term = "" if term and asked and _plain(term) in asked else term
    patterns = {
        "option": [_OPTION],
        "setting": [_NAMED_SETTING, _SETTING],
        "path": [_PATH],
        "command": [_COMMAND],
        "number": [_NUMBER],
    }
    if form == "option" and term and _OPTION.search(term):
        return term
    if form == "setting" and term and (_SETTING.search(term) or " " not in term):
        return term
    if form == "command" and term and len(term) <= 40:
        return term
    searched = unit[len(term_match.group(0)) :] if form == "number" and term_match else unit
    for pattern in patterns.get(form, []):
        for found in pattern.finditer(searched):
            span = (found.group(1) if found.lastindex else found.group()).strip().rstrip(".,")
            if form == "number" and not any(char.isdigit() for char in span):
                continue
            if span and not (asked and _plain(span) in asked):
                return span
    return None


def _plain(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).casefold()
