"""The things Bunseki is about, defined once and used as they are by every layer above."""

from __future__ import annotations

from bunseki.domain.language import LANGUAGES, Language

__all__ = ["LANGUAGES", "Language"]
