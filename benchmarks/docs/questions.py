"""Questions over the public documentation corpus (benchmarks/docs/corpus.py), and how one is judged.

Each question was written from the documents, as their readers would ask, by someone who had not
read the answerer's code, and committed before the answerer was changed for it. Its id decides its
half: an even number tunes, an odd one is held out and never tuned on.

A question lists the documents that answer it and the spans a right answer holds (any one of them:
an option's short or long name, say). A right answer is answered, holds one expected span, and
cites a document that holds it: one of those listed, or another document of the corpus whose text
holds that span (of four characters or more: a short one like "1" is in every document). A
question with no documents is one the corpus does not answer: only an abstention is right.
Anything else answered is wrong.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal[
    "option",  # the name of a command-line option
    "setting",  # a setting, field or variable name
    "command",  # a command (or subcommand) that does something
    "path",  # a file or directory
    "number",  # a number with its unit
    "date",
    "yesno",
    "procedure",  # how to do something: the step or command that does it
    "definition",  # what a term means
    "what",  # another fact stated in the documents
    "none",  # the corpus does not answer it
]


@dataclass(frozen=True)
class Question:
    id: str  # "a014": a letter for its writer, a number whose parity picks the half
    text: str
    kind: Kind
    sources: tuple[str, ...] = ()  # corpus paths of the documents that answer it; () = unanswerable
    expected: tuple[str, ...] = ()  # spans a right answer contains (any one), as the document writes them

    @property
    def asked_in(self) -> str:
        return "ja" if any(ord(char) > 0x3000 for char in self.text) else "en"

    @property
    def written_in(self) -> str | None:
        """The language of the answering documents (None when the corpus does not answer it)."""
        if not self.sources:
            return None
        return "en" if all(_english(source) for source in self.sources) else "ja"

    @property
    def direction(self) -> str:
        """ja, en, ja→en, en→ja, or none."""
        if self.written_in is None:
            return "none"
        return self.asked_in if self.asked_in == self.written_in else f"{self.asked_in}→{self.written_in}"

    @property
    def half(self) -> Literal["tuning", "held-out"]:
        return "tuning" if int(self.id[1:]) % 2 == 0 else "held-out"


def _english(source: str) -> bool:
    # The Policy's and the Developer's Reference's reStructuredText sources are their English originals.
    english = ("man/en/", "python/", "debian-policy/", "developers-reference/")
    return source.startswith(english) or source.endswith(".en.html")


Verdict = Literal["right", "wrong", "abstained"]


MIN_SPAN_ELSEWHERE: Final = 4


def judge(
    question: Question, status: str, cited: list[str], final: str, holds: Callable[[str, str], bool] | None = None
) -> Verdict:
    """right, wrong or abstained: ``status`` is the answerer's (answered or unanswered), ``cited`` the
    sources it cites, ``final`` its answer; ``holds(source, span)`` whether a document holds a span."""
    if status != "answered":
        return "abstained"
    if not question.sources:
        return "wrong"
    held = normalized(final)
    spans = [span for span in question.expected if normalized(span) in held]
    if spans and set(cited) & set(question.sources):
        return "right"
    elsewhere = [span for span in spans if len(normalized(span)) >= MIN_SPAN_ELSEWHERE]
    if holds is not None and any(holds(source, span) for source in cited for span in elsewhere):
        return "right"
    return "wrong"


def normalized(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).casefold()
