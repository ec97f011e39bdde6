"""Reading one file into a Document: Markdown, plain text, HTML, PDF, Word, source code, Q&A tables.

Text files may be UTF-8, CP932 or EUC-JP (told apart by bunseki.data's detector). A Word document
is converted to HTML by mammoth (its headings, lists and tables kept) and read as a page. Third-party
exceptions (pypdf, mammoth, the table loader) become DocumentReadError here and nowhere else.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Final

import mammoth
from pypdf import PdfReader
from pypdf.errors import PyPdfError

from bunseki.data import detect_encoding, load_table
from bunseki.errors import DataLoadError, DocumentReadError
from bunseki.rag.boilerplate import is_boilerplate
from bunseki.rag.html_text import HtmlText
from bunseki.rag.models import Document, DocumentKind, Section
from bunseki.rag.plain_text import read_indented

_MARKDOWN: Final = (".md", ".markdown")
_TEXT: Final = (".txt", ".text", ".rst", ".log")
_HTML: Final = (".html", ".htm")
_PDF: Final = (".pdf",)
_WORD: Final = (".docx",)
_QA_TABLES: Final = (".csv", ".tsv", ".xlsx", ".xlsm")
_CODE: Final = (
    *(".py", ".pyi", ".r", ".jl", ".sql", ".sh", ".bash"),
    *(".c", ".h", ".cc", ".cpp", ".hpp", ".cu", ".java", ".kt", ".scala", ".cs", ".go", ".rs", ".swift"),
    *(".js", ".jsx", ".ts", ".tsx", ".rb", ".php", ".m", ".toml", ".yaml", ".yml", ".ini", ".cfg"),
)
SUPPORTED_SUFFIXES: Final = (*_MARKDOWN, *_TEXT, *_HTML, *_PDF, *_WORD, *_QA_TABLES, *_CODE)

_ATX_HEADING: Final = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE: Final = re.compile(r"^\s*(```|~~~)")
_BLANK_LINES: Final = re.compile(r"\n\s*\n")
# A top-level definition starts a new section of a source file; its first line is the heading.
_DEFINITION: Final = re.compile(
    r"^(?:(?:async\s+def|def|class|function|func|fn|pub\s+fn|impl|struct|enum|interface|module|"
    r"public|private|protected|static|export)\s|CREATE\s+(?:TABLE|VIEW|FUNCTION)\s|\[[^\]]+\]\s*$)",
    re.IGNORECASE,
)
_QUESTION_NAMES: Final = ("question", "q", "質問", "問い", "問", "問合せ", "問い合わせ", "faq")
_ANSWER_NAMES: Final = ("answer", "a", "回答", "答え", "答", "返答")
# Readable text in a table or PDF is bounded; beyond this a "document" is a data dump.
_MAX_QA_PAIRS: Final = 100_000
# What pypdf raised on PDFs damaged on purpose (truncated, bytes flipped, ranges cut out), besides
# its own errors: none of them ours to let out.
_PDF_ERRORS: Final = (
    PyPdfError,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    NotImplementedError,  # a filter name garbled into one pypdf does not know
    OSError,
    RecursionError,
    ZeroDivisionError,
)
# A man page's running head: LS(1)   User Commands   LS(1)
_MAN_HEAD: Final = re.compile(r"^(\S+\(\d[a-z0-9]*\))\s{2,}")
# A first line longer than this is a sentence, not a title.
_MAX_TITLE_CHARS: Final = 80


def document_kind(path: Path) -> DocumentKind | None:
    """What kind of document ``path`` is by its suffix, or None if it is not one we read."""
    suffix = path.suffix.lower()
    kinds: tuple[tuple[tuple[str, ...], DocumentKind], ...] = (
        (_MARKDOWN, "markdown"),
        (_TEXT, "text"),
        (_HTML, "html"),
        (_PDF, "pdf"),
        (_WORD, "word"),
        (_QA_TABLES, "qa"),
        (_CODE, "code"),
    )
    for suffixes, kind in kinds:
        if suffix in suffixes:
            return kind
    return None


def read_document(path: Path, source: str, raw: bytes) -> Document:
    """Read ``raw`` (the bytes of ``path``) into sections; ``source`` is its name in the collection.

    Raises:
        DocumentReadError: unsupported type, undecodable text, a damaged PDF or table, no text at all.
    """
    kind = document_kind(path)
    if kind is None:
        raise DocumentReadError(
            f"{source}: files of type '{path.suffix or path.name}' are not read; supported: "
            f"{', '.join(SUPPORTED_SUFFIXES)}.",
            path=source,
        )
    if kind == "pdf":
        title, sections = _read_pdf(raw, source)
    elif kind == "word":
        title, sections = _read_html(_word_as_html(raw, source), path.stem)
    elif kind == "qa":
        title, sections = path.stem, _read_qa_table(path, source)
    else:
        text = _decode(raw, source)
        if kind == "markdown":
            title, sections = _read_markdown(text, path.stem)
        elif kind == "html":
            title, sections = _read_html(text, path.stem)
        elif kind == "code":
            title, sections = path.name, _read_code(text)
        else:
            rst = path.name.lower().endswith((".rst", ".rst.txt"))
            title, sections = _read_plain(text, path.stem, rst=rst)
    # Notices, licence terms and stamps answer nothing: no search should find them.
    sections = [Section(s.heading, tuple(b for b in s.blocks if not is_boilerplate(b))) for s in sections]
    kept = tuple(section for section in sections if section.blocks)
    if not kept:
        advice = "a scanned PDF needs OCR first" if kind == "pdf" else "the file holds no text"
        raise DocumentReadError(f"{source}: no text could be read ({advice}).", path=source)
    return Document(source=source, title=title, kind=kind, sections=kept)


def _decode(raw: bytes, source: str) -> str:
    """The text of a UTF-8, CP932 or EUC-JP file, newlines normalised."""
    try:
        encoding = detect_encoding(raw)
    except DataLoadError as exc:
        raise DocumentReadError(f"{source}: {exc}", path=source) from exc
    return raw.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


def _paragraphs(text: str) -> tuple[str, ...]:
    return tuple(block.strip() for block in _BLANK_LINES.split(text) if block.strip())


def _read_plain(text: str, fallback_title: str, *, rst: bool = False) -> tuple[str, list[Section]]:
    """Sections by heading and definitions kept with their terms (see plain_text); the title is an
    underlined first heading, a man page's name (``LS(1)``), or a short first line standing alone."""
    title, sections = read_indented(text, rst=rst)
    if not title:
        head = _MAN_HEAD.match(text.lstrip("\n"))
        blocks = _paragraphs(text)
        first = blocks[0] if blocks else ""
        if head:
            title = head.group(1)
        elif first and "\n" not in first and len(first) <= _MAX_TITLE_CHARS:
            title = first
    return title or fallback_title, sections


