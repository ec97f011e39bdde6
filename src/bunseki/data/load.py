"""Reading one uploaded data file into a DataFrame, or a DataLoadError that says why not and what to do.

The file is read into memory once; sniffing, decoding and parsing all work on those bytes.
Third-party exceptions are translated into DataLoadError here and nowhere else.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import pandas as pd
import pyarrow.parquet as pq
from pyarrow import ArrowException

from bunseki.data.dates import dates_note, read_mixed_dates
from bunseki.data.encoding import detect_encoding
from bunseki.data.nested import flatten_structs, freeze_lists, is_nested, struct_note
from bunseki.data.notes import LoadNote, shown
from bunseki.data.numbers import numbers_note, read_numbers
from bunseki.data.workbook import sheet_for_question, sheet_note
from bunseki.errors import DataLoadError, UnsupportedFileType

TableFormat = Literal["csv", "tsv", "excel", "parquet"]
Column = pd.Series

_TEXT_KINDS: Final = {".csv": "CSV", ".tsv": "TSV", ".txt": "text file"}
EXCEL_SUFFIXES: Final = (".xlsx", ".xlsm")
_EXCEL_SUFFIXES: Final = EXCEL_SUFFIXES
_PARQUET_SUFFIXES: Final = (".parquet", ".pq")
SUPPORTED_SUFFIXES: Final = (*_TEXT_KINDS, *_EXCEL_SUFFIXES, *_PARQUET_SUFFIXES)

_DELIMITERS: Final = (",", "\t", ";", "|")
_DELIMITER_NAMES: Final = {",": "','", "\t": "tab", ";": "';'", "|": "'|'"}
_ENCODING_NAMES: Final = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "cp932": "CP932", "euc_jp": "EUC-JP"}
_SNIFF_CHARS: Final = 64 * 1024  # plenty of lines to judge the delimiter by, cheap to split four ways
_RAGGED_LINES_SHOWN: Final = 5
_ZIP_MAGIC: Final = b"PK\x03\x04"
_PARQUET_MAGIC: Final = b"PAR1"
_OLE2_MAGIC: Final = b"\xd0\xcf\x11\xe0"  # old .xls, and also password-protected .xlsx

# What openpyxl and pyarrow raised when workbooks and Parquet files were damaged on purpose
# (truncated, bytes flipped, parts missing): many unrelated types, none of them ours to let out.
_EXCEL_ERRORS: Final = (
    zipfile.BadZipFile,
    zlib.error,
    SyntaxError,  # xml.etree.ElementTree.ParseError
    LookupError,
    ValueError,
    OSError,
    EOFError,
    NotImplementedError,
)
_PARQUET_ERRORS: Final = (ArrowException, OSError, ValueError, LookupError)

_EMPTY: Final = "is empty; export the table again and upload the new file."
_IMAGE_ADVICE: Final = "upload the data itself as CSV or Excel"
_UTF16: Final = "is UTF-16 text, which is not supported"
# (leading bytes, what the file is, what to do); {kind} is "CSV", "TSV" or "text file".
_SIGNATURES: Final = (
    (b"%PDF-", "looks like a PDF, not a {kind}", "export the table from its source as CSV or Excel"),
    (_ZIP_MAGIC, "looks like a ZIP archive, not a {kind}", "if it is an Excel workbook, name it .xlsx"),
    (_OLE2_MAGIC, "looks like an old Excel .xls workbook, not a {kind}", "save it as .xlsx"),
    (b"\x89PNG", "looks like a PNG image, not a {kind}", _IMAGE_ADVICE),
    (b"\xff\xd8\xff", "looks like a JPEG image, not a {kind}", _IMAGE_ADVICE),
    (b"GIF89a", "looks like a GIF image, not a {kind}", _IMAGE_ADVICE),
    (b"\x1f\x8b", "looks like a gzip archive, not a {kind}", "decompress it first"),
    (codecs.BOM_UTF16_LE, _UTF16, "save it as UTF-8 (in Excel: 'CSV UTF-8')"),
    (codecs.BOM_UTF16_BE, _UTF16, "save it as UTF-8 (in Excel: 'CSV UTF-8')"),
)

_LEADING_ZERO: Final = r"[+-]?0[0-9]"  # 0123, 0600001: codes, not numbers
_SAMPLE: Final = 200  # values checked before a whole column is
_DATE_SHARE: Final = 0.95
_DATE_NAME_HINTS: Final = ("date", "day", "ymd", "日付", "年月日", "日時")
# Written where a value is missing; compared after stripping and case-folding.
MISSING_MARKERS: Final = frozenset(
    {"-", "--", "---", "?", "??", "ー", "－", "―", "—", "不明", "欠損", "未入力", "未記入", "n.a.", "missing", "#n/a"}
)


@dataclass(frozen=True)
class _DateFormat:
    """A way of writing dates: the text it matches and the pandas format that parses it."""

    pattern: str
    parse: str
    needs_date_name: bool = False  # 20240105 is only a date if the column says it holds dates


_DATE_FORMATS: Final = (
    _DateFormat(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?)?", "ISO8601"),
    _DateFormat(r"[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}", "%Y/%m/%d"),
    _DateFormat(r"[0-9]{4}/[0-9]{1,2}/[0-9]{1,2} [0-9]{1,2}:[0-9]{2}", "%Y/%m/%d %H:%M"),
    _DateFormat(r"[0-9]{4}/[0-9]{1,2}/[0-9]{1,2} [0-9]{1,2}:[0-9]{2}:[0-9]{2}", "%Y/%m/%d %H:%M:%S"),
    _DateFormat(r"[0-9]{4}年[0-9]{1,2}月[0-9]{1,2}日", "%Y年%m月%d日"),
    _DateFormat(r"[0-9]{8}", "%Y%m%d", needs_date_name=True),
)


@dataclass(frozen=True, eq=False)  # eq=False: == on DataFrames is elementwise, not a bool
class LoadedTable:
    """A data file read into a DataFrame, with what was detected on the way.

    ``format`` is "tsv" for any tab-separated text, whatever its suffix. ``date_columns`` names
    every datetime column: text converted here, or typed as dates by Excel or Parquet.
    ``notes`` say each reading that was not the obvious one (see `LoadNote`); ``sheets`` lists
    every sheet of a workbook, ``sheet`` the one read.
    """

    frame: pd.DataFrame
    path: Path
    format: TableFormat
    encoding: str | None
    delimiter: str | None
    date_columns: tuple[str, ...]
    sheet: str | None = None
    notes: tuple[LoadNote, ...] = ()
    sheets: tuple[str, ...] = ()

    def note_texts(self, language: str) -> list[str]:
        """The notes in ``language`` ("ja", else English)."""
        return [note.text(language) for note in self.notes]


def load_table(
    path: Path, *, max_bytes: int | None = None, sheet: str | None = None, question: str | None = None
) -> LoadedTable:
    """Read a CSV, TSV, Excel or Parquet file into a DataFrame with clean names and typed columns.

    For a workbook, ``sheet`` names the sheet to read; without it, the sheet whose columns
    ``question`` names, else the first. Other file types ignore both.

    Raises:
        DataLoadError: the file is missing, too large, empty, binary, truncated, ragged,
            unreadable, of an unsupported type, or has no sheet ``sheet``; the message names the
            file and what to do.
    """
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        message = f"{path.name} has an unsupported file type ({suffix or 'no extension'}). {_supported()}"
        raise UnsupportedFileType(message, path=str(path))
    raw = _read_bytes(path, max_bytes)
    if not raw.strip():
        raise _error(path, _EMPTY)
    if suffix in _EXCEL_SUFFIXES:
        book = _read_excel(path, raw, sheet, question)
        return _table(
            path,
            book.frame,
            "excel",
            infer=True,
            sheet=book.sheet,
            sheets=book.sheets,
            header=book.header,
            notes=book.notes,
        )
    if suffix in _PARQUET_SUFFIXES:
        frame, notes = _read_parquet(path, raw)
        return _table(path, frame, "parquet", infer=True, notes=notes)
    frame, encoding, delimiter, header = _read_delimited(path, raw, _TEXT_KINDS[suffix])
    kind: TableFormat = "tsv" if delimiter == "\t" else "csv"
    return _table(path, frame, kind, infer=True, encoding=encoding, delimiter=delimiter, header=header)


def _table(
    path: Path,
    frame: pd.DataFrame,
    kind: TableFormat,
    *,
    infer: bool,
    encoding: str | None = None,
    delimiter: str | None = None,
    sheet: str | None = None,
    sheets: tuple[str, ...] = (),
    header: list[object] | None = None,
    notes: list[LoadNote] | None = None,
) -> LoadedTable:
    """Check that ``frame`` holds data, clean its names, type its text columns, and wrap it up.

    ``header``: the column names as the file has them, before pandas made repeated ones unique.
    """
    if len(frame.columns) == 0:
        raise _error(path, f"has no table: {_empty_sheet(sheet, sheets)}")
    if len(frame.index) == 0:
        raise _error(path, "has a header but no data rows; add the data and try again.")
    noted = list(notes or [])
    raw_names = header if header is not None and len(header) == len(frame.columns) else list(frame.columns)
    names = clean_column_names(raw_names)
    frame = frame.set_axis(names, axis="columns")
    renamed = renamed_note(raw_names, names)
    if renamed is not None:
        noted.insert(0, renamed)
    if infer:
        decimal_comma = delimiter in (";", "\t")
        for name in frame.columns:
            if kind == "parquet" and not pd.api.types.is_string_dtype(frame[name]):
                continue  # typed by its writer; only its text columns may hold dates or numbers as text
            inferred = infer_column_noted(frame[name], name, decimal_comma=decimal_comma)
            if inferred is not None:
                frame[name] = inferred[0]
                noted.extend(inferred[1])
    is_date = pd.api.types.is_datetime64_any_dtype
    dates = tuple(str(name) for name, dtype in frame.dtypes.items() if is_date(dtype))
    return LoadedTable(frame, path, kind, encoding, delimiter, dates, sheet, tuple(noted), sheets)


# Reading ----------------------------------------------------------------------------------------


def _read_bytes(path: Path, max_bytes: int | None) -> bytes:
    """The whole file, once it is known to exist, to be a file and to fit within ``max_bytes``."""
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if max_bytes is not None and size > max_bytes:
                raise _too_large(path, size, max_bytes)
            raw = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    except FileNotFoundError as exc:
        raise _error(path, "does not exist; check the file name and upload it again.") from exc
    except IsADirectoryError as exc:
        raise _error(path, f"is a directory, not a data file. {_supported()}") from exc
    except OSError as exc:
        raise _error(path, f"could not be read ({exc.strerror}); check that it is readable.") from exc
    if max_bytes is not None and len(raw) > max_bytes:  # it grew after the size check
        raise _too_large(path, len(raw), max_bytes)
    return raw


def _read_delimited(path: Path, raw: bytes, kind: str) -> tuple[pd.DataFrame, str, str, list[object] | None]:
    """Parse delimited text; returns the frame, the detected encoding, the delimiter and the header as written."""
    _reject_binary(path, raw, kind)
    try:
        encoding = detect_encoding(raw)
    except DataLoadError as exc:
        raise _error(path, f"cannot be read: {exc}") from exc
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        name = _ENCODING_NAMES[encoding]
        raise _error(
            path, f"ends in the middle of a {name} character, so it looks truncated; upload the whole file."
        ) from exc
    if not text.strip():
        raise _error(path, _EMPTY)
    # Excel saves "Text (Tab delimited)" as .txt, so a tie there goes to the tab.
    delimiter = sniff_delimiter(_sniff_sample(text), preferred="," if kind == "CSV" else "\t")
    # pandas would silently turn the extra leading fields of the first data row into an index.
    if _first_row_is_longer(text, delimiter):
        raise _ragged(path, text, delimiter)
    try:
        # Read as text and type the columns ourselves (infer_column): pandas' own inference
        # would turn codes such as 郵便番号 0600001 into numbers and lose their leading zeros.
        frame = pd.read_csv(io.StringIO(text), sep=delimiter, dtype=str)
    except pd.errors.EmptyDataError as exc:
        raise _error(path, _EMPTY) from exc
    except pd.errors.ParserError as exc:
        raise _parse_failure(path, text, delimiter, exc) from exc
    return frame, encoding, delimiter, _header(text, delimiter)


def _empty_sheet(sheet: str | None, sheets: tuple[str, ...]) -> str:
    """Why a file or sheet with no columns is refused, and what to do."""
    if sheet is None:
        return "it is empty. Put the table there and try again."
    where = f"its first sheet ({sheet!r})" if sheets[:1] == (sheet,) else f"its sheet {sheet!r}"
    others = [name for name in sheets if name != sheet]
    if not others:
        return f"{where} is empty. Put the table there and try again."
    listed = ", ".join(f"'{name}'" for name in others[:10])
    return f"{where} is empty. Choose another sheet ({listed}) with --sheet, the sheet box or the sheet parameter."


def _header(text: str, delimiter: str) -> list[object] | None:
    """The first record's fields as written (pandas renames repeated names before we see them)."""
    try:
        first = next(_records(text, delimiter), None)
    except csv.Error:
        return None
    return list(first[1]) if first is not None else None


