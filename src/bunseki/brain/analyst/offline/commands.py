"""Imperative requests that change the data itself, read as data tools.

"関東だけにして" becomes filter_data, "売上の高い順に並べて" sort_data, "地域別に集計して"
aggregate_data, "客単価の列を追加して" add_calculated_column, "元のデータに戻して" a reset. A
question may hold a command and an analysis ("関東だけにして売上の合計は？"): the commands run
first, as tools, and the analysis then reads the data they left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bunseki.brain.analyst.offline.filters import is_number
from bunseki.brain.analyst.offline.plan import Filter
from bunseki.brain.analyst.offline.reading import Reading, read
from bunseki.brain.analyst.offline.vocab import STATS
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

RESET = re.compile(
    r"元のデータ|元データに|元に戻|最初のデータ|リセット|\breset\b|original data|start over|undo (?:all|everything)"
)
FILTER = re.compile(
    r"だけにし|だけに絞|だけを残|に絞|絞り込|抽出し|のみにし|のみを残|に限定|除外し|を除いて|以外にし|を外し|"
    r"\bfilter\b|\bkeep only\b|\bonly keep\b|\bexclude\b|\bremove (?:the )?rows\b|\blimit (?:it |the data )?to\b|"
    r"\brestrict (?:it |the data )?to\b|\bnarrow (?:it )?down\b"
)
SORT = re.compile(r"並べ替|並び替|ソート|順に並べ|順番に並べ|順にして|\bsort\b|\border by\b|\barrange\b")
AGGREGATE = re.compile(
    r"集計した表|集計表に|集計して|集計し直|まとめて|グループ化|集約して|"
    r"\baggregate\b|\bgroup (?:the data|the rows|it) by\b|\broll (?:it )?up\b"
)
ADD_COLUMN = re.compile(
    r"列を追加|列を作|新しい列|列として追加|列を足|"
    r"\badd (?:a |the )?(?:new )?column\b|\bcreate (?:a )?(?:new )?column\b|\bnew column\b"
)
DESCENDING = re.compile(r"多い順|高い順|大きい順|降順|\bdescending\b|\blargest first\b|\bhighest first\b")
ASCENDING = re.compile(r"少ない順|低い順|小さい順|昇順|古い順|\bascending\b|\bsmallest first\b|\blowest first\b")
OPERATORS = {"==": "eq", "!=": "ne", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte"}
STAT_FUNCTIONS = {
    "sum": "sum",
    "mean": "mean",
    "median": "median",
    "count": "count",
    "min": "min",
    "max": "max",
    "std": "std",
    "nunique": "nunique",
}


@dataclass(frozen=True)
class ToolCall:
    """A data tool to apply, with its arguments."""

    name: str
    arguments: dict[str, Any]


# A message that asks something ("…集計して、一番多いカテゴリを教えて") is a question to answer over the
# current data; only a request without one ("地域別に集計して", "集計した表にして") replaces the data.
ASKS = re.compile(
    r"[?？]|教えて|答えて|知りたい|は何|はどこ|はどれ|どの|どこ|どれ|いくら|いくつ|何[件人個%％]|一番|最も|もっとも|"
    r"\bwhich\b|\bwhat\b|\bwho\b|\bhow (?:many|much)\b|\btell me\b|\bname the\b|\bidentify\b"
)
EXPLICIT_TABLE = re.compile(r"集計した表|集計表に|表にして|\bas (?:a|the) (?:new )?table\b|\breplace the data\b")


def is_command(question: str) -> bool:
    lowered = question.lower()
    if any(pattern.search(lowered) for pattern in (RESET, FILTER, ADD_COLUMN)):
        return True
    reshapes = SORT.search(lowered) or AGGREGATE.search(lowered)
    return bool(reshapes) and (not ASKS.search(lowered) or bool(EXPLICIT_TABLE.search(lowered)))


def plan_commands(question: str, info: DataFrameInfo, language: Language) -> list[ToolCall]:
    """The tool calls an imperative request asks for, in order (none for a plain question)."""
    lowered = question.lower()
    if RESET.search(lowered):
        return [ToolCall("reset_data", {})]
    reading = read(question, info, language)
    calls: list[ToolCall] = []
    if FILTER.search(lowered):
        calls += [call for item in reading.filters if (call := filter_call(item, info))]
    if ADD_COLUMN.search(lowered) and reading.derived:
        derived = reading.derived
        expression = f"{_name(derived.left)} {derived.op} {_name(derived.right)}"
        calls.append(ToolCall("add_calculated_column", {"new_column_name": derived.name, "expression": expression}))
    reshape = not ASKS.search(lowered) or bool(EXPLICIT_TABLE.search(lowered))
    if reshape and AGGREGATE.search(lowered) and (aggregate := _aggregate(reading, info)):
        calls.append(aggregate)
    elif reshape and SORT.search(lowered) and (sort := _sort(reading, info)):
        calls.append(sort)
    return calls


def filter_call(item: Filter, info: DataFrameInfo) -> ToolCall | None:
    """The tool call that applies one condition the question stated."""
    column = info.column(item.column)
    if column is None:
        return None
    if item.op in ("in", "not in"):
        return ToolCall(
            "filter_by_values", {"column": item.column, "values": list(item.value), "exclude": item.op == "not in"}
        )
    if item.op == "between":
        low, high = item.value
        if column.kind == "datetime":  # windows are [start, end); the tool's bounds are inclusive
            high = (date.fromisoformat(str(high)) - timedelta(days=1)).isoformat()
        return ToolCall("filter_by_range", {"column": item.column, "min_value": low, "max_value": high})
    return ToolCall("filter_data", {"column": item.column, "operator": OPERATORS[item.op], "value": item.value})


def _aggregate(reading: Reading, info: DataFrameInfo) -> ToolCall | None:
    group = reading.group_by or next(iter(reading.categorical(info)), None)
    measures = [c for c in reading.numeric(info) if c != group]
    if group is None or not measures:
        return None
    stat = next((stat for _, stat in reading.stats if stat in STAT_FUNCTIONS), "sum")
    return ToolCall(
        "aggregate_data", {"group_by_columns": [group], "agg_column": measures[0], "agg_function": STAT_FUNCTIONS[stat]}
    )


def _sort(reading: Reading, info: DataFrameInfo) -> ToolCall | None:
    columns = [m.column for m in reading.mentions if info.column(m.column) is not None]
    numeric = [c for c in columns if is_number(info, c)]
    chosen = (numeric or columns)[:1]
    if not chosen:
        return None
    ascending = bool(ASCENDING.search(reading.lowered)) and not DESCENDING.search(reading.lowered)
    arguments: dict[str, Any] = {"columns": chosen, "ascending": ascending}
    if reading.top_n:
        arguments["top_n"] = reading.top_n
    return ToolCall("sort_data", arguments)


def wants_analysis(question: str, info: DataFrameInfo, language: Language) -> bool:
    """Whether a request that holds commands also asks a question to answer afterwards."""
    lowered = question.lower()
    if AGGREGATE.search(lowered) or RESET.search(lowered):
        return False  # the aggregated table, or the original data, is the answer
    asks = re.search(
        r"[?？]|教えて|出して|見せて|計算|求めて|グラフ|\bwhat\b|\bhow\b|\bshow\b|\bplot\b|\bchart\b", lowered
    )
    measured = any(re.search(pattern, lowered) for _, pattern in STATS)
    reading = read(question, info, language)
    return bool(asks and (measured or reading.time_unit or reading.words & {"trend", "chart", "correlation", "share"}))


def _name(column: str) -> str:
    """A column name as an expression may use it: bare when an identifier, else in backticks."""
    return column if column.isidentifier() else f"`{column}`"
