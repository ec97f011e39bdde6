"""The offline knowledge brain: an extractive answerer that needs no language model.

It drives the same ReAct loop as a chat model would: it searches with the question, reads the
passages the search returned, and scores every sentence or line in them against the question
(multilingual-e5 similarity of the sentence in its heading's context, plus the question's words it
shares). When the best sentence is supported well enough it answers with it — the option and its
description, the setting and its meaning, the step — quoted verbatim, framed in the question's
language, with a citation ``[n]``, led by the thing asked for (the option, setting, path or number
taken from that sentence: see ``forms``); asked which option, setting, file, command or number, a sentence
that names none is no answer. When it is not, it searches again with the question's keywords,
and abstains with ``[[NO_ANSWER]]`` when nothing supports an answer. Japanese questions over
English documents and the reverse work through the multilingual embedding.

Its Reflection is a support check: every quote of the draft must be in the passage it cites, and
every other word of the draft must come from the cited passages (or the answer's fixed framing).
Unsupported quotes are dropped; with none left, the final answer is an abstention.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Final

import numpy as np
from langchain_core.messages import AIMessage

from bunseki.brain.knowledge.contract import NO_ANSWER, SEARCH_TOOL, KnowledgeView, Passage
from bunseki.brain.knowledge.offline.forms import DEFINES, TERM_FORMS, Form, asked_form, lead
from bunseki.brain.language import detect_language
from bunseki.domain import Language
from bunseki.rag.embedding import Embedder
from bunseki.rag.lexical import Lexicon
from bunseki.rag.units import STEP, AnswerUnit, answer_units

# Support is relative, never an absolute e5 cosine (they are compressed: unrelated text scores
# 0.75-0.84). A sentence's similarity to the question is read as a z-score against the other
# candidate sentences of the turn: how far it stands out from what the search brought back. Words
# are read as coverage: the share of the question's content words the sentence (in its heading's
# context) contains, each word weighted by how rare it is among the candidates, so that a word no
# candidate has (the subject the corpus lacks) outweighs the words every candidate shares.
SUPPORT_COVERAGE: Final = 0.5  # of the question's weighted content words, in the question's language
SUPPORT_Z: Final = 1.0  # and standing out from the candidates by a standard deviation
SUPPORT_Z_ACROSS_LANGUAGES: Final = 2.0  # a sentence in the other language shares no words: meaning alone
SUPPORT_Z_ACROSS_WITH_FORM: Final = 1.5  # …unless it holds the kind of thing asked for (a number for "how many")
SUPPORT_SCORE: Final = 3.5  # or a paraphrase: few words shared, but standing out far (score below)
MIN_UNITS_FOR_Z: Final = 5  # fewer candidates say nothing about how one stands out
COVERAGE_WEIGHT: Final = 2.0  # full coverage counts as much as standing out by two deviations
FOLLOWING_MARGIN: Final = 0.5  # a following sentence within half a deviation of the best one is added
MAX_STEPS_QUOTED: Final = 8
ENTITY_FIT: Final = 1.0  # a sentence that names the question's codes itself, over one whose passage does
FORM_FIT: Final = 1.0  # a sentence that holds a path when a file is asked for (an option, a setting, a number)
_EXTRACTED_FORMS: Final = ("option", "setting", "path", "command", "number")
MAX_SEARCHES: Final = 3
QUOTE_CHARS: Final = 400
_CACHE_SIZE: Final = 2048

# Words that say what kind of answer is wanted, not what it is about.
_QUESTION_WORDS: Final = frozenset(
    {
        *("どこ", "いつ", "どう", "どういう", "どの", "どれ", "どんな", "誰", "幾ら", "幾つ", "教える", "下さる"),
        *("良い", "為", "時", "方法", "手順", "意味", "場合", "やり方", "オプション", "パラメーター"),
        *("many", "much", "often", "long", "mean", "meaning", "way", "step", "happen", "option", "parameter"),
    }
)
# Codes, options, identifiers and numbers: a passage that lacks one the question names cannot answer it.
_ENTITY: Final = re.compile(
    r"(?<![A-Za-z0-9_-])(?:-{1,2}[A-Za-z][A-Za-z0-9_-]*|[A-Za-z0-9_]*[0-9][A-Za-z0-9_.]*"
    r"|[A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z][A-Z0-9]+)(?![A-Za-z0-9_])"
)
_INTRODUCES: Final = re.compile(r"(?:[:：]|次のように(?:します)?[。.]?)\s*$")  # what follows is shown

_CITATION = re.compile(r"\[(\d{1,3})\]")

_FRAME: Final[dict[Language, tuple[str, str]]] = {
    "ja": ("{where}によると、", "とのことです。"),
    "en": ("According to {where}: ", ""),
}
# When the quote is in the other language, the framing says so in the question's language.
_FRAME_ACROSS: Final[dict[Language, tuple[str, str]]] = {
    "ja": ("{where}の英語の記述によると、", "とのことです。"),
    "en": ("According to {where}, a Japanese document (quoted in its own words): ", ""),
}
_SEARCH_THOUGHT: Final[dict[Language, str]] = {
    "ja": "質問に答える記述をナレッジベースで検索します。",
    "en": "I will search the knowledge base for passages that answer the question.",
}
_RETRY_THOUGHT: Final[dict[Language, str]] = {
    "ja": "見つかった記述では質問に十分に答えられないため、キーワード「{query}」で検索し直します。",
    "en": "The passages found do not answer the question well enough; searching again for the keywords '{query}'.",
}
_DENSE_THOUGHT: Final[dict[Language, str]] = {
    "ja": "見つかった記述では答えられないため、言語をまたいで意味の近い記述を検索し直します。",
    "en": "The passages found do not answer the question; searching again by meaning, across languages.",
}
_NOTHING: Final[dict[Language, str]] = {
    "ja": "検索しても質問に関係する記述が見つかりませんでした。",
    "en": "No search found a passage related to the question.",
}
_UNSUPPORTED: Final[dict[Language, str]] = {
    "ja": "見つかった記述（最も近いもの: {where}）は、この質問に答えていません。",
    "en": "The passages found (the closest: {where}) do not answer this question.",
}


@dataclass(frozen=True)
class Unit(AnswerUnit):
    """An answer unit of a passage found in this turn: quoted verbatim, scored in context, cited by the passage."""

    passage: Passage


@dataclass(frozen=True)
class Scored:
    """A candidate sentence with its evidence: how it stands out (z), which words it covers, whether it supports."""

    unit: Unit
    z: float | None
    coverage: float
    supported: bool
    fit: float = 0.0  # it holds what the question names (its codes, options) and the thing asked for

    @property
    def score(self) -> float:
        return (self.z or 0.0) + COVERAGE_WEIGHT * self.coverage

    @property
    def rank(self) -> float:
        """What picks the answer among the supported: the score, and how well the sentence fits."""
        return self.score + self.fit


class OfflineKnowledgeBrain:
    """Searches, picks the answering sentence, quotes and cites it; abstains when nothing supports one."""

    def __init__(self, *, embedder: Embedder | None = None, lexicon: Lexicon | None = None) -> None:
        self._embedder = embedder
        self._lexicon = lexicon or Lexicon()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        frames = [*_FRAME.values(), *_FRAME_ACROSS.values()]
        frame = " ".join(part.replace("{where}", "") for pair in frames for part in pair)
        self._frame_terms = frozenset(self._lexicon.terms(frame))

    @property
    def name(self) -> str:
        return "offline"

    # --- the loop ---

    def respond(self, view: KnowledgeView) -> AIMessage:
        language = view.language
        done = {(search.query, search.mode) for search in view.searches}
        if not done:
            return _search(view, view.question, _SEARCH_THOUGHT[language])
        best = self.best(view.question, view.passages)
        if best and best[0].supported:
            return AIMessage(self.compose(best, language, question=view.question))
        if len(done) < MAX_SEARCHES and view.step < view.max_steps:
            # Meaning alone first: the hybrid ranking favours passages that share the question's words,
            # which a passage in the other language cannot; then the question's keywords alone.
            if (view.question, "dense") not in done:
                return _search(view, view.question, _DENSE_THOUGHT[language], mode="dense")
            keywords = " ".join(dict.fromkeys(self._lexicon.terms(view.question)))
            if keywords and (keywords, "hybrid") not in done:
                return _search(view, keywords, _RETRY_THOUGHT[language].format(query=keywords))
        if not best:
            return AIMessage(f"{NO_ANSWER} {_NOTHING[language]}")
        return AIMessage(f"{NO_ANSWER} {_UNSUPPORTED[language].format(where=_where(best[0].unit.passage, language))}")

    def best(self, question: str, passages: list[Passage]) -> list[Scored]:
        """The best answering sentence (with the steps of its list, or the sentence after it when that
        is about as good); [] without candidates."""
        units = [unit for passage in passages for unit in units_of(passage)]
        if not units:
            return []
        scored = self._score(question, units)
        supported = [item for item in scored if item.supported]
        form = asked_form(question)
        if form in TERM_FORMS:  # asked which option, file, number…: a sentence that holds none is no answer
            supported = [item for item in supported if lead(form, item.unit.text, question)]
        top = max(supported or scored, key=lambda item: item.rank)
        if not supported and form in TERM_FORMS:
            top = replace(top, supported=False)
        same = [item for item in scored if item.unit.passage.number == top.unit.passage.number]
        if STEP.match(top.unit.text):  # a step of a numbered list: the whole list, in order
            first = top.unit.index
            while any(item.unit.index == first - 1 and STEP.match(item.unit.text) for item in same):
                first -= 1
            steps = [item for item in same if item.unit.index >= first and STEP.match(item.unit.text)]
            run = [item for position, item in enumerate(steps) if item.unit.index == first + position]
            return run[:MAX_STEPS_QUOTED]
        following = next((item for item in same if item.unit.index == top.unit.index + 1), None)
        if following is not None and _INTRODUCES.search(top.unit.text):  # 「…を使いましょう:」 and what it shows
            return [top, following]
        if following is not None and following.supported and following.score >= top.score - FOLLOWING_MARGIN:
            return [top, following]
        return [top]

    def compose(self, picked: list[Scored], language: Language, *, question: str = "") -> str:
        """The asked thing first (an option, a path, a number… taken from the answering sentence), then
        the framing, the quotes and the citation, in the question's language."""
        passage = picked[0].unit.passage
        found = lead(asked_form(question), picked[0].unit.text, question) if question else None
        return compose_answer(passage, [item.unit.text for item in picked], language, lead=found)

    # --- Reflection: the support check ---

    def reflect(self, view: KnowledgeView) -> str:
        draft = view.draft or ""
        language = view.language
        passages = {passage.number: passage for passage in view.passages}
        cited = [passages[number] for number in _citations(draft) if number in passages]
        quotes = _quotes(draft, language)
        kept: list[tuple[Passage, str]] = []
        notes: list[str] = []
        for quote in quotes:
            home = next((passage for passage in cited if _normal(quote) in _normal(passage.text)), None)
            if home is None:
                notes.append(f"not in the cited passages: {_short(quote)}")
            else:
                kept.append((home, quote))
        residual = _residual(draft)
        known = set()
        for passage in cited:
            known |= set(self._lexicon.terms(f"{passage.title} {passage.heading} {passage.source} {passage.text}"))
        extra = [term for term in dict.fromkeys(self._lexicon.terms(residual)) if term not in known | self._frame_terms]
        if extra:
            notes.append(f"words the passages do not contain: {', '.join(extra[:8])}")
        if not cited:
            notes.append("no citation")
        if not notes and kept:
            where = ", ".join(f"[{passage.number}]" for passage in cited)
            thought = f"Every claim of the draft is in the cited passages ({where})."
            return f"Thought: {thought}\nFinal Answer: {draft}"
        if kept:
            home = kept[0][0]
            final = compose_answer(home, [quote for passage, quote in kept if passage is home], language)
            return f"Thought: Rewritten from the supported quotes only; {'; '.join(notes)}.\nFinal Answer: {final}"
        reason = _UNSUPPORTED[language].format(where=", ".join(_where(p, language) for p in cited) or "-")
        return f"Thought: No claim of the draft is supported; {'; '.join(notes)}.\nFinal Answer: {NO_ANSWER} {reason}"

    # --- scoring ---

    def _score(self, question: str, units: list[Unit]) -> list[Scored]:
        asked_in = detect_language(question)
        content = [term for term in dict.fromkeys(self._lexicon.terms(question, content_only=True)) if not _asks(term)]
        entities = _entities(question)
        unit_terms = [set(self._lexicon.terms(f"{unit.context} {unit.text}")) for unit in units]
        # A word's weight is its inverse frequency among the candidates (BM25's IDF).
        count = len(units)
        weights = {
            term: math.log(1 + (count + 0.5) / (sum(term in terms for terms in unit_terms) + 0.5)) for term in content
        }
        total = sum(weights.values())
        zs = self._z_scores(question, units)
        form = asked_form(question)
        neutral = _neutral_terms(question, asked_in)
        scored: list[Scored] = []
        for position, unit in enumerate(units):
            covered = sum(weight for term, weight in weights.items() if term in unit_terms[position])
            coverage = covered / total if total else 0.0
            z = None if zs is None else float(zs[position])
            anchored = all(entity in _haystack(unit.passage) for entity in entities)
            by_words = coverage >= SUPPORT_COVERAGE and (z is None or z >= SUPPORT_Z)
            # Across languages only meaning is shared, and the names and codes that read the same in both.
            # A number, a path or an option asked for and there in the sentence lowers the bar a little.
            shows_form = form in _EXTRACTED_FORMS and lead(form, unit.text, question) is not None
            bar = SUPPORT_Z_ACROSS_WITH_FORM if shows_form else SUPPORT_Z_ACROSS_LANGUAGES
            across = (
                detect_language(unit.text) != asked_in and z is not None and z >= bar and _shares_neutral(neutral, unit)
            )
            strong = z is not None and z + COVERAGE_WEIGHT * coverage >= SUPPORT_SCORE
            # What picks among the supported (never what makes one supported: measured, it added wrong answers)
            fit = _names(unit, entities) + _form_fit(unit, form, question)
            scored.append(Scored(unit, z, coverage, anchored and (by_words or across or strong), fit))
        return scored

    def _z_scores(self, question: str, units: list[Unit]) -> np.ndarray | None:
        """How far each candidate's similarity to the question stands out from the others', in deviations."""
        similarities = self._similarities(question, units)
        if similarities is None or len(units) < MIN_UNITS_FOR_Z:
            return None
        spread = float(similarities.std())
        if spread == 0.0:
            return None
        return np.asarray((similarities - float(np.median(similarities))) / spread)

    def _similarities(self, question: str, units: list[Unit]) -> np.ndarray | None:
        if self._embedder is None:
            return None
        texts = [unit.embedded for unit in units]
        wanted = {text: self._vectors[text] for text in dict.fromkeys(texts) if text in self._vectors}
        missing = [text for text in dict.fromkeys(texts) if text not in wanted]
        if missing:
            wanted.update(zip(missing, self._embedder.passages(missing), strict=True))
        for text, vector in wanted.items():  # the most recently used last; the oldest go first
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
        while len(self._vectors) > _CACHE_SIZE:
            self._vectors.popitem(last=False)
        matrix = np.vstack([wanted[text] for text in texts])
        return np.asarray(matrix @ self._embedder.query(question))


