"""Which sheet of a workbook to read: the one asked for, the one a question names, or the first.

Choosing by question compares the question with each sheet's column names (case-folded; a
name counts when it appears in the question as written). The sheet naming the most columns,
and the longest of them, wins; with no name in the question, or a tie, the first sheet stays.
Work is bounded by the number of column names times the length of the question, both limited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from bunseki.data.notes import LoadNote

MIN_NAME_CHARS: Final = 2  # one-letter column names ("x", "A") would match almost any question
_SHOWN_SHEETS: Final = 10


def sheet_for_question(headers: Mapping[str, Sequence[str]], question: str) -> tuple[str | None, list[str]]:
    """The sheet whose columns ``question`` names best (None if none or a tie), and those columns."""
    folded = question.casefold()
    best: tuple[int, int] = (0, 0)
    chosen: tuple[str | None, list[str]] = (None, [])
    tied = False
    for sheet, names in headers.items():
        named = [name for name in names if len(name) >= MIN_NAME_CHARS and name.casefold() in folded]
        if not named:
            continue
        score = (len(named), max(len(name) for name in named))
        if score > best:
            best, chosen, tied = score, (sheet, named), False
        elif score == best:
            tied = True
    return (None, []) if tied else chosen


def sheet_note(
    file_name: str, sheet: str, sheets: Sequence[str], *, how: str, named: Sequence[str] = ()
) -> LoadNote | None:
    """Say which sheet was read and which others exist; None for a workbook of one sheet read as such.

    ``how``: "asked" (the person chose it), "question" (its columns are in the question) or "first".
    """
    others = [name for name in sheets if name != sheet]
    if not others and how != "question":
        return None
    listed = ", ".join(f"'{name}'" for name in others[:_SHOWN_SHEETS])
    if len(others) > _SHOWN_SHEETS:
        listed += f" (+{len(others) - _SHOWN_SHEETS})"
    other_en = f" Other sheets: {listed}." if others else ""
    other_ja = f" 他のシート: {listed}。" if others else ""
    columns = ", ".join(named)
    if how == "question":
        en = f"Read sheet '{sheet}' of {file_name}, because the question names its columns ({columns}).{other_en}"
        ja = f"質問が列（{columns}）に触れているため、{file_name} のシート「{sheet}」を読み込みました。{other_ja}"
    elif how == "asked":
        en = f"Read sheet '{sheet}' of {file_name}, as asked.{other_en}"
        ja = f"指定どおり、{file_name} のシート「{sheet}」を読み込みました。{other_ja}"
    else:
        en = (
            f"Read the first sheet, '{sheet}', of {file_name}.{other_en} To use another, choose it: --sheet NAME "
            "(CLI), the sheet box (UI) or the sheet parameter (API)."
        )
        ja = (
            f"{file_name} の最初のシート「{sheet}」を読み込みました。{other_ja} 別のシートを使うには、"
            "--sheet NAME（CLI）、シートの選択欄（UI）、sheet パラメータ（API）で指定してください。"
        )
    return LoadNote(kind="sheet", en=en, ja=ja)
