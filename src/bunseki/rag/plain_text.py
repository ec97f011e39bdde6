"""Plain text laid out by indentation: man pages saved as text, help texts, reStructuredText.

Such text says its structure with spaces. A heading is a short line set further left than the
text under it (``OPTIONS``, ``説明``), or a line underlined with ``====`` or ``----``. A definition
list is a term with its description indented under it, or beside it after a run of spaces:

    -a, --all
           do not ignore entries starting with .
    -k                    like --block-size=1K

Each paragraph of a description becomes one block that starts with its term (``-a, --all: do not
ignore…``), so an option, setting or field never loses its name. A paragraph's wrapped lines are
joined (a word hyphenated at a line end is put back together, and the spaces a justified Japanese
line puts between characters are dropped). Running page headers and footers (``LS(1) … LS(1)``)
and reStructuredText's directives and roles are left out.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Final

from bunseki.rag.models import Section

_UNDERLINE: Final = re.compile(r"^([=\-~^*#\"+`'_.:])\1{2,}\s*$")
_RUNNING_HEAD: Final = re.compile(r"^\S.*\s{2,}.*\S+\(\d[a-z0-9]*\)\s*$")  # LS(1)  User Commands  LS(1)
_BULLET: Final = re.compile(r"^(?:[-*•+]|\d{1,2}[.)]|[a-z][.)])\s+\S")
_OPTION_BESIDE: Final = re.compile(r"^(-{1,2}[^\s].{0,38}?|[A-Z][A-Z0-9_]{1,30})\s{2,}(\S.*)$")
_TERM_MAX: Final = 72
_MAX_SHOWN_LINES: Final = 4  # commands shown under the words that introduce them
_MAX_SHOWN_CHARS: Final = 100
_PROSE_COLUMNS: Final = 24  # a line this wide is text, not a heading or a term
_HEADING_MAX: Final = 48
CJK: Final = "\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"  # Japanese characters, for character classes
_WIDE: Final = re.compile(rf"[{CJK}]")  # a character two columns wide
_JUSTIFIED: Final = re.compile(rf"(?<=[{CJK}])[ \t]+(?=[{CJK}])")
_RST_LABEL: Final = re.compile(r"^\s*\.\.\s+(?:_[^:]+:|index::|\[#\]|\|[^|]+\|\s+\w+::)")
_RST_ROLE: Final = re.compile(r":[a-z][\w:-]*:`([^`<]+?)(?:\s*<[^>]+>)?`")
_RST_LINK: Final = re.compile(r"`([^`<]+?)\s*<[^>]+>`_{1,2}")
_RST_LITERAL: Final = re.compile(r"``([^`]+)``")
_FOOTNOTE: Final = re.compile(r"\s*\[#\]_")
_ENTRY: Final = re.compile(r"^[^\s:：。.]{1,40}[:：]\s+\S")  # KEY: value, E02: 紙詰まり


@dataclass
class _Line:
    indent: int
    text: str


def read_indented(text: str, *, rst: bool = False) -> tuple[str, list[Section]]:
    """The title (or "") and sections of ``text``; ``rst`` also strips reStructuredText markup."""
    lines = [_Line(len(raw) - len(raw.lstrip(" ")), raw.strip()) for raw in text.expandtabs(8).split("\n")]
    lines = [line for line in lines if not _RUNNING_HEAD.match(line.text)]
    if rst:
        kept = [line for line in lines if not _RST_LABEL.match(line.text) and line.text != "::"]
        lines = [_Line(line.indent, _plain_rst(line.text)) for line in kept]
    body = _body_indent(lines)
    width = _wrap_width(lines)
    # A justified line reaches the width with runs of spaces put between its words: they mean nothing.
    lines = [_Line(line.indent, _unjustified(line.text)) if _full(line, width) else line for line in lines]
    title = ""
    sections: list[Section] = []
    heading = ""
    current: list[_Line] = []

    def flush() -> None:
        blocks = _blocks(current, width)
        if blocks:
            sections.append(Section(heading=heading, blocks=tuple(blocks)))
        current.clear()

    position = 0
    while position < len(lines):
        line = lines[position]
        following = lines[position + 1] if position + 1 < len(lines) else None
        if following is not None and _is_underlined(line, following):
            flush()
            if not title and not sections:
                title = line.text
            heading = line.text
            position += 2
            continue
        if _UNDERLINE.match(line.text) and following is not None and following.text:  # an overline
            position += 1
            continue
        if _is_heading(lines, position, body):
            flush()
            heading = line.text
            position += 1
            continue
        current.append(line)
        position += 1
    flush()
    return title, sections


def _next_text(lines: list[_Line], position: int) -> _Line | None:
    """The first line with text after ``position`` (without copying the rest: texts run long)."""
    return next((lines[later] for later in range(position + 1, len(lines)) if lines[later].text), None)


def _body_indent(lines: list[_Line]) -> int:
    """The indent of the text's paragraphs: the smallest one that a good share of its longer lines
    have (0 for prose, 7 for a man page, whose option descriptions further in may be more)."""
    counts = Counter(line.indent for line in lines if _columns(line.text) >= _PROSE_COLUMNS)
    total = sum(counts.values())
    return min((indent for indent, count in counts.items() if count >= 0.15 * total), default=0)


def _wrap_width(lines: list[_Line]) -> int:
    """The width the text is wrapped at (display columns: a Japanese character takes two)."""
    texts = [line for line in lines if line.text and not _UNDERLINE.match(line.text)]
    widths = sorted(line.indent + _columns(line.text) for line in texts)
    return max(40, widths[int(len(widths) * 0.95)] if widths else 0)


def _unjustified(text: str) -> str:
    """A justified line with single spaces; an option's gap before its description stays."""
    beside = re.match(r"^(-\S*(?:, -\S+)*)(\s{2,})(\S.*)$", text)
    if beside:
        return f"{beside.group(1)}{beside.group(2)}{' '.join(beside.group(3).split())}"
    return " ".join(text.split())