def _names(unit: Unit, entities: list[str]) -> float:
    """ENTITY_FIT when the sentence itself (not only its passage or heading) names every code and
    option of the question."""
    text = unicodedata.normalize("NFKC", unit.text).lower()
    return ENTITY_FIT if entities and all(entity in text for entity in entities) else 0.0


def _form_fit(unit: Unit, form: Form | None, question: str) -> float:
    """FORM_FIT when the sentence holds a thing of the asked form: a path for "which file", an option
    for "which option", a definition for "what is"."""
    if form == "definition":
        return FORM_FIT if DEFINES.search(unit.text) else 0.0
    return FORM_FIT if form in _EXTRACTED_FORMS and lead(form, unit.text, question) else 0.0


def _neutral_terms(question: str, asked_in: Language) -> list[str]:
    """The words of a question that read the same in both languages: in a Japanese question its Latin
    words (aptitude, docstring), in an English one its names, codes and numbers (Bernstein, qmail, 2.6)."""
    text = unicodedata.normalize("NFKC", question)
    if asked_in == "ja":
        return [word.lower() for word in re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", text)]
    words = re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][\w.+-]+|\b\w*[\d_][\w.+-]*|(?<!\w)-{1,2}\w[\w-]*", text)
    return [word.lower().rstrip(".") for word in words]