@dataclass(frozen=True, eq=False)
class _Sheet:
    frame: pd.DataFrame
    sheet: str
    sheets: tuple[str, ...]
    header: list[object] | None
    notes: list[LoadNote]


def _read_excel(path: Path, raw: bytes, sheet: str | None, question: str | None) -> _Sheet:
    """One sheet of an .xlsx/.xlsm workbook: ``sheet``, else the one ``question`` names, else the first."""
    if not raw.startswith(_ZIP_MAGIC):
        if raw.startswith(_OLE2_MAGIC):
            why = "is an old .xls workbook or a password-protected one; save it as an unprotected .xlsx"
        else:
            why = "is not an Excel workbook (an .xlsx file is a ZIP archive); upload the original file"
        raise _error(path, f"{why} and try again.")
    try:
        with pd.ExcelFile(io.BytesIO(raw), engine="openpyxl") as book:
            sheets = tuple(str(name) for name in book.sheet_names)
            chosen, how, named = _choose_sheet(path, book, sheets, sheet, question)
            frame = pd.read_excel(book, sheet_name=chosen)
            header = _excel_header(book, chosen)
    except _EXCEL_ERRORS as exc:
        reason = _reason(exc)
        raise _error(path, f"could not be read as an Excel workbook ({reason}); re-save it in Excel.") from exc
    note = sheet_note(path.name, chosen, sheets, how=how, named=named)
    return _Sheet(frame, chosen, sheets, header, [note] if note is not None else [])


