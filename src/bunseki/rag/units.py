"""The units of a chunk that could answer a question: its sentences, its definition and setting
lines, its steps, the answer of a Q&A pair, each verbatim in the chunk's text, with its context.

An extractive answerer quotes one of them; its similarity to the question is the similarity of
``embedded`` (the unit in its title's and heading's context). Ingest embeds every chunk's units
through the embedding cache, so that answering reads their vectors instead of computing them:
the split must be the same at both ends, which is why it lives here, beside the chunker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_QA: Final = re.compile(r"^Q:\s*(?P<q>.+?)\s*\nA:\s*(?P<a>.+)$", re.DOTALL)
_SENTENCE: Final = re.compile(r"(?<=[。！？])(?![」』）)])|(?<=[.!?])\s+(?=[A-Z0-9\"'(`])")
_END: Final = re.compile(r"[。．.!?！？]\s*$")
_SETTING: Final = re.compile(r"[:：=]|^\s*(?:[-*•]|\d+[.)])\s|^\s*-{1,2}\w")
_CODE: Final = re.compile(
    r"^\s*(?:def |class |import |from \S+ import|return\b|if |for |while |@\w)|[{};]\s*$|^\s*\S+\s*=\s*\S"
)
_TRIM: Final = re.compile(r"^(?:[\s#>\"']|//|[-*•]\s)*|[\s\"']*$")  # never the slash that starts a path
# ``KEY: description`` (an option, a setting, an error code), numbered or not.
_ENTRY: Final = re.compile(r"^(?:\d{1,2}[.)]\s+)?[^\s。.!?！？:：「」][^。!?！？:：「」]{0,48}[:：]\s*\S")
STEP: Final = re.compile(r"^\d{1,2}[.)．]\s*")
"""A step of a numbered list: ``1. …``, ``2) …``."""


@dataclass(frozen=True)
class AnswerUnit:
    """A sentence or line of a chunk (``text``, verbatim) and what it is about (``context``: the
    title and heading, and a short line over its block)."""

    index: int
    text: str
    context: str

    @property
    def embedded(self) -> str:
        """What is embedded for the unit: its context, then the unit."""
        return f"{self.context}\n{self.text}" if self.context else self.text


def answer_units(title: str, heading: str, text: str) -> list[AnswerUnit]:
    """The sentences and lines of a chunk that could be an answer, in order."""
    context = " / ".join(dict.fromkeys(part for part in (title, heading) if part))
    qa = _QA.match(text.strip())
    if qa:  # a Q&A pair: the answer answers, in the context of its question
        return [AnswerUnit(0, qa["a"].strip(), f"{context}\n{qa['q'].strip()}")]
    units: list[AnswerUnit] = []
    local = ""  # a short line over a block of plain text, e.g. 「用紙の補充」 above its steps
    for line in _lines(text):
        stripped = line.strip()
        commentary = stripped.startswith(('"""', "'''", "#", "//"))
        if not stripped:
            local = ""
            continue
        if _CODE.search(stripped) and not commentary:
            continue
        where = f"{context}\n{local}" if local else context
        whole = _TRIM.sub("", stripped).strip()
        if _ENTRY.match(whole) or STEP.match(whole):  # an option, a setting, a step: one unit, every sentence
            units.append(AnswerUnit(len(units), whole, where))
            continue
        if not commentary and len(whole) <= 30 and not _usable(whole, title, heading):
            local = whole
            continue
        for piece in _SENTENCE.split(stripped):
            sentence = _TRIM.sub("", piece).strip()
            if _usable(sentence, title, heading):
                units.append(AnswerUnit(len(units), sentence, where))
    return units


def _lines(text: str) -> list[str]:
    """The text's lines, with a sentence that a line break cuts (wrapped Markdown, PDF) put back together."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        previous = lines[-1] if lines else ""
        if (
            line
            and previous
            and not _END.search(previous)
            and not _SETTING.search(line)
            and not _CODE.search(line)
            and not _CODE.search(previous)
            and previous[-1] in "、,"
        ):
            joiner = "" if not previous[-1].isascii() and not line[0].isascii() else " "
            lines[-1] = previous + joiner + line
        else:
            lines.append(line)
    return lines


def _usable(text: str, title: str, heading: str) -> bool:
    """Not too short, not a bare title or heading, and a sentence unless it is a setting or option line."""
    if len(text) < 4 or text in (title, heading):
        return False
    return bool(_END.search(text) or _SETTING.search(text) or len(text) >= 25)
