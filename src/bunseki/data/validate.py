"""The EDA pipeline's ``validate_data``: what is wrong with a table, and a typed copy of it as Parquet.

The file is read by the one loader (encoding, delimiter, numbers and dates it can be sure of).
Columns the loader left as text are looked at again: placeholders such as "-" or "不明" become
missing, and numbers written with currency signs, units, full-width digits or ▲ for minus, other
date styles, and yes/no answers get their types. A column that is nearly all numbers (90%) keeps
the numbers, and its few other values become missing; one that is at least half numbers stays
text; both are reported as mixed. Then the profile of the typed table gives the rest: missing
values, empty and constant columns, identifiers, duplicate rows.

Every check works on whole columns (Arrow string kernels), and the costlier ones first refuse on
a sample of the first values. The original file is never changed; the typed table is written
where the caller says (the workspace).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bunseki.data.load import MISSING_MARKERS, TableFormat, infer_column, load_table
from bunseki.data.notes import LoadNote
from bunseki.data.numbers import read_numbers
from bunseki.data.profile import ColumnProfile, TableProfile, profile_table
from bunseki.domain import Language

ProblemKind = Literal[
    "numbers_as_text",
    "dates_as_text",
    "booleans_as_text",
    "missing_markers",
    "mixed_types",
    "missing_values",
    "empty_column",
    "constant_column",
    "id_column",
    "duplicate_ids",
    "duplicate_rows",
    "renamed_columns",
    "sheet_choice",
    "nested_columns",
]

MIXED_SHARE: Final = 0.9  # a column this much numbers is numbers with a few stray values …
MIXED_FLOOR: Final = 0.5  # … and one at least half numbers is reported as mixed, but kept as text
DATE_SHARE: Final = 0.95  # the loader's bar for dates
EXAMPLES: Final = 3
EXAMPLE_CHARS: Final = 30
_SAMPLE: Final = 200  # values tried before a whole column is

# What a mixed column's values look like when they are numbers (the full reading is bunseki.data.numbers).
_DIGIT: Final = "[0-9０-９]"
_DECORATED_NUMBER: Final = (
    rf"[▲△+\-＋－]?[¥$€£￥＄]?\s*(?:{_DIGIT}{{1,3}}(?:[,，]{_DIGIT}{{3}})+|{_DIGIT}+)(?:[.．]{_DIGIT}+)?\s*(?:円|%|％)?"
)
_LEADING_ZERO: Final = rf"[+\-＋－]?[0０]{_DIGIT}"  # 0123: a code, as the loader says
_NOTE_KINDS: Final[dict[str, ProblemKind]] = {
    "numbers": "numbers_as_text",
    "dates": "dates_as_text",
    "missing": "missing_markers",
    "renamed": "renamed_columns",
    "sheet": "sheet_choice",
    "nested": "nested_columns",
}
_BOOLEAN_PAIRS: Final = (
    ("yes", "no"),
    ("y", "n"),
    ("t", "f"),
    ("on", "off"),
    ("はい", "いいえ"),
    ("有", "無"),
    ("あり", "なし"),
    ("○", "×"),
    ("〇", "×"),
)
_MORE_DATE_FORMATS: Final = (
    (r"[0-9]{4}\.[0-9]{1,2}\.[0-9]{1,2}", "%Y.%m.%d"),
    (r"[0-9]{4}-[0-9]{1,2}", "%Y-%m"),
    (r"[0-9]{4}/[0-9]{1,2}", "%Y/%m"),
    (r"[0-9]{4}年[0-9]{1,2}月", "%Y年%m月"),
)


class DataProblem(BaseModel):
    """One thing found in a table, with a sentence for people in English and in Japanese."""

    model_config = ConfigDict(frozen=True)

    column: str | None = Field(description="None for the whole table (duplicate rows).")
    kind: ProblemKind
    count: int = Field(description="Values, cells or rows concerned.")
    message_en: str
    message_ja: str
    examples: list[str] = Field(default_factory=list, description=f"At most {EXAMPLES} values, cut short.")

    def message(self, language: Language) -> str:
        """The sentence in the person's language."""
        return self.message_ja if language == "ja" else self.message_en


@dataclass(frozen=True, eq=False)  # eq=False: == on DataFrames is elementwise, not a bool
class ValidatedTable:
    """A table read, typed and checked, and where its typed copy was written."""

    frame: pd.DataFrame
    source: Path
    path: Path  # the Parquet file
    format: TableFormat
    encoding: str | None
    delimiter: str | None
    problems: list[DataProblem]
    profile: TableProfile


