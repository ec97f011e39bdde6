"""Lexical (sparse) vectors: SudachiPy terms weighted by BM25, the IDF half left to Qdrant.

Japanese words are reduced to Sudachi's normalized form with particles, auxiliaries, symbols and
affixes dropped. Words in Latin script keep their own spelling (Sudachi would turn "page" into
ページ), lowercased, with a light plural strip; identifiers are also split at '_' and camelCase so
``bisectLeft`` matches "bisect". A term's id is its CRC-32: stable across processes and machines.
A document's value for a term is BM25's saturated term frequency; Qdrant's IDF modifier multiplies
in the inverse document frequency at query time, so the weights stay right as a collection grows.
"""

from __future__ import annotations

import re
import threading
import unicodedata
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Final

from sudachipy import Dictionary, SplitMode

LEXICON_ID: Final = "sudachi-core-C-bm25-v1"

_K1: Final = 1.2
_B: Final = 0.75
# Chunks are cut to about the same length, so a fixed average keeps every document's weights
# independent of the rest of the collection (and of the order files are ingested in).
_AVERAGE_TERMS: Final = 60.0
# Sudachi refuses inputs over ~49 kB; texts are tokenized in pieces well below that.
_PIECE_CHARS: Final = 8000

_DROPPED_POS: Final = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白", "接頭辞", "接尾辞"})
_CONTENT_POS: Final = frozenset({"名詞", "形状詞"})
# Light verbs and formal nouns that carry no topic.
_JAPANESE_STOP: Final = frozenset({"為る", "居る", "有る", "成る", "言う", "事", "物", "様", "此の", "其の", "出来る"})
_ENGLISH_WORDS: Final = """
a an the and or but if of to in on at by for with from as is are was were be been being do does did
how what which who whom when where why this that these those it its i you he she we they my your our
their me him her us them can could should would will shall may might must not no so than then there
here into about over under after before up down out
"""
_ENGLISH_STOP: Final = frozenset(_ENGLISH_WORDS.split())
_LATIN_RUN: Final = re.compile(r"([0-9A-Za-z](?:[0-9A-Za-z_.\-']*[0-9A-Za-z])?)")
_CAMEL_PART: Final = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


@dataclass(frozen=True)
class SparseVector:
    """Term ids (sorted, unique) and their weights."""

    indices: tuple[int, ...]
    values: tuple[float, ...]

    def __bool__(self) -> bool:
        return bool(self.indices)


class Lexicon:
    """Turns text into terms and sparse vectors. One Sudachi tokenizer, used under a lock."""

    def __init__(self) -> None:
        self._tokenizer = Dictionary(dict="core").tokenizer(mode=SplitMode.C)
        # A Sudachi tokenizer is not safe to share between threads; the API serves from a pool.
        self._lock = threading.Lock()

    def terms(self, text: str, *, content_only: bool = False) -> list[str]:
        """The index terms of ``text`` in order, repeats included; with ``content_only``, of its
        Japanese words only the nouns and adjectival nouns (what a text is about, not what it does)."""
        normalized = unicodedata.normalize("NFKC", text)
        terms: list[str] = []
        with self._lock:
            # Runs of Latin letters and digits are ours (identifiers stay whole); the rest is Sudachi's.
            for index, segment in enumerate(_LATIN_RUN.split(normalized)):
                if index % 2:
                    terms.extend(_latin_terms(segment))
                elif segment.strip() and not segment.isascii():
                    terms.extend(self._japanese_terms(segment, content_only))
        return terms

    def _japanese_terms(self, segment: str, content_only: bool = False) -> list[str]:
        terms: list[str] = []
        for start in range(0, len(segment), _PIECE_CHARS):
            for morpheme in self._tokenizer.tokenize(segment[start : start + _PIECE_CHARS]):
                pos = morpheme.part_of_speech()[0]
                if pos in _DROPPED_POS or (content_only and pos not in _CONTENT_POS):
                    continue
                lemma = morpheme.normalized_form().lower()
                if lemma not in _JAPANESE_STOP:
                    terms.append(lemma)
        return terms

    def document_vector(self, text: str) -> SparseVector:
        """BM25 term-frequency weights of a chunk (the IDF factor is Qdrant's)."""
        counts = Counter(term_id(term) for term in self.terms(text))
        length = sum(counts.values())
        norm = _K1 * (1 - _B + _B * length / _AVERAGE_TERMS)
        ordered = sorted(counts.items())
        return SparseVector(
            indices=tuple(index for index, _ in ordered),
            values=tuple(count * (_K1 + 1) / (count + norm) for _, count in ordered),
        )

    def query_vector(self, text: str) -> SparseVector:
        """Each distinct query term once, weight 1 (Qdrant scales it by IDF)."""
        indices = sorted({term_id(term) for term in self.terms(text)})
        return SparseVector(indices=tuple(indices), values=tuple(1.0 for _ in indices))


def term_id(term: str) -> int:
    """A term's id in the sparse vector: CRC-32, 31 bits (Python's hash() differs per process)."""
    return zlib.crc32(term.encode()) & 0x7FFFFFFF


def _latin_terms(word: str) -> list[str]:
    """Terms of a word in Latin script: the word itself, and the parts of a compound identifier."""
    parts = [part for piece in re.split(r"[_.\-']+", word) for part in _CAMEL_PART.findall(piece)]
    terms: list[str] = []
    for candidate in dict.fromkeys([word, *parts]) if len(parts) > 1 else (word,):
        lowered = candidate.lower()
        if lowered not in _ENGLISH_STOP and not (len(lowered) == 1 and lowered.isalpha()):
            terms.append(_singular(lowered))
    return terms


def _singular(word: str) -> str:
    """A crude plural strip, enough for "passwords" to meet "password"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
