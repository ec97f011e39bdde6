"""What the offline analyst decided to compute: a plan the code generator turns into pandas."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bunseki.brain.analyst.offline.text import format_number
from bunseki.brain.analyst.offline.vocab import Stat
from bunseki.domain import Language

Task = Literal[
    "stat",
    "group",
    "trend",
    "top",
    "correlation",
    "correlation_matrix",
    "missing",
    "duplicates",
    "distinct",
    "count",
    "outliers",
    "share",
    "growth",
    "distribution",
    "describe",
    "answers",
    "ratio",
    "span",
]
# active_on: the row's span [column, other) holds the day in value (会員 as of a day: joined, not yet left)
Op = Literal["==", "!=", "in", "not in", ">", ">=", "<", "<=", "between", "active_on", "missing", "present"]
TimeUnit = Literal["D", "W", "M", "Q", "Y", "weekday", "daytype"]  # daytype: weekday or weekend
Chart = Literal["bar", "line", "hist", "scatter", "heatmap"]
# The form of the answer the question asks for: a plain value (a number, a table), the name of the
# winner, a date, a duration (days, months, years between dates), the difference or the ratio (times)
# of two groups or periods, a percentile, yes/no.
AnswerForm = Literal["value", "name", "date", "difference", "times", "percentile", "yesno", "duration"]


class Filter(BaseModel):
    """A row condition: ``column op value`` (value is a list for in/not in/between)."""

    column: str
    op: Op
    value: Any
    text: str = ""
    other: str | None = Field(default=None, description="A second column compared row by row (在庫数 < 発注点).")

    def columns(self) -> set[str]:
        """The columns the condition reads."""
        return {self.column, self.other} if self.other else {self.column}

    def describe(self, language: Language) -> str:
        value = self.value
        if self.op == "active_on":
            shown = str(value)
        elif self.other:
            shown = self.other
        elif self.op in ("in", "not in") and isinstance(value, list):
            shown = "・".join(map(str, value)) if language == "ja" else ", ".join(map(str, value))
        elif self.op == "between" and isinstance(value, list):
            shown = f"{value[0]}〜{value[1]}" if language == "ja" else f"{value[0]} to {value[1]}"
        elif isinstance(value, int | float) and not isinstance(value, bool):
            shown = format_number(value, grouping=False)  # 1000, not 1000.0
        else:
            shown = str(value)
        words = OP_WORDS[language][self.op]
        return words.format(column=self.column, value=shown)


OP_WORDS: dict[Language, dict[Op, str]] = {
    "ja": {
        "==": "{column} が {value}",
        "!=": "{column} が {value} 以外",
        "in": "{column} が {value}",
        "not in": "{column} が {value} 以外",
        ">": "{column} が {value} より大きい",
        ">=": "{column} が {value} 以上",
        "<": "{column} が {value} 未満",
        "<=": "{column} が {value} 以下",
        "between": "{column} が {value}",
        "active_on": "{value} 時点で在籍（{column} 以降、終了前）",
        "missing": "{column} が空欄",
        "present": "{column} が記入済み",
    },
    "en": {
        "==": "{column} = {value}",
        "!=": "{column} ≠ {value}",
        "in": "{column} in {value}",
        "not in": "{column} not in {value}",
        ">": "{column} > {value}",
        ">=": "{column} ≥ {value}",
        "<": "{column} < {value}",
        "<=": "{column} ≤ {value}",
        "between": "{column} from {value}",
        "active_on": "active on {value} ({column} on or before, not yet ended)",
        "missing": "{column} missing",
        "present": "{column} recorded",
    },
}


class Period(BaseModel):
    """A date window [start, end) on the date column, as people named it (2024年1月, Q1 2024)."""

    start: str
    end: str
    label: str


class Derived(BaseModel):
    """A column computed per row before the analysis: ``name = left op right``."""

    name: str
    left: str
    op: Literal["/", "*", "+", "-"]
    right: str
    expression: str | None = Field(
        default=None, description="A longer formula over ``data[...]`` columns ((a+b)/2, a*1.8+32)."
    )


class Ratio(BaseModel):
    """A percentage the question asks for: a part of a whole, or the change from a base to a subset."""

    kind: Literal["share", "change"]
    part: list[Filter] = Field(default_factory=list, description="share: the part; change: the compared subset.")
    base: list[Filter] = Field(default_factory=list, description="change: the subset compared against.")
    part_label: str = ""
    base_label: str = ""
    base_column: str | None = Field(default=None, description="change between measures: the base column.")
    part_column: str | None = Field(default=None, description="change between measures: the compared column.")


class Event(BaseModel):
    """A moment in the rows: the first or last date, or the date of a measure's largest or smallest row."""

    kind: Literal["first", "last", "max", "min"]
    column: str | None = Field(default=None, description="max/min: the measure whose extreme row it is.")