def validate_data(
    source: Path,
    destination: Path,
    *,
    max_bytes: int | None = None,
    sheet: str | None = None,
    question: str | None = None,
) -> ValidatedTable:
    """Read ``source``, type and check it, and write the typed table to ``destination`` as Parquet.

    ``sheet`` and ``question`` choose a workbook's sheet, as for `load_table`.

    Raises:
        DataLoadError: the file cannot be read as a table (the loader's message says why).
        OSError: ``destination`` cannot be written.
    """
    loaded = load_table(source, max_bytes=max_bytes, sheet=sheet, question=question)
    frame, problems, profile = check_table(loaded.frame, inferred=loaded.format != "parquet")
    problems = [*(_noted(note) for note in loaded.notes), *problems]
    destination.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(destination, index=False, engine="pyarrow")
    return ValidatedTable(
        frame=frame,
        source=source,
        path=destination,
        format=loaded.format,
        encoding=loaded.encoding,
        delimiter=loaded.delimiter,
        problems=problems,
        profile=profile,
    )


def check_table(frame: pd.DataFrame, *, inferred: bool = False) -> tuple[pd.DataFrame, list[DataProblem], TableProfile]:
    """The table with its text columns typed where they clearly hold other types, what was found, and its profile.

    ``inferred``: the loader has already typed the text columns it could (CSV, TSV, Excel).
    """
    typed = frame.copy(deep=False)
    problems: list[DataProblem] = []
    for position, label in enumerate(frame.columns):
        column, found = type_column(str(label), frame.iloc[:, position], inferred=inferred)
        if column is not None:
            typed.isetitem(position, column.array)
        problems.extend(found)
    profile = profile_table(typed)
    for column_profile in profile.columns:
        problems.extend(_column_problems(column_profile, profile.rows))
    if profile.duplicates:
        problems.append(_duplicate_rows(profile.duplicates, profile.rows))
    return typed, problems, profile


# Typing text columns ----------------------------------------------------------------------------


def type_column(name: str, column: pd.Series, *, inferred: bool = False) -> tuple[pd.Series | None, list[DataProblem]]:
    """``column`` typed anew if it is text that holds something else (None: leave it), and what was found.

    ``inferred``: the loader has already tried its own types on this column as it is.
    """
    if not (pd.api.types.is_string_dtype(column) or pd.api.types.is_object_dtype(column)):
        return None, []
    text = column.astype("str")  # objects from Excel or Parquet, mixed numbers and text among them
    stripped = text.str.strip()
    problems = []
    markers = stripped.str.lower().isin(MISSING_MARKERS) | (stripped == "")
    changed = column.dtype != text.dtype or bool(markers.any())
    if markers.any():
        problems.append(_missing_markers(name, stripped[markers]))
        text = text.mask(markers)
        stripped = stripped.mask(markers)
    filled = stripped.dropna()
    if filled.empty:
        return (text if changed else None), problems
    converters: tuple[Converter, ...] = (_decorated_numbers, _more_dates, _more_booleans)
    if changed or not inferred:  # the loader's types are worth trying again
        converters = (_loader_types, *converters)
    for convert in converters:
        converted = convert(name, text, stripped, filled)
        if converted is not None:
            typed, found = converted
            return typed, [*problems, *found]
    mixed = _mostly_numbers(name, filled)
    if mixed is not None:
        problems.append(mixed)
    return (text if changed else None), problems


Converted = tuple[pd.Series, list[DataProblem]]
# (name, text, stripped text, its filled values) -> the typed column and what was found, or None
Converter = Callable[[str, pd.Series, pd.Series, pd.Series], Converted | None]


def _loader_types(name: str, text: pd.Series, stripped: pd.Series, filled: pd.Series) -> Converted | None:
    """What the loader would have made of the column (dates, numbers, true/false), now that placeholders are gone."""
    typed = infer_column(text, name)
    if typed is None:
        return None
    strays = filled[typed.reindex(filled.index).isna()]  # dates the loader could not parse
    if pd.api.types.is_datetime64_any_dtype(typed):
        kind: ProblemKind = "dates_as_text"
    elif pd.api.types.is_bool_dtype(typed):
        kind = "booleans_as_text"
    else:
        kind = "numbers_as_text"
    return typed, _as_text(kind, name, filled, strays)