def _full(line: _Line, width: int) -> bool:
    return line.indent + _columns(line.text) >= width - 1


def _columns(text: str) -> int:
    return len(text) + len(_WIDE.findall(text))


def _is_underlined(line: _Line, following: _Line) -> bool:
    return (
        bool(line.text)
        and not _UNDERLINE.match(line.text)
        and _UNDERLINE.match(following.text) is not None
        and len(following.text) >= min(len(line.text), 3)
        and line.indent == following.indent
    )


def _is_heading(lines: list[_Line], position: int, body: int) -> bool:
    """A short line set left of the body, with text under it (``OPTIONS``, ``   Option styles``)."""
    line = lines[position]
    if body == 0 or not line.text or line.indent >= body or len(line.text) > _HEADING_MAX:
        return False
    if line.text[-1] in ".。,、;；" or _BULLET.match(line.text):
        return False
    following = _next_text(lines, position)
    return following is not None and following.indent > line.indent


def _blocks(lines: list[_Line], width: int) -> list[str]:
    """The paragraphs of a section; a definition's paragraphs each start with its term."""
    blocks: list[str] = []
    position = 0
    while position < len(lines):
        line = lines[position]
        if not line.text:
            position += 1
            continue
        term, description_at, first = _definition(lines, position)
        if term is not None:
            end = position + 1
            while end < len(lines) and (not lines[end].text or lines[end].indent >= description_at):
                if not lines[end].text and not _continues(lines, end, description_at):
                    break
                end += 1
            described = ([_Line(description_at, first)] if first else []) + lines[position + 1 : end]
            paragraphs = _paragraphs(described, width)
            blocks += [f"{term}: {paragraph}" for paragraph in paragraphs] or [term]
            position = end
            continue
        end = position + 1
        while end < len(lines) and lines[end].text and not _definition(lines, end)[0]:
            end += 1
        blocks += _paragraphs(lines[position:end], width)
        shown, position = _shown(lines, end, lines[end - 1].indent) if blocks[-1][-1:] in ":：" else ([], end)
        if shown:  # 「…こういうコマンドを使いましょう:」 and the commands set in under it
            blocks[-1] = f"{blocks[-1].rstrip(':： ')}: {' / '.join(shown)}"
    return blocks