def _read_markdown(text: str, fallback_title: str) -> tuple[str, list[Section]]:
    """Sections by ATX heading (the heading path below the H1 title); fenced code stays whole."""
    title = ""
    path: list[tuple[int, str]] = []
    sections: list[Section] = []
    lines: list[str] = []
    in_fence = False

    def flush() -> None:
        heading = " > ".join(name for _, name in path)
        sections.append(Section(heading=heading, blocks=_markdown_blocks(lines)))
        lines.clear()

    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _ATX_HEADING.match(line)
        if match is None:
            lines.append(line)
            continue
        flush()
        level, name = len(match.group(1)), match.group(2)
        if level == 1 and not title:
            title = name  # the document's title, not part of every heading path
            continue
        path[:] = [(depth, heading) for depth, heading in path if depth < level]
        path.append((level, name))
    flush()
    return title or fallback_title, sections


def _markdown_blocks(lines: list[str]) -> tuple[str, ...]:
    """Paragraphs of a Markdown section; a fenced block is one block even if it has blank lines."""
    blocks: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and not line.strip():
            if current:
                blocks.append("\n".join(current).strip())
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current).strip())
    return tuple(block for block in blocks if block)


def _read_code(text: str) -> list[Section]:
    """One section per top-level definition (its first line is the heading); the preamble first."""
    sections: list[Section] = []
    heading = ""
    lines: list[str] = []
    for line in text.split("\n"):
        if _DEFINITION.match(line) and any(existing.strip() for existing in lines):
            sections.append(Section(heading=heading, blocks=("\n".join(lines).strip(),)))
            lines = []
        if _DEFINITION.match(line) and not lines:
            heading = line.strip().rstrip("{:").strip()
        lines.append(line)
    if any(line.strip() for line in lines):
        sections.append(Section(heading=heading, blocks=("\n".join(lines).strip(),)))
    return sections