def sheet_names(raw: bytes) -> list[str]:
    """The sheets of a workbook's bytes, in order ([] if they are not a readable workbook)."""
    if not raw.startswith(_ZIP_MAGIC):
        return []
    try:
        with pd.ExcelFile(io.BytesIO(raw), engine="openpyxl") as book:
            return [str(name) for name in book.sheet_names]
    except _EXCEL_ERRORS:
        return []


def _choose_sheet(
    path: Path, book: pd.ExcelFile, sheets: tuple[str, ...], sheet: str | None, question: str | None
) -> tuple[str, str, list[str]]:
    """The sheet to read, how it was chosen ("asked", "question", "first") and the columns the question names."""
    if sheet is not None:
        if sheet not in sheets:
            listed = ", ".join(f"'{name}'" for name in sheets)
            raise _error(path, f"has no sheet '{sheet}'; its sheets are {listed}. Choose one of them.")
        return sheet, "asked", []
    if question and len(sheets) > 1:
        headers = {name: [str(value).strip() for value in _excel_header(book, name) or []] for name in sheets}
        found, named = sheet_for_question(headers, question)
        if found is not None:
            return found, "question", named
    return sheets[0], "first", []


def _excel_header(book: pd.ExcelFile, sheet: str) -> list[object] | None:
    """A sheet's first row as written (pandas renames repeated names when it reads the table)."""
    first = pd.read_excel(book, sheet_name=sheet, header=None, nrows=1)
    if first.empty:
        return None
    return ["" if pd.isna(value) else value for value in first.iloc[0].tolist()]


