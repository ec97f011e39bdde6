"""The 13 data tools in one registry, described for language models from their own code.

A tool's description is the first paragraph of its function's docstring, and its parameters are
a pydantic model derived from the function's keyword parameters (everything but ``frame``). So
the text and schema a model reads cannot drift from what the function accepts, and `run_tool`
refuses a bad call with a `ToolRetry` before the function runs.
"""

from __future__ import annotations

import datetime as dt
import inspect
import json
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pandas as pd
from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic_core import ErrorDetails

from bunseki.domain import Language
from bunseki.errors import ToolRetry
from bunseki.tools import _checks
from bunseki.tools.aggregate import aggregate_data, group_by, pivot_table
from bunseki.tools.filters import filter_by_range, filter_by_values, filter_data
from bunseki.tools.result import ToolResult
from bunseki.tools.summary import describe_column, get_data_overview, summarize_data, value_counts
from bunseki.tools.transform import add_calculated_column, sort_data, transform_column

LABELS_JA = {
    "filter_data": "データフィルタ",
    "filter_by_range": "範囲フィルタ",
    "filter_by_values": "値リストフィルタ",
    "aggregate_data": "集計処理",
    "group_by": "グループ化",
    "pivot_table": "ピボットテーブル",
    "transform_column": "列変換",
    "add_calculated_column": "計算列追加",
    "sort_data": "ソート",
    "summarize_data": "基本統計",
    "describe_column": "列統計",
    "value_counts": "値カウント",
    "get_data_overview": "データ概要",
}
_TYPE_NAMES: dict[object, str] = {
    str: "text",
    int: "integer",
    float: "number",
    bool: "true/false",
    type(None): "null",
    dt.date: "date (YYYY-MM-DD)",
    dt.datetime: "date-time (YYYY-MM-DDTHH:MM)",
    Any: "any value",
}


@dataclass(frozen=True)
class Tool:
    """One data tool: what a model reads about it, what it accepts, and the function that runs it."""

    name: str
    description: str
    parameters: type[BaseModel]
    function: Callable[..., ToolResult]
    changes_data: bool

    @classmethod
    def from_function(cls, function: Callable[..., ToolResult], *, changes_data: bool) -> Tool:
        """Describe ``function(frame, *, …)`` from its docstring and keyword parameters."""
        hints = get_type_hints(function)
        fields: dict[str, Any] = {}
        for name, parameter in inspect.signature(function).parameters.items():
            if name != "frame":
                default = ... if parameter.default is inspect.Parameter.empty else parameter.default
                fields[name] = (hints[name], default)
        title = "".join(word.capitalize() for word in function.__name__.split("_")) + "Arguments"
        model = create_model(title, __config__=ConfigDict(extra="forbid"), **fields)
        paragraph = (inspect.getdoc(function) or "").split("\n\n")[0]
        return cls(function.__name__, " ".join(paragraph.split()), model, function, changes_data)


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool.from_function(filter_data, changes_data=True),
        Tool.from_function(filter_by_range, changes_data=True),
        Tool.from_function(filter_by_values, changes_data=True),
        Tool.from_function(aggregate_data, changes_data=True),
        Tool.from_function(group_by, changes_data=True),
        Tool.from_function(pivot_table, changes_data=True),
        Tool.from_function(transform_column, changes_data=True),
        Tool.from_function(add_calculated_column, changes_data=True),
        Tool.from_function(sort_data, changes_data=True),
        Tool.from_function(summarize_data, changes_data=False),
        Tool.from_function(describe_column, changes_data=False),
        Tool.from_function(value_counts, changes_data=False),
        Tool.from_function(get_data_overview, changes_data=False),
    )
}


def run_tool(name: str, frame: pd.DataFrame, arguments: dict[str, Any]) -> ToolResult:
    """Run the tool called ``name`` on ``frame``; a bad name or bad arguments raise `ToolRetry`."""
    tool = TOOLS.get(name)
    if tool is None:
        raise _checks.unknown("tool", name, list(TOOLS))
    try:
        validated = tool.parameters.model_validate(arguments)
    except ValidationError as error:
        raise ToolRetry(_explain(tool, arguments, error.errors())) from None
    return tool.function(frame, **dict(validated))


