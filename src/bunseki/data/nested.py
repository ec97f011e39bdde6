"""Parquet columns that hold lists or structs, made into columns every other part can handle.

pandas hands list columns over as NumPy arrays, which cannot be hashed, so counting distinct
values, grouping or finding duplicate rows fails on them. Here struct fields become columns of
their own (pyarrow's ``Table.flatten``: ``address.city``), lists become tuples (hashable, and
still lists of values to code in the sandbox: ``len``, indexing, ``explode``), and anything
deeper (lists of structs) becomes JSON text. Every such change is noted.
"""

from __future__ import annotations

import json
from typing import Any, Final

import numpy as np
import pandas as pd
import pyarrow as pa

from bunseki.data.notes import LoadNote

_PREVIEW_CHARS: Final = 80


class _TooDeep(Exception):
    """A value holds a mapping: it cannot be a tuple of values."""


def is_nested(data_type: pa.DataType) -> bool:
    """Whether an Arrow type holds lists, structs or maps."""
    return bool(pa.types.is_nested(data_type))


def flatten_structs(table: pa.Table) -> tuple[pa.Table, list[str]]:
    """``table`` with every struct column split into one column per field, and the columns that were."""
    structs = [field.name for field in table.schema if pa.types.is_struct(field.type)]
    flattened = list(structs)
    while any(pa.types.is_struct(field.type) for field in table.schema):
        table = table.flatten()
    return table, flattened


def freeze_lists(frame: pd.DataFrame, names: list[str]) -> tuple[pd.DataFrame, list[LoadNote]]:
    """The list columns ``names`` of ``frame`` as tuples (or JSON text when they hold mappings)."""
    notes = []
    for name in names:
        column = frame[name]
        try:
            frame[name] = column.map(_freeze, na_action="ignore").astype(object)
            notes.append(_list_note(name, as_text=False))
        except _TooDeep:
            frame[name] = column.map(_json, na_action="ignore").astype(object)
            notes.append(_list_note(name, as_text=True))
    return frame, notes


def freeze_arrays(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` read back from Parquet with its list columns (NumPy arrays again) as tuples."""
    lists = []
    for name in frame.columns:
        column = frame[name]
        if column.dtype == object:
            first = column.first_valid_index()
            if first is not None and isinstance(column[first], np.ndarray):
                lists.append(name)
    if not lists:
        return frame
    frame = frame.copy()
    for name in lists:
        try:
            frame[name] = frame[name].map(_freeze, na_action="ignore").astype(object)
        except _TooDeep:
            frame[name] = frame[name].map(_json, na_action="ignore").astype(object)
    return frame


def struct_note(names: list[str], columns: list[str]) -> LoadNote:
    """The note for struct columns split into their fields."""
    listed = ", ".join(names)
    fields = ", ".join(column for column in columns if any(column.startswith(f"{name}.") for name in names))
    return LoadNote(
        kind="nested",
        en=f"Columns holding records ({listed}) were split into one column per field: {fields}.",
        ja=f"レコード（構造体）を持つ列（{listed}）を、項目ごとの列に分けました: {fields}。",
    )


def as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with nested values (tuples, lists, arrays, dicts) shown as short text, for previews."""
    shown = frame
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if column.dtype != object:
            continue
        filled = column.dropna()
        if filled.empty or not filled.map(_is_container).any():
            continue
        if shown is frame:
            shown = frame.copy()
        shown.isetitem(position, column.map(_text, na_action="ignore").array)
    return shown


def _freeze(value: Any) -> Any:
    if isinstance(value, np.ndarray | list | tuple):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, dict):
        raise _TooDeep
    return value.item() if isinstance(value, np.generic) else value


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray | list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value.item() if isinstance(value, np.generic) else value


def _json(value: Any) -> str:
    return json.dumps(_plain(value), ensure_ascii=False, default=str)


def _is_container(value: Any) -> bool:
    return isinstance(value, np.ndarray | list | tuple | dict | set)


def _text(value: Any) -> Any:
    if not _is_container(value):
        return value
    text = _json(sorted(value, key=str) if isinstance(value, set) else value)
    return text if len(text) <= _PREVIEW_CHARS else text[: _PREVIEW_CHARS - 1] + "…"


def _list_note(name: str, *, as_text: bool) -> LoadNote:
    if as_text:
        return LoadNote(
            kind="nested",
            column=name,
            en=f"{name} holds lists of records; they are kept as JSON text (json.loads reads one back).",
            ja=f"{name} はレコードのリストを持つ列のため、JSON 文字列として保持しました（json.loads で戻せます）。",
        )
    return LoadNote(
        kind="nested",
        column=name,
        en=f"{name} holds lists; each is kept as a tuple of values (shown as text in previews and summaries).",
        ja=f"{name} はリストを持つ列のため、値のタプルとして保持しました（プレビューと要約では文字列で表示）。",
    )