def _read_parquet(path: Path, raw: bytes) -> tuple[pd.DataFrame, list[LoadNote]]:
    """The table in a Parquet file, with list and struct columns made flat and hashable (see `nested`)."""
    if not raw.startswith(_PARQUET_MAGIC):
        raise _error(path, "is not a Parquet file (it does not start with 'PAR1'); upload the original file.")
    if not raw.endswith(_PARQUET_MAGIC):
        raise _error(path, "is truncated (a Parquet file ends with 'PAR1'); upload the whole file.")
    try:
        schema = pq.read_schema(io.BytesIO(raw))
        if not any(is_nested(field.type) for field in schema):
            return pd.read_parquet(io.BytesIO(raw), engine="pyarrow"), []
        table, structs = flatten_structs(pq.read_table(io.BytesIO(raw)))
        lists = [field.name for field in table.schema if is_nested(field.type)]
        frame = table.to_pandas()
    except _PARQUET_ERRORS as exc:
        raise _error(path, f"could not be read as Parquet ({_reason(exc)}); write it again.") from exc
    frame, notes = freeze_lists(frame, lists)
    if structs:
        notes.insert(0, struct_note(structs, [str(name) for name in frame.columns]))
    return frame, notes


def _reject_binary(path: Path, raw: bytes, kind: str) -> None:
    """Refuse files that are not text before trying to decode them as text."""
    for magic, what, advice in _SIGNATURES:
        if raw.startswith(magic):
            raise _error(path, f"{what.format(kind=kind)}; {advice}.")
    if b"\x00" in raw:
        hint = " It looks like a Parquet file: name it .parquet." if raw.startswith(_PARQUET_MAGIC) else ""
        raise _error(path, f"contains binary data (NUL bytes), so it is not a {kind}.{hint} {_supported()}")