def _shares_neutral(neutral: list[str], unit: Unit) -> bool:
    """Whether a sentence in the other language holds at least half of the question's neutral words."""
    if not neutral:
        return True
    text = unicodedata.normalize("NFKC", f"{unit.context} {unit.text}").lower()
    return sum(word in text for word in neutral) * 2 >= len(neutral)


def units_of(passage: Passage) -> list[Unit]:
    """The sentences and lines of a passage that could be an answer, each verbatim in its text."""
    return [
        Unit(unit.index, unit.text, unit.context, passage)
        for unit in answer_units(passage.title, passage.heading, passage.text)
    ]


def compose_answer(passage: Passage, quotes: list[str], language: Language, *, lead: str | None = None) -> str:
    """``{where}によると、「…」とのことです。[n]`` / ``According to {where}: “…” [n]``; the framing
    says when the quotes are in the other language. ``lead``, the asked thing, comes first in bold."""
    across = any(detect_language(quote) != language for quote in quotes)
    opening, closing = (_FRAME_ACROSS if across else _FRAME)[language]
    if language == "ja":
        quoted = "".join(f"「{_clip(quote)}」" for quote in quotes)
    else:
        quoted = " ".join(f"“{_clip(quote)}”" for quote in quotes)
    first = f"**{lead}** — " if lead and all(lead not in (quote, quote.rstrip("。.")) for quote in quotes) else ""
    return f"{first}{opening.format(where=_where(passage, language))}{quoted}{closing} [{passage.number}]"