def _decorated_numbers(name: str, text: pd.Series, stripped: pd.Series, filled: pd.Series) -> Converted | None:
    """Numbers with currency signs, units, thousands separators, full-width digits or ▲ for minus (90% of them)."""
    sample = read_numbers(filled.iloc[:_SAMPLE])
    if sample is None or sample.matched.mean() < MIXED_SHARE:
        return None  # cheap refusal before the whole column is read
    numbers = read_numbers(filled)
    if numbers is None or numbers.matched.mean() < MIXED_SHARE:
        return None
    values = numbers.values.where(numbers.matched).reindex(text.index)
    return values, _as_text("numbers_as_text", name, filled, filled[~numbers.matched])


def _more_dates(name: str, text: pd.Series, stripped: pd.Series, filled: pd.Series) -> Converted | None:
    """Dates written in styles the loader does not take on its own: 2024.01.05, 2024-01, 2024年1月."""
    sample = filled.iloc[:_SAMPLE]
    for pattern, parse in _MORE_DATE_FORMATS:
        if sample.str.fullmatch(pattern).mean() < DATE_SHARE:
            continue
        dates = pd.to_datetime(stripped, format=parse, errors="coerce")
        if dates.notna().sum() >= DATE_SHARE * len(filled):
            return dates, _as_text("dates_as_text", name, filled, filled[dates.reindex(filled.index).isna()])
    return None


def _more_booleans(name: str, text: pd.Series, stripped: pd.Series, filled: pd.Series) -> Converted | None:
    """Yes/no answers (yes/no, y/n, はい/いいえ, 有/無, あり/なし, ○/×) as booleans."""
    sample = filled.iloc[:_SAMPLE].str.lower()
    for yes, no in _BOOLEAN_PAIRS:
        if sample.isin((yes, no)).all() and filled.str.lower().isin((yes, no)).all():
            answers = stripped.str.lower().map({yes: True, no: False}).astype("boolean")
            return answers, _as_text("booleans_as_text", name, filled, filled.iloc[:0])
    return None


def _mostly_numbers(name: str, filled: pd.Series) -> DataProblem | None:
    """A text column at least half of whose values are numbers: mixed, kept as text."""
    if filled.iloc[:_SAMPLE].str.fullmatch(_DECORATED_NUMBER).mean() < MIXED_FLOOR / 2:
        return None  # cheap refusal: text, by the look of its first values
    numbers = filled.str.fullmatch(_DECORATED_NUMBER)
    share = float(numbers.mean())
    if share < MIXED_FLOOR or share == 1 or filled.str.match(_LEADING_ZERO).any():
        return None  # text, or codes such as 0123
    strays = filled[~numbers]
    examples = _examples(strays)
    shown = ", ".join(f"'{value}'" for value in examples)
    count = len(strays)
    return DataProblem(
        column=name,
        kind="mixed_types",
        count=count,
        message_en=f"{name}: {share:.0%} of the values are numbers, but {_values(count)} (e.g. {shown}) keep "
        "the column as text. Correct them to analyse it as numbers.",
        message_ja=f"{name}: 値の{share:.0%}は数値ですが、{count:,}件は数値ではありません（例: {shown}）。"
        "列は文字列のままにしました。数値として分析するには、これらの値を修正してください。",
        examples=examples,
    )


# Problems ---------------------------------------------------------------------------------------


def _noted(note: LoadNote) -> DataProblem:
    """What the loader noted (numbers or dates it read from text, renamed columns, the sheet) as a problem."""
    return DataProblem(
        column=note.column,
        kind=_NOTE_KINDS[note.kind],
        count=note.count,
        message_en=note.en,
        message_ja=note.ja,
        examples=list(note.examples),
    )


_AS_TEXT_EN: Final = {"numbers_as_text": "numbers", "dates_as_text": "dates", "booleans_as_text": "yes/no values"}
_AS_TEXT_JA: Final = {"numbers_as_text": "数値", "dates_as_text": "日付", "booleans_as_text": "真偽値（はい/いいえ）"}