# Delimited text ---------------------------------------------------------------------------------


def sniff_delimiter(sample: str, *, preferred: str = ",") -> str:
    """The delimiter that splits the sample's records most consistently into several fields.

    Consistency is the share of records with the most common field count; ties go to more
    fields, then to ``preferred``. Falls back to ``preferred`` when nothing splits the lines.
    """
    best, best_key = preferred, (0.0, 1)
    for delimiter in sorted(_DELIMITERS, key=lambda candidate: candidate != preferred):
        try:
            counts = Counter(len(fields) for _, fields in _records(sample, delimiter))
        except csv.Error:
            continue
        if not counts:
            continue
        fields, frequency = counts.most_common(1)[0]
        key = (frequency / counts.total(), fields)
        if fields > 1 and key > best_key:
            best, best_key = delimiter, key
    return best


def _sniff_sample(text: str) -> str:
    """The start of ``text``, ending at a line break so that its last line is whole."""
    if len(text) <= _SNIFF_CHARS:
        return text
    sample = text[:_SNIFF_CHARS]
    return sample[: sample.rfind("\n") + 1] or sample


def _first_row_is_longer(text: str, delimiter: str) -> bool:
    """Whether the first data row has more fields than the header."""
    try:
        head = [fields for _, fields in itertools.islice(_records(text, delimiter), 2)]
    except csv.Error:  # a field too large for the csv module; pandas will judge the rows
        return False
    return len(head) == 2 and len(head[1]) > len(head[0])


def _records(text: str, delimiter: str, *, strict: bool = False) -> Iterator[tuple[int, list[str]]]:
    """The non-blank records of ``text``, each with the 1-based line it starts on."""
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter, strict=strict)
    start = 1
    for fields in reader:
        if fields:
            yield start, fields
        start = reader.line_num + 1


def _parse_failure(path: Path, text: str, delimiter: str, exc: pd.errors.ParserError) -> DataLoadError:
    """Explain why pandas could not split ``text`` into rows and columns."""
    if "EOF inside string" in str(exc):
        line = _unclosed_quote_line(text, delimiter)
        where = f" that starts on line {line}" if line is not None else ""
        return _error(
            path,
            f"ends inside a quoted field{where}: the file may be truncated, or a value has an unmatched "
            'double quote ("). Check that line or upload the whole file.',
        )
    if "Expected" in str(exc):
        return _ragged(path, text, delimiter)
    return _error(path, f"could not be split into rows and columns ({_reason(exc)}).")


def _ragged(path: Path, text: str, delimiter: str) -> DataLoadError:
    """Name the first data rows that have more fields than the header."""
    header_fields, ragged = ragged_rows(text, delimiter)
    if not ragged:
        return _error(path, "could not be split into rows and columns; check its delimiters and quotes.")
    first = ragged[:_RAGGED_LINES_SHOWN]
    shown = ", ".join(f"line {line} has {count} fields" for line, count in first)
    more = f" (and {len(ragged) - len(first)} more rows)" if len(ragged) > len(first) else ""
    separator = _DELIMITER_NAMES[delimiter]
    return _error(
        path,
        f"has rows with more fields than its header: {shown}{more}, but the header has {header_fields} "
        f"({separator}-separated). Quote values that contain {separator}, or add the missing column "
        "names to the header, then try again.",
    )


