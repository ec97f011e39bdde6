"""An HTML page's text under its headings, with the structure that carries meaning kept.

A definition list's term goes with each paragraph of its description (``-a, --all: …``), a table
row is one block (its first cell, then the others), a short piece of code joins the words that
introduce it. Navigation, headers, footers and sidebars (by tag, class, id or role) are left out,
and a line break of the source is a space (none between two Japanese characters), as a browser
shows it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

from bunseki.rag.models import Section
from bunseki.rag.plain_text import CJK

_SOURCE_BREAK_CJK: Final = re.compile(rf"(?<=[{CJK}])[ \t]*\n\s*(?=[{CJK}])")
# Words that introduce the code after them: 「…するには」, 「次のように:」, "To list them:"
_INTRODUCES: Final = re.compile(r"(?:には|ときは|場合は|次のように(?:します)?|[:：])\s*$")
_MAX_INTRODUCED_CODE: Final = 200
# Classes and ids of page furniture: navigation, headers and footers, sidebars, tables of contents.
_FURNITURE: Final = re.compile(
    r"^(?:nav\w*|\w*navbar|navheader|navfooter|header|footer|site-?header|site-?footer|page-?footer|"
    r"sidebar|sphinxsidebar\w*|related|breadcrumbs?|toc|headerlink|skip-?link|copyright|menu|"
    r"navigation|banner|contentinfo)$",
    re.IGNORECASE,
)


class HtmlText(HTMLParser):
    """Collects the title, and text blocks under each heading, of an HTML page.

    Structure that carries meaning is kept in the blocks: a definition list's term goes with each
    paragraph of its description (``-a, --all: …``), a table row is one block (its first cell, then
    the others). Navigation, headers, footers and sidebars (by tag, class or id) are left out.
    """

    _SKIPPED: Final = frozenset({"script", "style", "noscript", "template", "svg", "head", "nav", "footer", "aside"})
    _HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
    _BLOCKS: Final = frozenset({"p", "div", "li", "pre", "blockquote", "section", "article", "table", "dl"})
    _VOID: Final = frozenset({"br", "img", "hr", "meta", "link", "input", "wbr", "col", "area", "base", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.first_h1 = ""
        self.sections: list[Section] = []
        self._heading = ""
        self._blocks: list[str] = []
        self._text: list[str] = []
        self._skipping: list[str] = []  # the open elements of a skipped subtree, outermost first
        self._in_title = False
        self._in_heading = False
        self._terms: list[list[str]] = []  # per open <dt>: its text so far
        self._described: list[str] = []  # per open <dd>: the term it describes
        self._pending_term = ""  # the last <dt>'s text, until its <dd> opens
        self._rows: list[list[str]] = []  # per open <tr>: its cells
        self._cells: list[list[str]] = []  # per open <td>/<th>: its text blocks
        self._pre = 0  # open <pre> elements: their line breaks are text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":  # inside <head>, which is otherwise skipped
            self._in_title = True
        if self._skipping:
            if tag not in self._VOID:
                self._skipping.append(tag)
            return
        if tag in self._SKIPPED or (tag not in self._VOID and _boilerplate_element(tag, attrs)):
            self._end_block()
            self._skipping.append(tag)
            return
        if tag == "pre":
            self._pre += 1
        if tag in self._HEADINGS:
            self._end_block()
            self.sections.append(Section(heading=self._heading, blocks=tuple(self._blocks)))
            self._blocks = []
            self._in_heading = True
        elif tag == "dt":
            self._end_block()
            if not self._terms and self._pending_term:  # a second <dt> of one description: -a / --all
                self._terms.append([self._pending_term, ", "])
            else:
                self._terms.append([])
        elif tag == "dd":
            self._end_term()
            self._end_block()
            self._described.append(self._pending_term)
            self._pending_term = ""
        elif tag == "tr":
            self._end_block()
            self._rows.append([])
        elif tag in ("td", "th"):
            self._end_block()
            self._cells.append([])
        elif tag in self._BLOCKS:
            self._end_block()
        elif tag == "br":
            self._text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if self._skipping:
            if tag in self._skipping:  # an unclosed element inside is closed with it
                del self._skipping[len(self._skipping) - 1 - self._skipping[::-1].index(tag) :]
            return
        if tag == "pre":
            self._end_block(code=True)
            self._pre = max(0, self._pre - 1)
        if tag in self._HEADINGS and self._in_heading:
            self._heading = " ".join("".join(self._text).split())
            if tag == "h1" and not self.first_h1:
                self.first_h1 = self._heading
            self._text = []
            self._in_heading = False
        elif tag in ("dt", "dd", "td", "th", "tr", "dl"):
            self._close_structure(tag)
        elif tag in self._BLOCKS:
            self._end_block()

    def _close_structure(self, tag: str) -> None:
        """The end of a term, a description, a cell, a row or a definition list."""
        if tag == "dt":
            self._end_term()
            return
        self._end_block()
        if tag == "dd" and self._described:
            self._described.pop()
        elif tag in ("td", "th") and self._cells:
            cell = " ".join(self._cells.pop())
            if self._rows:
                self._rows[-1].append(cell)
            else:
                self._emit(cell)
        elif tag == "tr" and self._rows:
            cells = [cell for cell in self._rows.pop() if cell]
            if cells:
                self._emit(f"{cells[0]}: {' | '.join(cells[1:])}" if len(cells) > 1 else cells[0])
        elif tag == "dl" and self._pending_term:  # a term without a description
            self._emit(self._pending_term)
            self._pending_term = ""

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif self._skipping:
            return
        elif self._pre:
            self._text.append(data)
        else:  # a line break of the source is a space (none between two Japanese characters)
            self._text.append(_SOURCE_BREAK_CJK.sub("", data).replace("\n", " "))

    def close(self) -> None:
        super().close()
        self._end_block()
        self.sections.append(Section(heading=self._heading, blocks=tuple(self._blocks)))

    def _end_term(self) -> None:
        if not self._terms:
            return
        self._end_block()
        parts = self._terms.pop()
        term = " ".join("".join(parts).split()).strip(" ,")
        if self._pending_term and parts[:1] != [self._pending_term]:
            self._emit(self._pending_term)  # the earlier term had no description
        self._pending_term = term

    def _end_block(self, *, code: bool = False) -> None:
        if self._in_heading:
            return
        block = "\n".join(" ".join(line.split()) for line in "".join(self._text).split("\n")).strip()
        self._text = []
        if not block:
            return
        if self._terms:
            self._terms[-1].append(block)
        elif self._cells:
            self._cells[-1].append(block)
        else:
            self._emit(block, code=code)

    def _emit(self, block: str, *, code: bool = False) -> None:
        """A finished block, in the description of its term when there is one open; a short piece of
        code right after the words that introduce it (「…を更新するには」, "To upgrade:") joins them."""
        if self._cells:
            self._cells[-1].append(block)
            return
        if code and self._blocks and len(block) <= _MAX_INTRODUCED_CODE and _INTRODUCES.search(self._blocks[-1]):
            self._blocks[-1] = f"{self._blocks[-1].rstrip(':： ')}: {block}"
            return
        term = self._described[-1] if self._described else ""
        self._blocks.append(f"{term}: {block}" if term and not block.startswith(f"{term}:") else block)


def _boilerplate_element(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    return any(
        name in ("class", "id", "role") and value and any(_FURNITURE.match(token) for token in value.split())
        for name, value in attrs
    )
