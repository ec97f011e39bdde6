"""Text folded for matching, shared by the offline brains: width, case and separators made alike."""

from __future__ import annotations

import re
import unicodedata


def normalize(text: str) -> str:
    """NFKC (full-width digits and Latin to half-width, half-width kana to full-width), trimmed."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("〜", "~").replace("～", "~").replace("−", "-")
    return re.sub(r"[ \t]+", " ", text).strip()


def fold(text: str) -> str:
    """Case- and separator-insensitive form for matching names: 'Close_Price' ~ 'close price'."""
    text = normalize(text).casefold()
    return re.sub(r"[\s_\-./()\[\]（）「」『』\"'`:]+", " ", text).strip()