def ragged_rows(text: str, delimiter: str) -> tuple[int, list[tuple[int, int]]]:
    """The header's field count, and (line, field count) of each record with more fields."""
    records = _records(text, delimiter)
    ragged: list[tuple[int, int]] = []
    try:
        _, header = next(records)
        ragged.extend((line, len(fields)) for line, fields in records if len(fields) > len(header))
    except (StopIteration, csv.Error):  # no header, or a field too large: report what was found
        return 0, ragged
    return len(header), ragged


def _unclosed_quote_line(text: str, delimiter: str) -> int | None:
    """The line on which a quoted field that is never closed starts, if it can be told."""
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter, strict=True)
    start = 1
    try:
        for _ in reader:
            start = reader.line_num + 1
    except csv.Error as exc:
        return start if "unexpected end of data" in str(exc) else None
    return None


# Columns ----------------------------------------------------------------------------------------


def clean_column_names(names: Iterable[object]) -> list[str]:
    """Names stripped of surrounding space, blanks as "Unnamed: N", duplicates as "name.1"."""
    cleaned = []
    for position, name in enumerate(names):
        text = str(name).strip()
        cleaned.append(text or f"Unnamed: {position}")
    seen: set[str] = set()
    unique = []
    for name in cleaned:
        candidate, suffix = name, 0
        while candidate in seen:
            suffix += 1
            candidate = f"{name}.{suffix}"
        seen.add(candidate)
        unique.append(candidate)
    return unique


def renamed_note(raw: Iterable[object], names: list[str]) -> LoadNote | None:
    """Say which repeated column names were renamed (x, x → x, x.1); None if none was."""
    changes = [
        (str(before).strip(), after)
        for before, after in zip(raw, names, strict=True)
        if str(before).strip() and str(before).strip() != after
    ]
    if not changes:
        return None
    listed = ", ".join(f"'{shown(before)}' → '{after}'" for before, after in changes[:10])
    more = f" (+{len(changes) - 10})" if len(changes) > 10 else ""
    return LoadNote(
        kind="renamed",
        en=f"Some column names were repeated, so the later ones were renamed: {listed}{more}.",
        ja=f"同じ列名が複数あったため、2つ目以降の列名を変更しました: {listed}{more}。",
        count=len(changes),
    )


def infer_column(column: Column, name: str, *, decimal_comma: bool = False) -> Column | None:
    """``column`` as dates, numbers or booleans when all of it clearly is; None to leave it.

    Text that looks numeric but has leading zeros (codes, postal codes, phone numbers) stays text.
    """
    inferred = infer_column_noted(column, name, decimal_comma=decimal_comma)
    return inferred[0] if inferred is not None else None


def infer_column_noted(
    column: Column, name: str, *, decimal_comma: bool = False
) -> tuple[Column, tuple[LoadNote, ...]] | None:
    """As `infer_column`, with the notes that say how the values were read, when that needs saying.

    ``decimal_comma``: the delimiter is not a comma, so commas in values may be decimal marks.
    Placeholders for missing values ("-", "不明", "N/A"…) among numbers or dates become missing.
    """
    if pd.api.types.is_string_dtype(column):
        placeholders = column.str.strip().str.casefold().isin(MISSING_MARKERS)
        if placeholders.any():
            typed = _infer_column_noted(column.mask(placeholders), name, decimal_comma=decimal_comma)
            if typed is None:
                return None
            read_as = (typed[1],) if typed[1] is not None else ()
            return typed[0], (*read_as, _placeholders_note(name, column[placeholders]))
    typed = _infer_column_noted(column, name, decimal_comma=decimal_comma)
    if typed is None:
        return None
    return typed[0], (typed[1],) if typed[1] is not None else ()


def _placeholders_note(name: str, values: Column) -> LoadNote:
    shown_values = ", ".join(f"'{shown(value)}'" for value in values.unique()[:3])
    count = len(values)
    return LoadNote(
        kind="missing",
        column=name,
        count=count,
        examples=tuple(shown(value) for value in values.unique()[:3]),
        en=f"{name}: {count:,} placeholder values ({shown_values}) were read as missing.",
        ja=f"{name}: 欠損を表す{count:,}件の値（{shown_values}）を欠損として読み込みました。",
    )