def _shown(lines: list[_Line], start: int, indent: int) -> tuple[list[str], int]:
    """The few short lines set in further than ``indent`` from ``start`` on (blank lines between them),
    and where they end; none when there are more or longer ones (a block of its own, then)."""
    shown: list[str] = []
    position = start
    while position < len(lines) and (not lines[position].text or lines[position].indent > indent):
        if lines[position].text:
            shown.append(lines[position].text)
        position += 1
    if not shown or len(shown) > _MAX_SHOWN_LINES or any(len(line) > _MAX_SHOWN_CHARS for line in shown):
        return [], start
    return shown, position


def _definition(lines: list[_Line], position: int) -> tuple[str | None, int, str]:
    """(term, the description's indent, the description's text on the term's line) when a definition
    starts at ``position``; (None, 0, "") otherwise."""
    line = lines[position]
    following = _next_text(lines, position)
    beside = _OPTION_BESIDE.match(line.text)
    if beside and (following is None or following.indent <= line.indent or following.indent > line.indent + 4):
        column = line.indent + line.text.index(beside.group(2), len(beside.group(1)))
        if following is not None and line.indent < following.indent < column:
            column = following.indent  # the description goes on under the term, not under itself
        return beside.group(1).strip(), column, beside.group(2)
    if following is None or len(line.text) > _TERM_MAX or following.indent < line.indent + 2:
        return None, 0, ""
    if lines[position + 1].text == "" and not line.text.startswith("-"):
        return None, 0, ""  # a blank line between: a paragraph, then an indented block (an example)
    if line.text.endswith(("::", ":", "。", ".")) and not line.text.startswith("-"):
        return None, 0, ""  # "For example::", a sentence: what follows is its example
    if _BULLET.match(line.text) and following.indent <= line.indent + 4:
        return None, 0, ""  # a list item's wrapped line
    return line.text, following.indent, ""


def _continues(lines: list[_Line], blank: int, indent: int) -> bool:
    """Whether the description goes on after the blank line at ``blank``."""
    later = _next_text(lines, blank)
    return later is not None and later.indent >= indent


def _paragraphs(lines: list[_Line], width: int) -> list[str]:
    """The paragraphs between blank lines, their wrapped lines joined (see ``_join``)."""
    paragraphs: list[str] = []
    current: list[_Line] = []
    for line in [*lines, _Line(0, "")]:
        if line.text:
            current.append(line)
        elif current:
            paragraphs.append(_join(current, width))
            current = []
    return [paragraph for paragraph in paragraphs if paragraph]


def _join(lines: list[_Line], width: int) -> str:
    """A paragraph's lines, a wrapped line joined to the one before it. A line stays a line of its own
    after a short line, a sentence's or a label's end, and when it starts an item (``1.``, ``-``), a
    ``KEY: value`` entry, or is set in further or less far than the line before (a list item's
    wrapped line, set under its text, is joined)."""
    text = ""
    previous: _Line | None = None
    for line in lines:
        piece = line.text
        last = text.rsplit("\n", 1)[-1]
        wrapped = (
            previous is not None
            and previous.indent + _columns(last) >= width * 0.6
            and last[-1] not in "。．.!?！？:："
            and not _ENTRY.match(piece)
            and not _BULLET.match(piece)
            and (line.indent == previous.indent or (_BULLET.match(last) is not None and line.indent > previous.indent))
        )
        if not text:
            text = piece
        elif not wrapped:
            text += "\n" + piece
        elif last.endswith("\u2010") and piece[:1].isalpha():  # hyphenated by the typesetter: lo‐ cated
            text = text[:-1] + piece
        elif re.match(rf"[{CJK}]", last[-1]) and re.match(rf"[{CJK}]", piece[:1]):
            text += piece
        else:
            text += " " + piece
        previous = line if not wrapped else _Line(previous.indent if previous else line.indent, piece)
    return "\n".join(" ".join(_JUSTIFIED.sub("", part).split()) for part in text.split("\n"))


def _plain_rst(text: str) -> str:
    """A line of reStructuredText without its inline markup: ``Source`` → Source, :ref:`x <y>` → x."""
    text = _FOOTNOTE.sub("", text).replace("\\ ", "")
    text = _RST_ROLE.sub(r"\1", text)
    text = _RST_LINK.sub(r"\1", text)
    return _RST_LITERAL.sub(r"\1", text)