def _asks(term: str) -> bool:
    """A question word (何日, どこ, many): it says what kind of answer is wanted, not what it is about."""
    return term in _QUESTION_WORDS or term.startswith("何")


def _entities(question: str) -> list[str]:
    """The codes, options, identifiers and numbers a question names, normalized for matching."""
    text = unicodedata.normalize("NFKC", question)
    return list(dict.fromkeys(match.rstrip(".").lower() for match in _ENTITY.findall(text)))


def _haystack(passage: Passage) -> str:
    return unicodedata.normalize("NFKC", f"{passage.title} {passage.heading} {passage.text}").lower()


def _search(view: KnowledgeView, query: str, thought: str, *, mode: str = "hybrid") -> AIMessage:
    call_id = f"offline_{view.step}_{len(view.searches) + 1}"
    arguments: dict[str, object] = {"query": query, "collections": list(view.collections)}
    if mode != "hybrid":
        arguments["mode"] = mode
    return AIMessage(thought, tool_calls=[{"name": SEARCH_TOOL, "args": arguments, "id": call_id}])


def _where(passage: Passage, language: Language = "en") -> str:
    title = passage.title or passage.source
    heading = passage.heading if passage.heading and passage.heading != title else ""
    if language == "ja":
        return f"『{title}』（{heading}）" if heading else f"『{title}』"
    return f"{title} ({heading})" if heading else title


