"""Numbers as people write them: "¥1,234", "1,50 €", "▲500", "12%", "3件", "1.2万", "１，２００円".

One reading for the loader and for validate_data. Values are matched whole-column at a time
against one anchored pattern (sign, currency, digits, a 千/万/億 multiplier, a unit); only the
values that are not plain ASCII are NFKC-normalised first (full-width digits, ￥, ％, ，).
The pattern has no nested repetition, and values longer than any number are refused before
matching, so the work is linear in the size of the column.

Percent signs are dropped, not divided: "12%" is 12, as the column's other values say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pandas as pd

from bunseki.data.notes import LoadNote, shown

MAX_CHARS: Final = 40  # longer text is not a number anyone wrote by hand
_SIGN: Final = r"[-+−▲△]"
_CURRENCY: Final = r"[¥$€£]"
_UNITS: Final = ("円", "%", "個", "件", "人", "名", "本", "台", "回", "点", "枚", "社", "店", "歳", "冊", "票", "ドル")
_MULTIPLIERS: Final = {"千": 1e3, "万": 1e4, "億": 1e8}
# Dots as decimal marks and commas between thousands, or the other way round (1.234,5 or 1 234,5).
_POINT_BODY: Final = r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]*)?|\.[0-9]+"
_COMMA_BODY: Final = r"[0-9]{1,3}(?:[. ][0-9]{3})+(?:,[0-9]+)?|[0-9]+(?:,[0-9]*)?|,[0-9]+"
_LEADING_ZERO: Final = r"[-+]?0[0-9]"  # 0123, 0600001: codes, not numbers
_SAMPLE: Final = 200
_STYLE_SAMPLE: Final = 1000
_MINUS: Final = r"[-−▲△]"


def _pattern(body: str) -> str:
    units = "|".join(_UNITS)
    multipliers = "".join(_MULTIPLIERS)
    return (
        rf"(?P<sign>{_SIGN})?\s*(?P<currency>{_CURRENCY})?\s*(?P<sign2>[-−])?\s*(?P<body>{body})"
        rf"\s*(?P<multiplier>[{multipliers}])?\s*(?P<unit>{units}|{_CURRENCY})?"
    )


_POINT: Final = _pattern(_POINT_BODY)
_COMMA: Final = _pattern(_COMMA_BODY)


@dataclass(frozen=True, eq=False)
class WrittenNumbers:
    """The numbers read from a text column (NaN where a value was not one), and how they were written."""

    values: pd.Series
    matched: pd.Series  # bool, over the filled values: which ones were numbers
    decimal_comma: bool
    styles: tuple[str, ...]  # "decimal comma", "thousands separators", "¥", "%", "件", "万", "▲"


def read_numbers(filled: pd.Series, *, decimal_comma: bool = False) -> WrittenNumbers | None:
    """``filled`` (stripped, non-empty text) read as written numbers, or None if hardly any are.

    ``decimal_comma``: the file's delimiter leaves commas free to be decimal marks (';' or tab).
    With it, a column whose commas cannot be thousands separators ("1,50", "1.234,5") is read
    with decimal commas; "1,234" alone stays one thousand two hundred and thirty-four.
    """
    if filled.empty:
        return None
    short = filled.str.len() <= MAX_CHARS
    normal = filled.where(short, "")
    if not normal.iloc[:_SAMPLE].str.isascii().all() or not normal.str.isascii().all():
        normal = normal.str.normalize("NFKC")
    if normal.str.match(_LEADING_ZERO).any():
        return None
    comma = decimal_comma and _commas_are_decimal(normal)
    matched = normal.str.fullmatch(_COMMA if comma else _POINT)  # Arrow's RE2, a whole column at a time
    if not matched.any():
        return None
    numbers = normal[matched]
    # The value matched the pattern, so its digits and marks, in order, are its body.
    body = numbers.str.replace(r"[^0-9.,]", "", regex=True)
    if comma:
        digits = body.str.replace(".", "", regex=False).str.replace(",", ".", regex=False)
    else:
        digits = body.str.replace(",", "", regex=False)
    values = pd.to_numeric(digits, errors="coerce").astype("float64")
    for mark, factor in _MULTIPLIERS.items():
        values = values.where(~numbers.str.contains(mark, regex=False), values * factor)
    negative = numbers.str.contains(rf"^{_MINUS}|^{_CURRENCY}\s*[-−]")
    values = values.where(~negative, -values).reindex(filled.index)
    styled = numbers.iloc[:_STYLE_SAMPLE]  # how they are written, from the first ones (bounded)
    parts = styled.str.extract(f"^(?:{_COMMA if comma else _POINT})$")
    return WrittenNumbers(values, matched, comma, _styles(styled, parts, comma))


def _commas_are_decimal(normal: pd.Series) -> bool:
    """Whether commas here are decimal marks: some comma is not before a group of three digits."""
    with_comma = normal[normal.str.contains(",", regex=False)]
    if with_comma.empty:
        return False
    return bool(with_comma.str.contains(r",(?:[0-9]{1,2}|[0-9]{4,})(?:[^0-9]|$)").any()) or bool(
        with_comma.str.contains(r"[0-9]\.[0-9]{3},").any()
    )


def _styles(normal: pd.Series, parts: pd.DataFrame, comma: bool) -> tuple[str, ...]:
    styles = []
    if comma and normal.str.contains(",", regex=False).any():
        styles.append("decimal comma")
    if (not comma and normal.str.contains(",", regex=False).any()) or (
        comma and normal.str.contains(r"[0-9][. ][0-9]{3}").any()
    ):
        styles.append("thousands separators")
    for column in ("currency", "unit", "multiplier"):
        styles.extend(str(value) for value in parts[column].dropna().unique()[:3])
    if parts["sign"].isin(("▲", "△")).any():
        styles.append("▲")
    return tuple(dict.fromkeys(styles))


def numbers_note(name: str, filled: pd.Series, read: WrittenNumbers) -> LoadNote:
    """The note for a column read as written numbers: how they were written, and one example."""
    first = filled[read.matched].index[0]
    example = f"'{shown(filled[first])}' → {_number(float(read.values[first]))}"
    styles = read.styles
    en_styles = ", ".join(_EN_STYLES.get(style, style) for style in styles)
    ja_styles = "、".join(_JA_STYLES.get(style, style) for style in styles)
    count = int(read.matched.sum())
    return LoadNote(
        kind="numbers",
        column=name,
        count=count,
        examples=(shown(filled[first]),),
        en=f"{name}: {count:,} values written as numbers with {en_styles} were read as numbers (e.g. {example}).",
        ja=f"{name}: {ja_styles}付きで書かれた{count:,}件の値を数値として読み込みました（例: {example}）。",
    )


_EN_STYLES: Final = {
    "decimal comma": "decimal commas",
    "thousands separators": "thousands separators",
    "%": "percent signs (12% is read as 12)",
    "▲": "▲ for minus",
    "千": "千 (×1,000)",
    "万": "万 (×10,000)",
    "億": "億 (×100,000,000)",
}
_JA_STYLES: Final = {
    "decimal comma": "小数点のカンマ",
    "thousands separators": "桁区切り",
    "%": "%記号（12% は 12 として）",
    "▲": "マイナスを表す▲",
    "千": "千（×1,000）",
    "万": "万（×10,000）",
    "億": "億（×1億）",
}


def _number(value: float) -> str:
    return f"{int(value):,}" if value.is_integer() and abs(value) < 1e15 else f"{value:,.6g}"
