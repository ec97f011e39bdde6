"""The languages Bunseki speaks: every text it writes comes in Japanese or English."""

from __future__ import annotations

from typing import Final, Literal

Language = Literal["ja", "en"]
LANGUAGES: Final[tuple[Language, ...]] = ("ja", "en")
