"""What the loader did to a file on the way to a table, said in Japanese and in English.

A note is made for every reading that is not the obvious one (numbers written with currency
signs or decimal commas, dates in several styles, renamed columns, the sheet of a workbook,
nested columns), so that the overview and the report can state it as an assumption.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

NoteKind = Literal["numbers", "dates", "missing", "renamed", "sheet", "nested"]
EXAMPLE_CHARS: Final = 30


@dataclass(frozen=True)
class LoadNote:
    """One conversion or choice the loader made; ``column`` is None for the whole file."""

    kind: NoteKind
    en: str
    ja: str
    column: str | None = None
    count: int = 0  # values converted, when that is what the note is about
    examples: tuple[str, ...] = ()

    def text(self, language: str) -> str:
        """The note in the person's language (Japanese, else English)."""
        return self.ja if language == "ja" else self.en


def note_texts(notes: tuple[LoadNote, ...] | list[LoadNote], language: str) -> list[str]:
    """Each note in ``language``, in order."""
    return [note.text(language) for note in notes]


def shown(value: object) -> str:
    """A value cut short for a note."""
    text = str(value)
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1] + "…"
