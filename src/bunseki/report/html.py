"""A report as one self-contained HTML5 file: styles inline, images embedded, nothing fetched.

Text from the model is Markdown rendered without raw HTML, and its links may only point inside
the page, so it can neither inject script nor make the browser load anything.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from pathlib import Path, PurePosixPath
from typing import Final

from markdown_it import MarkdownIt

from bunseki.domain import LABELS, Labels, ReportOutput, ReportSection
from bunseki.report.files import read_workspace_file
from bunseki.report.markdown import parse_table

MAX_IMAGE_BYTES: Final = 20 * 1024 * 1024
HTML_TABLE_ROWS: Final = 200
IMAGE_TYPES: Final = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".svg": "image/svg+xml",
}


class _InPageMarkdown(MarkdownIt):
    """Markdown whose links and images may only be in-page anchors; others stay plain text."""

    def validateLink(self, url: str) -> bool:
        return url.startswith("#")


_MARKDOWN: Final = _InPageMarkdown("commonmark", {"html": False}).enable(["table", "strikethrough"])

_STYLE: Final = """
:root { color-scheme: light; }
body {
  margin: 0; padding: 2rem 1rem; background: #fafafa; color: #1f2328;
  font-family: "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic", "Meiryo",
    system-ui, sans-serif;
  font-size: 16px; line-height: 1.8; word-break: normal; overflow-wrap: anywhere;
  line-break: strict; font-feature-settings: "palt";
}
main { max-width: 56rem; margin: 0 auto; background: #fff; padding: 2rem 2.5rem;
  border: 1px solid #e5e7eb; border-radius: 8px; }
h1 { font-size: 1.8rem; line-height: 1.4; margin-top: 0; }
h2 { font-size: 1.35rem; border-bottom: 2px solid #e5e7eb; padding-bottom: .3rem; margin-top: 2.5rem; }
h3 { font-size: 1.1rem; margin-top: 1.8rem; }
.conclusion { background: #f0f7ff; border-left: 4px solid #2f6fde; padding: .2rem 1.2rem;
  border-radius: 4px; }
figure { margin: 1.5rem 0; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figcaption, caption { font-style: italic; color: #57606a; font-size: .92rem; padding: .4rem 0; }
figcaption { text-align: center; }
caption { caption-side: top; text-align: left; }
.table-wrap { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: .92rem; line-height: 1.5; }
th, td { border: 1px solid #d0d7de; padding: .35rem .7rem; vertical-align: top; white-space: pre-wrap; }
th { background: #f3f4f6; text-align: left; }
tbody tr:nth-child(even) { background: #f9fafb; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.note { color: #57606a; font-size: .92rem; }
.missing { border: 1px dashed #d97706; background: #fffbeb; color: #92400e; padding: .6rem 1rem; }
pre { background: #f6f8fa; border: 1px solid #e5e7eb; border-radius: 6px; padding: .8rem 1rem;
  overflow-x: auto; line-height: 1.5; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK JP",
  monospace; font-size: .9em; }
@media print { body { background: #fff; padding: 0; } main { border: 0; padding: 0; }
  figure, table { break-inside: avoid; } }
"""


def render_html(report: ReportOutput, workspace: Path, *, code_cells: Sequence[str] = ()) -> str:
    """The whole report as one HTML document with its images read from ``workspace`` and embedded."""
    labels = LABELS[report.language]
    evidence = "\n".join(_section(section, workspace, labels) for section in report.sections)
    body = [
        f"<h1>{escape(report.title)}</h1>",
        _part(labels.conclusion, _markdown(report.conclusion), css_class="conclusion"),
        _part(labels.evidence, evidence),
    ]
    if report.assumptions:
        body.append(_part(labels.assumptions, _list(report.assumptions)))
    if report.suggestions:
        body.append(_part(labels.suggestions, _list(report.suggestions)))
    if code_cells:
        body.append(_part(labels.code, "\n".join(_code(cell, "python") for cell in code_cells)))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{report.language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(report.title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        "<body>\n<main>\n" + "\n".join(body) + "\n</main>\n</body>\n</html>\n"
    )


def _part(heading: str, content: str, *, css_class: str | None = None) -> str:
    attribute = f' class="{css_class}"' if css_class else ""
    return f"<section{attribute}>\n<h2>{escape(heading)}</h2>\n{content}\n</section>"


def _section(section: ReportSection, workspace: Path, labels: Labels) -> str:
    description = section.description.strip() if section.description else ""
    if section.section_type == "image":
        return _image(section.content, description, workspace, labels)
    if section.section_type == "table":
        return _table(section.content, description, labels)
    heading = f"<h3>{escape(description)}</h3>\n" if description else ""
    return heading + _markdown(section.content)


def _image(relative: str, description: str, workspace: Path, labels: Labels) -> str:
    """The image embedded as a data: URI, or a visible note when it is missing or refused."""
    caption = f"\n<figcaption>{escape(description)}</figcaption>" if description else ""
    mime = IMAGE_TYPES.get(PurePosixPath(relative).suffix.lower())
    data = read_workspace_file(workspace, relative, max_bytes=MAX_IMAGE_BYTES) if mime else None
    if data is None:
        note = escape(labels.image_unavailable.format(path=relative))
        return f'<figure>\n<p class="missing">{note}</p>{caption}\n</figure>'
    uri = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return f'<figure>\n<img src="{uri}" alt="{escape(description)}">{caption}\n</figure>'


def _table(content: str, description: str, labels: Labels) -> str:
    """An HTML table of the first rows; content that is not JSON records is shown as code."""
    table = parse_table(content, max_rows=HTML_TABLE_ROWS)
    if table is None:
        caption = f'<p class="note"><em>{escape(description)}</em></p>\n' if description else ""
        return f'{caption}<p class="note">{escape(labels.unreadable_table)}</p>\n{_code(content, "json")}'
    if not table.columns:
        return f'<p class="note">{escape(labels.empty_table)}</p>'
    caption = f"<caption>{escape(description)}</caption>" if description else ""
    head = "".join(f"<th>{escape(column)}</th>" for column in table.columns)
    opening = ['<td class="number">' if numeric else "<td>" for numeric in table.numeric]
    rows = "\n".join(
        "<tr>" + "".join(f"{td}{escape(cell)}</td>" for td, cell in zip(opening, row, strict=True)) + "</tr>"
        for row in table.rows
    )
    note = table.rows_left_out_note(labels)
    html = (
        f'<div class="table-wrap">\n<table>{caption}\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n{rows}\n</tbody>\n</table>\n</div>"
    )
    return (html + f'\n<p class="note">{escape(note)}</p>') if note else html


def _list(items: Sequence[str]) -> str:
    return "<ul>\n" + "\n".join(f"<li>{_markdown_inline(item)}</li>" for item in items) + "\n</ul>"


def _code(code: str, language: str) -> str:
    return f'<pre><code class="language-{language}">{escape(code.rstrip())}</code></pre>'


def _markdown(text: str) -> str:
    rendered: str = _MARKDOWN.render(text)
    return rendered.rstrip("\n")


def _markdown_inline(text: str) -> str:
    rendered: str = _MARKDOWN.renderInline(text.strip())
    return rendered
