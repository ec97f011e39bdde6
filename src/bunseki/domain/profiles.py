"""A table's profile: the table, its columns, their frequent values and the correlations.

`bunseki.data.profile` computes it; the EDA pipeline plans from it and shows it. Its JSON field
names are an external contract (the EDA API and `bunseki eda --format json`).
The size of the profile is bounded however wide the table: a few frequent values per column,
each cut short, and at most `MAX_CORRELATION_PAIRS` pairs among `MAX_CORRELATION_COLUMNS` columns.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

ProfileKind = Literal["numeric", "categorical", "datetime", "boolean", "text", "id"]

TOP_VALUES: Final = 5
VALUE_CHARS: Final = 40
MAX_CORRELATION_COLUMNS: Final = 50  # 1,225 pairs at most are computed …
MAX_CORRELATION_PAIRS: Final = 100  # … and the strongest of them kept


class TopValue(BaseModel):
    """One of a column's most frequent values, as text cut to `VALUE_CHARS`, and how often it occurs."""

    model_config = ConfigDict(frozen=True)

    value: str
    count: int


class ColumnProfile(BaseModel):
    """Facts about one column; the numeric ones are None for other kinds, and so on."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: ProfileKind
    dtype: str
    missing: int
    missing_pct: float = Field(description="Missing values as a percentage of the rows, 0-100.")
    distinct: int = Field(description="Distinct values, missing not counted.")
    top_values: list[TopValue] = Field(default_factory=list, description=f"At most {TOP_VALUES}, most frequent first.")
    mean: float | None = None
    std: float | None = Field(default=None, description="Sample standard deviation (n - 1).")
    min: float | str | None = Field(default=None, description="A number, or an ISO date for dates.")
    p25: float | None = None
    median: float | None = None
    p75: float | None = None
    max: float | str | None = Field(default=None, description="A number, or an ISO date for dates.")
    skew: float | None = Field(default=None, description="Adjusted Fisher-Pearson skewness, as pandas computes it.")
    zeros: int | None = None
    outliers: int | None = Field(default=None, description="Values beyond 1.5×IQR below Q1 or above Q3.")
    frequency: str | None = Field(
        default=None, description="Dates: the pandas frequency of their steps (D, h, MS…), None when irregular."
    )


class Correlation(BaseModel):
    """The correlation of two numeric columns over the rows where both have a value."""

    model_config = ConfigDict(frozen=True)

    a: str
    b: str
    pearson: float
    spearman: float


class TableProfile(BaseModel):
    """The profile of a whole table: the JSON shape is a contract, so fields are only ever added."""

    model_config = ConfigDict(frozen=True)

    rows: int
    duplicates: int = Field(description="Rows that repeat an earlier row exactly (pandas' duplicated()).")
    columns: list[ColumnProfile]
    correlations: list[Correlation] = Field(
        default_factory=list, description=f"Strongest |Pearson| first; at most {MAX_CORRELATION_PAIRS}."
    )
    uncorrelated_columns: int = Field(
        default=0, description=f"Numeric columns left out of correlations beyond the first {MAX_CORRELATION_COLUMNS}."
    )

    def column(self, name: str) -> ColumnProfile | None:
        return next((column for column in self.columns if column.name == name), None)
