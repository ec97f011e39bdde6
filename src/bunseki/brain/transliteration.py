"""A name written in katakana and the same name in Latin letters, recognised as one (ニクソン ~ Nixon).

Japanese writes foreign names by their sound: Clinton as クリントン, England as イングランド. Neither
spelling can be looked up from the other, but both keep the name's consonants in order, so each is
reduced to a *skeleton* of consonant classes (vowels, long marks and silent letters dropped, sounds
Japanese does not tell apart merged: l and r, b and v, s, z and th) and two names match when
their skeletons are equal, or one sound apart for long names. A match is only a candidate: the
caller keeps it when exactly one value of the data has that skeleton.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

# The consonant class of each katakana (its vowel dropped); a kana not listed adds nothing (vowels,
# ー, ッ, small vowels and small ャュョ after a consonant: シュ is one sound).
_KANA_ROWS: Final = {
    "k": "カキクケコ",
    "g": "ガギグゲゴ",
    "s": "サスセソザズゼゾシジチ",  # ch, sh, j, z: English spells them alike too (Chicago, Charles)
    "t": "タテトツ",
    "d": "ダデドヂヅ",
    "n": "ナニヌネノン",
    "h": "ハヒヘホ",
    "f": "フ",
    "b": "バビブベボヴパピプペポ",
    "m": "マミムメモ",
    "y": "ヤユヨ",
    "r": "ラリルレロ",
    "w": "ワヲヰヱ",
}
_KANA: Final = {kana: sound for sound, row in _KANA_ROWS.items() for kana in row}
_KATAKANA_WORD: Final = re.compile(r"[\u30a1-\u30fa\u30fc]{3,}")
_LATIN_WORD: Final = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")

# English spellings to sounds, longest first; the rest letter by letter.
_DIGRAPHS: Final = (
    ("tch", "s"),
    ("sch", "s"),
    ("ch", "s"),
    ("sh", "s"),
    ("th", "s"),
    ("ph", "f"),
    ("ck", "k"),
    ("gh", ""),
    ("qu", "k"),
    ("wh", "w"),
    ("x", "ks"),
)
_LETTERS: Final = {
    "b": "b",
    "c": "k",
    "d": "d",
    "f": "f",
    "g": "g",
    "h": "h",
    "j": "s",  # ジ, ジョ: the class of s and z
    "k": "k",
    "l": "r",
    "m": "m",
    "n": "n",
    "p": "b",
    "q": "k",
    "r": "r",
    "s": "s",
    "t": "t",
    "v": "b",
    "w": "w",
    "y": "y",
    "z": "s",
}
_VOWELS: Final = frozenset("aeiouy")


def katakana_skeleton(word: str) -> str:
    """The consonants of a katakana word: ニクソン → 'nksn', クリントン → 'krntn'."""
    word = unicodedata.normalize("NFKC", word)
    sounds = []
    for index, kana in enumerate(word):
        sound = _KANA.get(kana, "")
        if kana == "ウ" and word[index + 1 : index + 2] in ("ァ", "ィ", "ェ", "ォ"):
            sound = "w"  # ウォ, ウィ: wo, wi (Walker, Williams)
        if sound:
            sounds.append(sound)
    return _merged("".join(sounds))


def latin_skeletons(word: str) -> set[str]:
    """The consonants of a Latin-letter word as Japanese would sound them (Nixon → 'nksn'): an
    English r after a vowel is a long mark (Ford: フォード), a German one is sounded (Dortmund)."""
    return {latin_skeleton(word, silent_r=silent) for silent in (True, False)}


def latin_skeleton(word: str, *, silent_r: bool = True) -> str:
    """One reading of a Latin-letter word's consonants (``silent_r``: Carter as カーター)."""
    text = unicodedata.normalize("NFKD", word.casefold())
    text = "".join(c for c in text if "a" <= c <= "z")
    text = re.sub(r"c(?=[eiy])", "s", text)  # France, Alice: soft c
    text = re.sub(r"g(?=[eiy])", "s", text)  # George: soft g reads ジ (the s class)
    text = re.sub(r"m(?=[bp])", "n", text)  # Trump: ン before b and p
    text = re.sub(r"(?<=a)l(?=k)", "", text)  # Walker, talk: a silent l
    if silent_r:
        text = re.sub(r"(?<=[aeiou])r(?![aeiouy])", "", text)  # Ford, Carter: r after a vowel is a long mark
    text = re.sub(r"(?<=[aeiou])h(?![aeiouy])", "", text)  # Sarah, John: a silent h
    for spelling, sound in _DIGRAPHS:
        text = text.replace(spelling, "\x00" + sound + "\x01")
    sounds = []
    inside = False
    for index, letter in enumerate(text):
        if letter in "\x00\x01":
            inside = letter == "\x00"
            continue
        if inside:
            sounds.append(letter)
            continue
        if letter in _VOWELS and not (letter == "y" and index == 0):
            continue
        sounds.append(_LETTERS.get(letter, ""))
    return _merged("".join(sounds))


def _merged(sounds: str) -> str:
    """Doubled consonants as one (Kennedy: k n d)."""
    return re.sub(r"(.)\1+", r"\1", sounds)


def sound_alike(a: str, b: str) -> bool:
    """Two skeletons of one name: equal (three sounds or more), or one sound apart after the same
    first sound when one holds five or more and the other four or more (Hamburg: ハンブルク)."""
    if len(a) < 3 or len(b) < 3:
        return False
    if a == b:
        return True
    if min(len(a), len(b)) < 4 or max(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1 or a[0] != b[0]:
        return False
    return _one_edit(a, b)


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def katakana_words(text: str) -> list[tuple[int, int, str]]:
    """Katakana words of three kana or more, with their spans (a ・ or space ends a word)."""
    return [(m.start(), m.end(), m.group()) for m in _KATAKANA_WORD.finditer(text)]


def latin_words(text: str) -> list[tuple[int, int, str]]:
    """Latin-letter words of three letters or more, with their spans."""
    return [(m.start(), m.end(), m.group()) for m in _LATIN_WORD.finditer(text)]


def is_katakana(word: str) -> bool:
    return bool(_KATAKANA_WORD.fullmatch(word))