def _infer_column_noted(column: Column, name: str, *, decimal_comma: bool) -> tuple[Column, LoadNote | None] | None:
    if pd.api.types.is_integer_dtype(column) or pd.api.types.is_float_dtype(column):
        compact = _compact_dates(column) if looks_like_date_name(name) else None
        return (compact, None) if compact is not None else None
    if not pd.api.types.is_string_dtype(column):
        return None
    filled = column.dropna().str.strip()
    filled = filled[filled != ""]
    if filled.empty:
        return None
    for convert in (_dates, _plain_numbers, _booleans):
        converted = convert(column, filled, name)
        if converted is not None:
            return converted, None
    sample = read_numbers(filled.iloc[:_SAMPLE], decimal_comma=decimal_comma)  # a cheap refusal first
    if sample is not None and bool(sample.matched.all()):
        numbers = read_numbers(filled, decimal_comma=decimal_comma)
        if numbers is not None and bool(numbers.matched.all()):
            return _integers(numbers.values.reindex(column.index)), numbers_note(name, filled, numbers)
    if sample is None or not sample.matched.any():
        dates = read_mixed_dates(column, filled)
        if dates is not None:
            return dates.values, dates_note(name, filled, dates)
    return None


def looks_like_date_name(name: str) -> bool:
    """Whether a column name says it holds dates (日付, 注文日, order_date, Day…)."""
    folded = name.casefold()
    return folded.endswith("日") or any(hint in folded for hint in _DATE_NAME_HINTS)


def _plain_numbers(column: Column, filled: Column, name: str) -> Column | None:
    """Numbers, when every value is one and none is a code with leading zeros."""
    if pd.to_numeric(filled.iloc[:_SAMPLE], errors="coerce").isna().any():
        return None  # cheap refusal on a sample before converting the whole column
    if filled.str.match(_LEADING_ZERO).any():
        return None
    numbers = pd.to_numeric(column.str.strip(), errors="coerce")
    return numbers if numbers.notna().sum() == len(filled) else None


def _integers(values: Column) -> Column:
    """Whole numbers with nothing missing as int64, as pandas reads plain integers."""
    if values.isna().any() or not ((values % 1 == 0) & (values.abs() < 2**53)).all():
        return values
    return values.astype("int64")


def _booleans(column: Column, filled: Column, name: str) -> Column | None:
    """True/False columns as booleans (missing values stay missing)."""
    if not filled.iloc[:_SAMPLE].str.casefold().isin(("true", "false")).all():
        return None  # cheap refusal on a sample: casefold is not vectorised
    folded = filled.str.casefold()
    if not folded.isin(("true", "false")).all():
        return None
    return column.str.strip().str.casefold().map({"true": True, "false": False}).astype("boolean")


def _dates(column: Column, filled: Column, name: str) -> Column | None:
    """Dates, when nearly all values are written in one of the known ways and parse as such."""
    sample = filled.iloc[:_SAMPLE]
    for date_format in _DATE_FORMATS:
        if date_format.needs_date_name and not looks_like_date_name(name):
            continue
        if sample.str.fullmatch(date_format.pattern).mean() < _DATE_SHARE:
            continue  # cheap refusal on a sample before matching the whole column
        if filled.str.fullmatch(date_format.pattern).mean() < _DATE_SHARE:
            continue
        parsed = pd.to_datetime(column.str.strip(), format=date_format.parse, errors="coerce")
        if parsed.notna().sum() >= _DATE_SHARE * len(filled):
            return parsed
    return None


def _compact_dates(column: Column) -> Column | None:
    """Numbers such as 20240105 as dates, for a column whose name says it holds dates."""
    values = column.dropna()
    if values.empty or not ((values % 1 == 0) & values.between(10000101, 99991231)).all():
        return None
    text = values.astype("int64").astype(str)
    if not text.str.fullmatch(r"[0-9]{8}").all():
        return None
    parsed = pd.to_datetime(text, format="%Y%m%d", errors="coerce")
    if parsed.notna().sum() < _DATE_SHARE * len(values):
        return None
    return parsed.reindex(column.index)


# Messages ---------------------------------------------------------------------------------------


def _error(path: Path, message: str) -> DataLoadError:
    return DataLoadError(f"{path.name} {message}", path=str(path))


def _too_large(path: Path, size: int, max_bytes: int) -> DataLoadError:
    limit = _human_size(max_bytes)
    return _error(path, f"is {_human_size(size)}, more than the {limit} limit; upload a smaller extract.")


def _human_size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 100_000 else f"{size:,} bytes"


def _supported() -> str:
    return f"Supported formats: {', '.join(SUPPORTED_SUFFIXES)} (.xls: save it as .xlsx first)."


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message, for a short parenthesis in ours."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