def _read_html(text: str, fallback_title: str) -> tuple[str, list[Section]]:
    parser = HtmlText()
    parser.feed(text)
    parser.close()
    title = " ".join(parser.title.split()) or parser.first_h1 or fallback_title
    return title, parser.sections


def _word_as_html(raw: bytes, source: str) -> str:
    """A .docx document as HTML: headings (by their Word styles), lists, tables and paragraphs."""
    try:
        return str(mammoth.convert_to_html(io.BytesIO(raw)).value)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, AttributeError, TypeError) as exc:
        raise DocumentReadError(
            f"{source}: the Word document could not be read ({type(exc).__name__}: {exc}); "
            "open and save it again as .docx (an old .doc must be converted first), or export it as PDF.",
            path=source,
        ) from exc


def _read_pdf(raw: bytes, source: str) -> tuple[str, list[Section]]:
    """One section per page (heading "p. N"); the title from the metadata or the first line."""
    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            raise DocumentReadError(
                f"{source}: the PDF is password-protected; save an unprotected copy and ingest that.", path=source
            )
        pages = [page.extract_text() or "" for page in reader.pages]
        metadata_title = (reader.metadata.title if reader.metadata else None) or ""
    except _PDF_ERRORS as exc:
        raise DocumentReadError(
            f"{source}: the PDF could not be read ({type(exc).__name__}: {exc}); "
            "open and re-save it (print to PDF), or export it as text.",
            path=source,
        ) from exc
    sections = [
        Section(heading=f"p. {number}", blocks=_paragraphs(_join_pdf_lines(text)))
        for number, text in enumerate(pages, start=1)
    ]
    first_line = next((line.strip() for text in pages for line in text.split("\n") if line.strip()), "")
    title = metadata_title.strip() or (first_line if len(first_line) <= _MAX_TITLE_CHARS else "") or Path(source).stem
    return title, sections


def _join_pdf_lines(text: str) -> str:
    """PDF text comes one visual line per line; join wrapped lines, keep sentence ends as breaks."""
    out: list[str] = []
    for line in text.replace("\r", "").split("\n"):
        stripped = line.strip()
        if not stripped:
            out.append("\n\n")
        elif out and out[-1] not in ("\n\n",) and not out[-1].endswith(("。", "！", "？", ".", "!", "?", ":")):
            # A wrapped Japanese line joins directly; a wrapped English line needs a space.
            out[-1] += ("" if stripped[0] > "\u2e7f" or out[-1][-1] > "\u2e7f" else " ") + stripped
        else:
            out.append(stripped)
    return "\n".join(out)


def _read_qa_table(path: Path, source: str) -> list[Section]:
    """One section per (question, answer) row: the question is the heading, the pair the block."""
    try:
        frame = load_table(path).frame
    except DataLoadError as exc:
        raise DocumentReadError(f"{source}: {exc}", path=source) from exc
    columns: dict[str, object] = {str(name).strip().lower(): name for name in frame.columns}
    question = _find_column(columns, _QUESTION_NAMES)
    answer = _find_column(columns, _ANSWER_NAMES)
    if question is None or answer is None:
        raise DocumentReadError(
            f"{source}: a Q&A table needs a question column and an answer column (named e.g. "
            f"'question'/'answer' or '質問'/'回答'); its columns are {', '.join(map(str, frame.columns))}.",
            path=source,
        )
    sections = []
    for asked, answered in zip(frame[question].head(_MAX_QA_PAIRS), frame[answer].head(_MAX_QA_PAIRS), strict=True):
        asked_text, answer_text = _cell(asked), _cell(answered)
        if asked_text and answer_text:
            sections.append(Section(heading=asked_text, blocks=(f"Q: {asked_text}\nA: {answer_text}",)))
    return sections


def _find_column(columns: dict[str, object], names: tuple[str, ...]) -> object | None:
    """The column named exactly one of ``names``, else the first whose name contains one (not 'q'/'a')."""
    for name in names:
        if name in columns:
            return columns[name]
    for name in names:
        if len(name) > 1:
            for lowered, column in columns.items():
                if name in lowered:
                    return column
    return None


def _cell(value: object) -> str:
    text = "" if value is None else str(value).strip()
    return "" if text.lower() in ("nan", "nat", "none", "<na>") else text
