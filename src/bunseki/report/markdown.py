"""A report as Markdown (report.md), plus the headings and table reading the HTML renderer shares.

Image paths stay relative to the workspace, so report.md keeps working when the workspace
folder is moved or zipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bunseki.domain import LABELS, Labels, ReportOutput, ReportSection

MARKDOWN_TABLE_ROWS: Final = 50


@dataclass(frozen=True)
class Table:
    """The first rows of a table section as display strings, and how many rows it has in all."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]  # per column: every filled value is a number (right-aligned)
    total_rows: int

    def rows_left_out_note(self, labels: Labels) -> str | None:
        """The note saying how many rows are not shown, or None when all are."""
        left_out = self.total_rows - len(self.rows)
        if left_out <= 0:
            return None
        return labels.rows_left_out.format(shown=len(self.rows), total=self.total_rows, left_out=left_out)


def parse_table(content: str, *, max_rows: int) -> Table | None:
    """Read JSON records (``to_json(orient="records")``); None if ``content`` is anything else."""
    try:
        records = json.loads(content)
    except (ValueError, RecursionError):
        return None
    if not isinstance(records, list) or not all(isinstance(record, dict) for record in records):
        return None
    columns = tuple(dict.fromkeys(key for record in records for key in record))
    shown = records[:max_rows]
    rows = tuple(tuple(_cell_text(record.get(column)) for column in columns) for record in shown)
    numeric = tuple(_is_numeric([record.get(column) for record in shown]) for column in columns)
    return Table(columns, rows, numeric, len(records))


def _is_numeric(values: list[object]) -> bool:
    """Whether a column holds numbers, with nothing else but missing values."""
    return any(map(_is_number, values)) and all(_is_number(value) or value is None for value in values)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _cell_text(value: object) -> str:
    """A JSON value as table text: strings as they are, numbers readable, missing values empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if _is_number(value):
        return _number_text(float(value))  # type: ignore[arg-type]
    return json.dumps(value, ensure_ascii=False)


def _number_text(value: float) -> str:
    """1234567.0 → 1,234,567; 0.123456 → 0.1235; keeps what a reader needs."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.2f}"
    return f"{value:.4g}"


def render_markdown(report: ReportOutput, *, code_cells: Sequence[str] = ()) -> str:
    """The whole report as one Markdown document, headings in the report's language."""
    labels = LABELS[report.language]
    blocks = [
        f"# {_one_line(report.title)}",
        f"## {labels.conclusion}",
        report.conclusion,
        f"## {labels.evidence}",
    ]
    blocks.extend(_section(section, labels) for section in report.sections)
    if report.assumptions:
        blocks += [f"## {labels.assumptions}", bullet_list(report.assumptions)]
    if report.suggestions:
        blocks += [f"## {labels.suggestions}", bullet_list(report.suggestions)]
    if code_cells:
        blocks.append(f"## {labels.code}")
        blocks.extend(fenced(cell, "python") for cell in code_cells)
    return "\n\n".join(block.strip("\n") for block in blocks) + "\n"


def _section(section: ReportSection, labels: Labels) -> str:
    description = section.description.strip() if section.description else ""
    if section.section_type == "image":
        image = f"![{_escape_inline(description)}]({_destination(section.content)})"
        return f"{image}\n\n*{_escape_inline(description)}*" if description else image
    if section.section_type == "table":
        caption = f"*{_escape_inline(description)}*\n\n" if description else ""
        return caption + _table(section.content, labels)
    heading = f"### {_one_line(description)}\n\n" if description else ""
    return heading + section.content


def _table(content: str, labels: Labels) -> str:
    table = parse_table(content, max_rows=MARKDOWN_TABLE_ROWS)
    if table is None:
        return f"{labels.unreadable_table}\n\n{fenced(content, 'json')}"
    if not table.columns:
        return labels.empty_table
    lines = [
        _row(table.columns),
        "| " + " | ".join("---:" if numeric else "---" for numeric in table.numeric) + " |",
        *(_row(row) for row in table.rows),
    ]
    note = table.rows_left_out_note(labels)
    return "\n".join(lines) + (f"\n\n{note}" if note else "")


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(_escape_cell(cell) for cell in cells) + " |"


def bullet_list(items: Sequence[str]) -> str:
    """A Markdown list with one item per entry."""
    # Indenting continuation lines keeps a multi-line item inside its list item.
    return "\n".join("- " + item.strip().replace("\n", "\n  ") for item in items)


def fenced(code: str, language: str) -> str:
    """A fenced code block whose fence is longer than any run of backticks inside ``code``."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}"


_INLINE_SPECIAL: Final = re.compile(r"([\\`*_\[\]<>|])")


def _escape_inline(text: str) -> str:
    """Text that shows literally, on one line, inside emphasis or an image's alt text."""
    return _INLINE_SPECIAL.sub(r"\\\1", _one_line(text))


def _escape_cell(text: str) -> str:
    # A newline would end the table row; <br> keeps the line break inside the cell.
    return "<br>".join(_INLINE_SPECIAL.sub(r"\\\1", line) for line in text.splitlines() or [""])


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _destination(path: str) -> str:
    """A link destination for ``path`` as written; the <…> form allows spaces and parentheses."""
    if re.fullmatch(r"[\w./~+-]+", path):
        return path
    return "<" + re.sub(r"([<>\\])", r"\\\1", path) + ">"
