"""Which language a question is written in, so every answer comes back in the person's language.

Bunseki writes its own texts in Japanese and English. A question in another language is
answered in English by the offline analyst, with one line saying so (``UNDERSTOOD``); an LLM
brain is asked to answer in the question's own language (``foreign_language`` names it).

Chinese and Japanese share the Han characters: Japanese questions almost always hold kana,
Chinese never do, and Chinese uses simplified forms and particles (的 是 吗 什么 多少 每个)
that a kanji-only Japanese phrase does not.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.domain import Language

LANGUAGE_RULES: Final[dict[Language, str]] = {
    "ja": "The person writes in Japanese. Write everything they will read (questions, instructions, "
    "rationale, report, chart titles and labels) in Japanese (日本語).",
    "en": "The person writes in English. Write everything they will read (questions, instructions, "
    "rationale, report, chart titles and labels) in English.",
}
"""What a model is told about the language to write in, when the person writes Japanese or English."""

_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_LATIN = re.compile(r"[A-Za-z]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Simplified characters Japanese does not use, and particles of Chinese questions.
_CHINESE = re.compile(
    r"[们这么吗呢吧哪谁个销额发还说时实过间门问东车没两对为样给让从图计统较别总价产业务员单据报长开关见现进运动经济岁该]"
    r"|的|是|多少|什么|每个|怎么"
)
# Scripts of languages the offline analyst does not read (Latin-script languages are not told apart).
_SCRIPTS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("Korean", re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")),
    ("Russian", re.compile(r"[\u0400-\u04ff]")),
    ("Greek", re.compile(r"[\u0370-\u03ff]")),
    ("Arabic", re.compile(r"[\u0600-\u06ff]")),
    ("Hebrew", re.compile(r"[\u0590-\u05ff]")),
    ("Thai", re.compile(r"[\u0e00-\u0e7f]")),
    ("Hindi", re.compile(r"[\u0900-\u097f]")),
)

# Latin-script languages are told from English by their function words (a question has a few).
_FOREIGN_WORDS_TEXT: Final = (
    "quel quelle quels quelles est les des une du aux moyenne combien pour dans sont le la et chaque "  # fr
    "cuál cual cuáles el los las del una promedio cuántos cuantos cuántas por para qué que cada y "  # es
    "und der das ist wie viele durchschnitt welche welcher welches jede jeder im mit für "  # de
    "qual quais média quantos quantas são é il della dei delle quanti quante ogni è"  # pt, it
)
_ENGLISH_WORDS_TEXT: Final = (
    "the what which how is are was were of by per in on for and average total mean sum many much show me give "
    "list top highest lowest each between"
)
_FOREIGN_WORDS: Final = frozenset(_FOREIGN_WORDS_TEXT.split())
_ENGLISH_WORDS: Final = frozenset(_ENGLISH_WORDS_TEXT.split())
_WORD = re.compile(r"[^\W\d_]+")
OTHER_LATIN: Final = "another language"

UNDERSTOOD: Final = (
    "The offline analyst understands Japanese (ja) and English (en), so it answers this question in English."
)


def detect_language(text: str) -> Language:
    """ "ja" for Japanese (kana, or kanji that do not read as Chinese), otherwise "en"."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text) and not _CHINESE.search(text) and not _other_script(text):
        return "ja"
    return "en"  # English, and the language the analyst answers other languages in


def foreign_language(text: str) -> str | None:
    """The name of the language of ``text`` when it is neither Japanese nor English, else None."""
    if _KANA.search(text):
        return None
    if _HAN.search(text) and _CHINESE.search(text):
        return "Chinese"
    return _other_script(text) or _other_latin(text)


def _other_script(text: str) -> str | None:
    """The language whose script most of the letters are in, when it is not Latin (a Cyrillic
    column name in an English question does not make the question Russian)."""
    latin = len(_LATIN.findall(text))
    counts = [(len(script.findall(text)), name) for name, script in _SCRIPTS]
    count, name = max(counts)
    return name if count and count >= latin else None


def _other_latin(text: str) -> str | None:
    """French, Spanish, German, Portuguese or Italian (not told apart) rather than English."""
    words = _WORD.findall(text.lower())
    foreign = len({word for word in words if word in _FOREIGN_WORDS})
    english = len({word for word in words if word in _ENGLISH_WORDS})
    return OTHER_LATIN if foreign >= 2 and foreign > english else None