def tool_schemas() -> list[dict[str, Any]]:
    """Every tool as name, description and the JSON schema of its parameters, in registry order."""
    return [
        {"name": tool.name, "description": tool.description, "parameters": tool.parameters.model_json_schema()}
        for tool in TOOLS.values()
    ]


def describe_tools(language: Language = "en") -> str:
    """A compact list of the tools for a prompt: one line each with parameters and first sentence."""
    if language == "ja":
        lines = ["データツール（* の付いたツールはデータを変更します。他は結果の表を返すだけです）:"]
    else:
        lines = ["Data tools (those marked * change the data; the others only return a result table):"]
    for tool in TOOLS.values():
        label = f" {LABELS_JA[tool.name]}" if language == "ja" else ""
        first = re.split(r"(?<=\.)\s", tool.description, maxsplit=1)[0]
        lines.append(f"- {tool.name}{'*' if tool.changes_data else ''}({_signature(tool)}){label}: {first}")
    return "\n".join(lines)


def type_text(annotation: object) -> str:
    """A type as a model should read it: "list of text", "one of 'eq', 'ne'", "number or null"."""
    origin, arguments = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return "one of " + ", ".join(f"'{argument}'" for argument in arguments)
    if origin in (Union, types.UnionType):
        return " or ".join(type_text(argument) for argument in arguments)
    if origin is list:
        item = type_text(arguments[0])
        return f"list of ({item})" if " or " in item else f"list of {item}"
    if origin is dict:
        return f"object mapping {type_text(arguments[0])} to {type_text(arguments[1])}"
    return _TYPE_NAMES.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _explain(tool: Tool, arguments: object, errors: list[ErrorDetails]) -> str:
    """One clause per bad argument (which, what it got, what it takes), then the tool's signature."""
    by_argument: dict[str, list[ErrorDetails]] = {}
    for error in errors:
        argument = str(error["loc"][0]) if error["loc"] else ""
        by_argument.setdefault(argument, []).append(error)
    fields = tool.parameters.model_fields
    clauses = []
    for argument, found in by_argument.items():
        first = found[0]
        if argument not in fields and first["type"] != "extra_forbidden":
            clauses.append(f"the arguments must be a JSON object, not {_shown(arguments)}")
        elif first["type"] == "extra_forbidden":
            clauses.append(f"{argument} is not an argument of {tool.name}")
        elif first["type"] == "missing":
            clauses.append(f"{argument} is missing ({type_text(fields[argument].annotation)})")
        else:
            path, value = _located(arguments, first["loc"])
            # A single error says why (a range, a format); a union's errors only repeat the types.
            reason = f": {first['msg']}" if len(found) == 1 and first["type"] != "literal_error" else ""
            expected = type_text(fields[argument].annotation)
            clauses.append(f"{path}={_shown(value)} is not valid{reason}; {argument} takes {expected}")
    takes = f"Arguments: {_signature(tool)}" if fields else "It takes no arguments"
    return f"{tool.name} got invalid arguments: {'; '.join(clauses)}. {takes}."


def _located(arguments: object, loc: tuple[int | str, ...]) -> tuple[str, object]:
    """The dotted path and value an error points at, following only real keys and list positions.

    pydantic also puts the union member it tried (such as "list[str]") into ``loc``; such parts
    name no key of the input and end the path.
    """
    path: list[str] = []
    value: Any = arguments
    for part in loc:
        if type(value) not in (dict, list):  # a string would index by position, too
            break
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            break
        path.append(str(part))
    return ".".join(path), value


def _signature(tool: Tool) -> str:
    """The parameters as a call would list them: required ones bare, optional ones with defaults."""
    return ", ".join(
        name if field.is_required() else f"{name}={json.dumps(field.default, ensure_ascii=False)}"
        for name, field in tool.parameters.model_fields.items()
    )


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "…"
