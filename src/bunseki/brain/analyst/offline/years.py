"""A whole-number year column (year = 2010…2020, 年度) as the table's time axis when it has no date.

Periods, growth between years and trends over years then work as they do over dates: the plan
reads the column as 1 January of each year, and the generated code converts it the same way
before filtering or resampling.
"""

from __future__ import annotations

import re

from bunseki.brain.text import fold
from bunseki.data.summary import ColumnInfo, DataFrameInfo

_YEAR_NAME = re.compile(r"^(?:year|yr|fy|fiscal year|calendar year|年|年度|西暦|会計年度|暦年)$|(?:^|\s)year$|年度?$")


def year_column(info: DataFrameInfo) -> str | None:
    """The integer year column of a table without a date column, if it has one."""
    if any(column.kind == "datetime" for column in info.column_info):
        return None
    for column in info.column_info:
        if column.kind == "number" and _YEAR_NAME.search(fold(column.name)) and _years(column):
            return column.name
    return None


def as_dates(info: DataFrameInfo) -> tuple[DataFrameInfo, str | None]:
    """The summary with its year column seen as dates (and that column's name), or unchanged."""
    name = year_column(info)
    if name is None:
        return info, None
    columns = [
        column.model_copy(
            update={
                "kind": "datetime",
                "minimum": f"{int(float(column.minimum or 0))}-01-01",
                "maximum": f"{int(float(column.maximum or 0))}-01-01",
            }
        )
        if column.name == name
        else column
        for column in info.column_info
    ]
    return info.model_copy(update={"column_info": columns}), name


def conversion(column: str) -> str:
    """The line that turns the year numbers into dates (2020 → 2020-01-01) in the generated code."""
    return (
        f"data = data.assign(**{{{column!r}: pd.to_datetime(data[{column!r}].astype('Int64').astype(str), "
        "format='%Y', errors='coerce')})"
    )


def _years(column: ColumnInfo) -> bool:
    low, high = column.minimum, column.maximum
    if not isinstance(low, int | float) or not isinstance(high, int | float) or column.unique < 2:
        return False
    whole = column.dtype.lower().startswith(("int", "uint")) or (float(low).is_integer() and float(high).is_integer())
    return whole and 1900 <= low <= high <= 2100
