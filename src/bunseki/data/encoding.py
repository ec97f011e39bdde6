"""Telling which encoding a Japanese table's bytes are in: UTF-8, CP932 (Shift_JIS) or EUC-JP.

UTF-8 is unambiguous: Japanese text in CP932 or EUC-JP is practically never valid UTF-8. CP932
(Windows Shift_JIS, which Excel writes) and EUC-JP overlap: EUC-JP kanji are byte pairs in
0xA1-0xFE, and CP932 reads most such pairs as half-width katakana. When both decode, the reading
made of hiragana, katakana and common kanji wins over the one made of half-width katakana, rare
kanji and symbols.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from typing import Final

from bunseki.errors import DataLoadError

# A reading is accepted only if its non-ASCII characters are plausible Japanese on average;
# Windows-1252 or Latin-1 text that happens to decode as CP932 is not.
_MIN_PLAUSIBILITY: Final = 0.3
# Below this many non-ASCII characters there is too little evidence to reject a reading.
_MIN_EVIDENCE: Final = 8
# Scoring looks at the start of the text only; that is plenty, and keeps big files fast.
_SCORED_CHARS: Final = 100_000

_COMMON: Final = 1.0
_SYMBOL: Final = 0.5
_HALF_WIDTH: Final = 0.5
_MALFORMED_HALF_WIDTH: Final = 0.1
_RARE_KANJI: Final = 0.25
_RARE: Final = 0.1

# JIS X 0208 level-1 kanji (rows 16-47) are the ~3,000 everyday kanji; level 2 and the vendor
# extensions are what mis-decoded bytes mostly turn into.
_LEVEL1_KANJI: Final = frozenset(
    char
    for lead in range(0xB0, 0xD0)
    for trail in range(0xA1, 0xFF)
    for char in bytes((lead, trail)).decode("euc_jp", errors="ignore")
)

# (first, last, weight) by Unicode block, for characters that are not level-1 kanji.
_BLOCK_WEIGHTS: Final = (
    (0x3000, 0x30FF, _COMMON),  # CJK punctuation, hiragana, katakana
    (0xFF01, 0xFF60, _COMMON),  # full-width ASCII
    (0xFFE0, 0xFFE6, _COMMON),  # full-width ￥, ￡, ￢
    (0x4E00, 0x9FFF, _RARE_KANJI),
    (0xF900, 0xFAFF, _RARE_KANJI),  # compatibility ideographs such as 﨑
    (0x00A1, 0x00BF, _SYMBOL),  # § ¨ ° ± ´ ¶
    (0x00D7, 0x00D7, _SYMBOL),  # ×
    (0x00F7, 0x00F7, _SYMBOL),  # ÷
    (0x2010, 0x2312, _SYMBOL),  # ― … ※ ℃ № Ⅰ → ∴ ⌒
    (0x2460, 0x24FF, _SYMBOL),  # ①
    (0x25A0, 0x26FF, _SYMBOL),  # ■ ○ ★ ♪
    (0x3200, 0x33FF, _SYMBOL),  # ㈱ ㎡ ㍉
    (0x0370, 0x04FF, _RARE),  # Greek and Cyrillic
    (0x2500, 0x257F, _RARE),  # box drawing
)

# A voicing mark can only follow a kana that takes it; elsewhere it is a mis-decoded byte.
_MISPLACED_VOICING_MARK: Final = re.compile("(?<![ｳｶ-ﾄﾊ-ﾎ])ﾞ|(?<![ﾊ-ﾎ])ﾟ")

_UTF16_BOMS: Final = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_JAPANESE_LEGACY: Final = ("cp932", "euc_jp")


def detect_encoding(raw: bytes) -> str:
    """Return "utf-8-sig", "utf-8", "cp932" or "euc_jp" for ``raw``, a whole file or its start.

    A character cut off at the very end is tolerated, so a prefix of a file can be passed.

    Raises:
        DataLoadError: the bytes are UTF-16, or fit none of the four encodings.
    """
    if raw.startswith(_UTF16_BOMS):
        raise DataLoadError("the text is UTF-16, which is not supported; save it as UTF-8 and try again.")
    if raw.startswith(codecs.BOM_UTF8):
        if _decodes(raw, "utf-8"):
            return "utf-8-sig"
        raise DataLoadError(
            "the text starts with a UTF-8 byte order mark but is not valid UTF-8 "
            f"(line {_first_bad_line(raw)}); save it as UTF-8 again and try again."
        )
    if raw.isascii() or _decodes(raw, "utf-8"):
        return "utf-8"
    # A cut-off last character is only forgiven when no encoding reads the bytes in full.
    readings = _legacy_readings(raw, final=True) or _legacy_readings(raw, final=False)
    scores = {name: plausibility(text) for name, text in readings.items()}
    # max() keeps the first of equal scores: CP932, which is far more common than EUC-JP.
    best = max(scores, key=lambda name: scores[name][0], default=None)
    if best is not None:
        score, evidence = scores[best]
        if evidence < _MIN_EVIDENCE or score >= _MIN_PLAUSIBILITY:
            return best
    raise DataLoadError(
        "the text is not UTF-8, CP932 (Shift_JIS) or EUC-JP (the first byte that is not UTF-8 is "
        f"on line {_first_bad_line(raw)}); save it as UTF-8 (in Excel: 'CSV UTF-8') and try again."
    )


def plausibility(text: str) -> tuple[float, int]:
    """How Japanese-looking the non-ASCII characters at the start of ``text`` are, and how many.

    The score is the mean per-character weight, from 1.0 (kana, common kanji, Japanese
    punctuation) down to 0 (private-use and control characters); (1.0, 0) for pure ASCII.
    """
    sample = text[:_SCORED_CHARS]
    counts = Counter(sample)
    half_width = _HALF_WIDTH if _MISPLACED_VOICING_MARK.search(sample) is None else _MALFORMED_HALF_WIDTH
    total = 0.0
    evidence = 0
    for char, count in counts.items():
        if not char.isascii():
            total += count * _char_weight(char, half_width)
            evidence += count
    return (total / evidence if evidence else 1.0), evidence


def _char_weight(char: str, half_width: float) -> float:
    """The plausibility of one non-ASCII character in a Japanese table."""
    if char in _LEVEL1_KANJI:
        return _COMMON
    code = ord(char)
    if 0xFF61 <= code <= 0xFF9F:  # half-width katakana and punctuation
        return half_width
    for first, last, weight in _BLOCK_WEIGHTS:
        if first <= code <= last:
            return weight
    return 0.0


def _legacy_readings(raw: bytes, *, final: bool) -> dict[str, str]:
    """The CP932 and EUC-JP decodings of ``raw`` that succeed, by encoding name."""
    readings = {}
    for name in _JAPANESE_LEGACY:
        text = _decode(raw, name, final=final)
        if text is not None:
            readings[name] = text
    return readings


def _decode(raw: bytes, encoding: str, *, final: bool) -> str | None:
    """``raw`` decoded strictly, or None; unless ``final``, a character cut off at the end is fine."""
    try:
        return codecs.getincrementaldecoder(encoding)("strict").decode(raw, final=final)
    except UnicodeDecodeError:
        return None


def _decodes(raw: bytes, encoding: str) -> bool:
    return _decode(raw, encoding, final=False) is not None


def _first_bad_line(raw: bytes) -> int:
    """The 1-based line holding the first byte that is not valid UTF-8."""
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(raw, final=False)
    except UnicodeDecodeError as exc:
        return raw.count(b"\n", 0, exc.start) + 1
    return raw.count(b"\n") + 1