def _clip(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:59] + "…"


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).removesuffix("…")


def _citations(text: str) -> list[int]:
    return list(dict.fromkeys(int(number) for number in _CITATION.findall(text)))


def _quotes(text: str, language: Language = "ja") -> list[str]:
    """The quotes of a draft, each outermost: 「…」 in a Japanese one, “…” in an English one (what is
    inside, "…" or 「…」, stays part of the quote); then "…" outside them."""
    opening, closing = ("“", "”") if language == "en" else ("「", "」")
    spans = _bracketed(text, opening, closing)
    outside = _drop_brackets(text, opening, closing)
    spans += re.findall(r'"([^"]+)"', outside)
    return [span.removesuffix("…") for span in spans if span.strip()]


def _bracketed(text: str, opening: str, closing: str) -> list[str]:
    """Top-level spans between ``opening`` and ``closing`` (nested pairs inside are kept)."""
    spans: list[str] = []
    depth, start = 0, 0
    for position, char in enumerate(text):
        if char == opening:
            if depth == 0:
                start = position + 1
            depth += 1
        elif char == closing and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start:position])
    return spans


def _drop_brackets(text: str, opening: str = "「", closing: str = "」") -> str:
    kept: list[str] = []
    depth = 0
    for char in text:
        if char == opening:
            depth += 1
        elif char == closing and depth:
            depth -= 1
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def _residual(draft: str) -> str:
    """The draft without its quotes and citations: the words the draft itself claims."""
    unquoted = _drop_brackets(_drop_brackets(draft, "“", "”"))
    return _CITATION.sub(" ", re.sub(r'"[^"]*"', " ", unquoted))
