"""The awkward inputs, generated: files people export from other tools, each with a question and its answer.

Each case is a file (written into a test's temporary folder), a question a new user would ask,
and what a right answer must contain, computed here from the values written, not copied from a
run. Add a case whenever a new kind of awkward file turns up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

ROWS = 12


@dataclass(frozen=True)
class Case:
    """An awkward file, a question about it, and what the answer and the overview must say."""

    id: str
    file_name: str
    write: Callable[[Path], None]
    question: str
    answer: str  # text the answer must contain (a number formatted as the analyst formats it)
    notes: tuple[str, ...] = ()  # text the overview's notes must contain, one note each
    numeric: tuple[str, ...] = ()  # columns the overview must list as numbers
    dates: tuple[str, ...] = ()  # … and as dates
    sheet: str | None = None  # the sheet the question's columns are on (workbooks)
    extra: dict[str, object] = field(default_factory=dict)


def _text(content: str, encoding: str = "utf-8") -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(content.encode(encoding))

    return write


# Decimal commas with ';' (a French or German Excel export) ------------------------------------
_PRICES = [1.5 + 0.25 * row for row in range(ROWS)]
_SEMICOLON = "produit;prix;quantite\n" + "".join(
    f"p{row};{price:.2f};{row + 1}\n".replace(".", ",") for row, price in enumerate(_PRICES)
)

# Decimal commas with tabs, and a thousands dot ------------------------------------------------
_WEIGHTS = [1234.5 + 1000 * row for row in range(ROWS)]
_TAB = "item\tweight\n" + "".join(
    f"i{row}\t{weight:,.1f}\n".replace(",", " ").replace(".", ",").replace(" ", ".")
    for row, weight in enumerate(_WEIGHTS)
)

# Currency amounts with thousands separators (yen, full-width yen, dollars) ---------------------
_AMOUNTS = [1234 * (row + 1) for row in range(ROWS)]
_SIGNS = ["¥", "￥", "¥"]
_YEN = "item,price\n" + "".join(f'i{row},"{_SIGNS[row % 3]}{amount:,}"\n' for row, amount in enumerate(_AMOUNTS))

# Japanese units and percentages, in CP932 as Excel writes it -----------------------------------
_COUNTS = [row + 3 for row in range(ROWS)]
_UNITS = "店舗,来店数,金額,達成率\n" + "".join(
    f'店{row},{count}人,"{count * 1500:,}円",{80 + row}%\n' for row, count in enumerate(_COUNTS)
)

# Dates written three ways in one column -------------------------------------------------------
_DAYS = pd.date_range("2024-01-05", periods=ROWS, freq="9D")
_DATE_STYLES = ["%Y-%m-%d", "%Y/%m/%d", "%B %d %Y"]
_MIXED_DATES = "order_date,sales\n" + "".join(
    f"{day.strftime(_DATE_STYLES[row % 3])},{100 * (row + 1)}\n" for row, day in enumerate(_DAYS)
)

# Day and month as bare numbers, some days above 12 --------------------------------------------
_DMY = "day,visits\n" + "".join(f"{day.strftime('%d/%m/%Y')},{row + 1}\n" for row, day in enumerate(_DAYS))

# Repeated column names -----------------------------------------------------------------------
_DUPLICATES = "x,x,y\n" + "".join(f"{row},{row * 10},{row % 3}\n" for row in range(ROWS))


def _nested(path: Path) -> None:
    pd.DataFrame(
        {
            "id": list(range(1, ROWS + 1)),
            "tags": [list(range(row % 3 + 1)) for row in range(ROWS)],
            "address": [{"city": f"c{row % 2}", "zip": f"{row:03d}"} for row in range(ROWS)],
        }
    ).to_parquet(path)


_REGIONS = ["north", "south", "east"]


def _workbook(path: Path) -> None:
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        pd.DataFrame({"region": _REGIONS * 4, "sales": [10 * (row + 1) for row in range(ROWS)]}).to_excel(
            writer, sheet_name="Sales", index=False
        )
        pd.DataFrame({"region": _REGIONS * 4, "profit": [3 * (row + 1) for row in range(ROWS)]}).to_excel(
            writer, sheet_name="Costs", index=False
        )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


CASES = (
    Case(
        "semicolon-decimal-comma",
        "prix.csv",
        _text(_SEMICOLON),
        "What is the average prix?",
        f"{_mean(_PRICES):.2f}",
        notes=("prix", "decimal comma"),
        numeric=("prix", "quantite"),
    ),
    Case(
        "tab-decimal-comma",
        "weights.tsv",
        _text(_TAB),
        "What is the average weight?",
        f"{_mean(_WEIGHTS):,.0f}",
        notes=("weight",),
        numeric=("weight",),
    ),
    Case(
        "yen-amounts",
        "prices.csv",
        _text(_YEN),
        "What is the total price?",
        f"{sum(_AMOUNTS):,}",
        notes=("price", "¥"),
        numeric=("price",),
    ),
    Case(
        "japanese-units",
        "来店.csv",
        _text(_UNITS, "cp932"),
        "What is the total 金額?",
        f"{sum(count * 1500 for count in _COUNTS):,}",
        notes=("円",),
        numeric=("来店数", "金額", "達成率"),
    ),
    Case(
        "mixed-dates",
        "orders.csv",
        _text(_MIXED_DATES),
        "What is the total sales?",
        f"{sum(100 * (row + 1) for row in range(ROWS)):,}",
        notes=("order_date", "3 ways"),
        dates=("order_date",),
    ),
    Case(
        "day-first-dates",
        "visits.csv",
        _text(_DMY),
        "What is the total visits?",
        f"{sum(range(1, ROWS + 1)):,}",
        notes=("day/month/year",),
        dates=("day",),
    ),
    Case(
        "duplicate-names",
        "dupes.csv",
        _text(_DUPLICATES),
        "What is the total x.1?",
        f"{sum(row * 10 for row in range(ROWS)):,}",
        notes=("'x' → 'x.1'",),
        numeric=("x", "x.1", "y"),
    ),
    Case(
        "nested-parquet",
        "nested.parquet",
        _nested,
        "What is the average id?",
        f"{_mean(list(range(1, ROWS + 1))):.2f}",
        notes=("tags", "address.city"),
        numeric=("id",),
    ),
    Case(
        "workbook-second-sheet",
        "book.xlsx",
        _workbook,
        "What is the average profit?",
        f"{_mean([3 * (row + 1) for row in range(ROWS)]):.2f}",
        notes=("Costs",),
        numeric=("profit",),
        sheet="Costs",
    ),
)