def _as_text(kind: ProblemKind, name: str, filled: pd.Series, strays: pd.Series) -> list[DataProblem]:
    """A column of numbers, dates or yes/no stored as text, now typed; its ``strays`` became missing."""
    what_en, what_ja = _AS_TEXT_EN[kind], _AS_TEXT_JA[kind]
    converted = len(filled) - len(strays)
    examples = _examples(filled.drop(strays.index))
    shown = ", ".join(f"'{value}'" for value in examples)
    english = f"{name} holds {what_en} stored as text (e.g. {shown}); {converted:,} values were converted."
    japanese = f"{name} は{what_ja}が文字列として保存されていました（例: {shown}）。{converted:,}件を変換しました。"
    problems = [
        DataProblem(column=name, kind=kind, count=converted, message_en=english, message_ja=japanese, examples=examples)
    ]
    if len(strays):
        stray_examples = _examples(strays)
        shown = ", ".join(f"'{value}'" for value in stray_examples)
        problems.append(
            DataProblem(
                column=name,
                kind="mixed_types",
                count=len(strays),
                message_en=f"{name}: {_values(len(strays))} not read as {what_en} (e.g. {shown}); now missing.",
                message_ja=f"{name}: {len(strays):,}件は{what_ja}ではないため（例: {shown}）、欠損値にしました。",
                examples=stray_examples,
            )
        )
    return problems


def _missing_markers(name: str, markers: pd.Series) -> DataProblem:
    examples = _examples(markers.where(markers != "", "(blank)"))
    shown = ", ".join(f"'{value}'" for value in examples)
    count = len(markers)
    return DataProblem(
        column=name,
        kind="missing_markers",
        count=count,
        message_en=f"{name}: {_values(count)} held placeholders for missing data ({shown}); now missing.",
        message_ja=f"{name}: {count:,}件は欠損を表す記号（{shown}）だったため、欠損値として扱います。",
        examples=examples,
    )


def _column_problems(column: ColumnProfile, rows: int) -> list[DataProblem]:
    """Missing values, empty and constant columns, and identifiers, from a column's profile."""
    name, filled = column.name, rows - column.missing
    if rows and column.missing == rows:
        return [
            DataProblem(
                column=name,
                kind="empty_column",
                count=rows,
                message_en=f"{name} is empty: all {rows:,} values are missing.",
                message_ja=f"{name} は空の列です（全{rows:,}件が欠損）。",
            )
        ]
    problems = []
    if column.missing:
        share = column.missing_pct
        problems.append(
            DataProblem(
                column=name,
                kind="missing_values",
                count=column.missing,
                message_en=f"{name}: {_values(column.missing)} missing ({share:.1f}% of the rows).",
                message_ja=f"{name} に欠損値が{column.missing:,}件あります（全行の{share:.1f}%）。",
            )
        )
    if column.distinct == 1 and rows > 1:
        value = column.top_values[0].value if column.top_values else ""
        problems.append(
            DataProblem(
                column=name,
                kind="constant_column",
                count=filled,
                message_en=f"{name} has the same value in every filled row ('{value}'), so it tells nothing apart.",
                message_ja=f"{name} は値がすべて同じ（'{value}'）で、分析の手がかりになりません。",
                examples=[value],
            )
        )
    if column.kind == "id":
        problems.append(
            DataProblem(
                column=name,
                kind="id_column",
                count=column.distinct,
                message_en=f"{name} looks like an identifier ({column.distinct:,} distinct values); "
                "it is not analysed as a measure.",
                message_ja=f"{name} は識別子（ID）のようです（{column.distinct:,}種類）。数量としては分析しません。",
            )
        )
        if column.distinct < filled:
            repeats = filled - column.distinct
            problems.append(
                DataProblem(
                    column=name,
                    kind="duplicate_ids",
                    count=repeats,
                    message_en=f"{name} looks like an identifier, but {_values(repeats)} repeat earlier ones.",
                    message_ja=f"{name} は識別子のようですが、{repeats:,}件が重複しています。",
                    examples=[top.value for top in column.top_values if top.count > 1][:EXAMPLES],
                )
            )
    return problems


def _duplicate_rows(duplicates: int, rows: int) -> DataProblem:
    share = 100 * duplicates / rows
    return DataProblem(
        column=None,
        kind="duplicate_rows",
        count=duplicates,
        message_en=f"{_rows(duplicates)} ({share:.1f}%) repeat earlier rows exactly; they are kept.",
        message_ja=f"{duplicates:,}行（{share:.1f}%）が前の行と完全に重複しています（削除はしていません）。",
    )


def _values(count: int) -> str:
    return "1 value" if count == 1 else f"{count:,} values"


def _rows(count: int) -> str:
    return "1 row" if count == 1 else f"{count:,} rows"


def _examples(values: pd.Series) -> list[str]:
    """The first few distinct values, cut short, for a message."""
    shown = []
    for value in values.drop_duplicates().head(EXAMPLES).astype("str"):
        shown.append(value if len(value) <= EXAMPLE_CHARS else value[: EXAMPLE_CHARS - 1] + "…")
    return shown
