"""Telling Japanese from English, so every answer comes back in the person's language."""

from __future__ import annotations

import re

from bunseki.brain.models import Language

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")


def detect_language(text: str) -> Language:
    """ "ja" when the text contains kana or kanji, otherwise "en"."""
    return "ja" if _JAPANESE.search(text) else "en"