class Span(BaseModel):
    """The time between two moments (Appleの最安値から最高値まで何か月, first and last win), in a unit."""

    start: Event
    end: Event
    unit: Literal["days", "weeks", "months", "years"] = "days"


class Method(BaseModel):
    """How the answer slots compute what they name, as the question's own method words say
    ("Spearman", "alpha 0.01", "remove outliers beyond 2.5 IQR", "population standard deviation")."""

    corr: Literal["pearson", "spearman", "kendall"] = "pearson"
    normality: Literal["shapiro", "ks", "anderson", "skew"] = "shapiro"
    skew_bound: float = 0.5
    alpha: float = 0.05
    z: float = 3.0
    iqr: float = 1.5
    ddof: int = 1
    remove: Literal["iqr", "zscore"] | None = None
    r_threshold: float = 0.5
    averaged: bool = False

    def numbers(self) -> list[float]:
        """The numbers these methods take from the question."""
        return [self.skew_bound, self.alpha, self.z, self.iqr, self.ddof, self.r_threshold]


class AgeBands(BaseModel):
    """A column of an age column's decades (年代別: 20代, 30代…), added before the analysis."""

    column: str
    age: str


class Slot(BaseModel):
    """One requested ``@name[value]`` answer and how to compute it."""

    name: str
    description: str = ""
    decimals: int | None = None
    choices: list[str] = Field(default_factory=list)
    measure: str | None = None  # what to compute: a key of the measures in codegen
    column: str | None = None
    second: str | None = None
    filters: list[Filter] = Field(default_factory=list)


class Plan(BaseModel):
    """One analysis: a task over ``target`` (and ``second``), filtered, grouped or over time."""

    task: Task
    language: Language
    form: AnswerForm = "value"
    compared: Literal["higher", "lower"] | None = Field(
        default=None, description="A yes/no question that compares: is the first group higher (lower) than the second."
    )
    stat: Stat = "sum"
    quantile: float | None = Field(default=None, description="stat 'quantile': which (0.9: the 90th percentile).")
    target: str | None = None
    second: str | None = None
    group_by: str | None = None
    cross: str | None = Field(default=None, description="A second grouping column: a cross table of both.")
    time_unit: TimeUnit | None = None
    date_column: str | None = None
    filters: list[Filter] = Field(default_factory=list)
    periods: list[Period] = Field(default_factory=list)
    top_n: int | None = None
    ascending: bool = False
    focus: list[str] = Field(default_factory=list, description="Groups the question singles out (関東の割合).")
    within: list[Filter] = Field(
        default_factory=list,
        description="A share within each group: of its rows (or measure) meeting these (カード払いの割合が高い店舗).",
    )
    derived: Derived | None = None
    ratio: Ratio | None = None
    span: Span | None = None
    chart: Chart | None = None
    outlier_method: Literal["zscore", "iqr"] = "zscore"
    threshold: float = 3.0
    slots: list[Slot] = Field(default_factory=list)
    method: Method = Field(default_factory=Method, description="How answer slots and correlations compute.")
    year_column: str | None = Field(default=None, description="A whole-number year column read as the dates.")
    age_bands: AgeBands | None = None
    rolling: int | None = Field(default=None, description="trend: a moving average over this many periods.")
    cumulative: bool = Field(default=False, description="trend: the running total.")
    rows: bool = Field(default=False, description="top: the rows themselves, named by a name or id column.")
    shape: bool = Field(default=False, description="count: the table's rows and columns (何行何列).")
    columns: list[str] = Field(default_factory=list, description="correlation_matrix: the columns named.")
    derived_columns: list[Derived] = Field(default_factory=list, description="New features the question defines.")
    assumptions: list[str] = Field(default_factory=list)
    robust: bool = Field(default=False, description="Coerce text to numbers and drop blanks (a retry).")


class Clarification(BaseModel):
    """Why the question cannot be planned yet, as a question back to the person."""

    question: str
    reason: str
