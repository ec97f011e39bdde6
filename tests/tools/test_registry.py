"""The registry: the 13 tools in order, schemas a model can use, and validation before running."""

from __future__ import annotations

import inspect
from typing import Any, Literal, get_args, get_origin

import jsonschema
import numpy as np
import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import TOOLS, ToolResult, describe_tools, run_tool, tool_schemas
from bunseki.tools.registry import LABELS_JA
from tests.tools import checked, sales

SEED_ORDER = [
    "filter_data",
    "filter_by_range",
    "filter_by_values",
    "aggregate_data",
    "group_by",
    "pivot_table",
    "transform_column",
    "add_calculated_column",
    "sort_data",
    "summarize_data",
    "describe_column",
    "value_counts",
    "get_data_overview",
]
FRAME = sales()


def test_exactly_the_thirteen_seed_tools_in_seed_order() -> None:
    assert list(TOOLS) == SEED_ORDER
    assert all(tool.name == name == tool.function.__name__ for name, tool in TOOLS.items())
    assert [tool.changes_data for tool in TOOLS.values()] == [True] * 9 + [False] * 4


def test_descriptions_are_the_first_docstring_paragraph_and_name_every_parameter_and_choice() -> None:
    for tool in TOOLS.values():
        paragraph = (inspect.getdoc(tool.function) or "").split("\n\n")[0]
        assert tool.description == " ".join(paragraph.split()) and len(tool.description) > 40
        assert "Returns" in tool.description or "does not change the data" in tool.description
        for name, field in tool.parameters.model_fields.items():
            assert name in tool.description, (tool.name, name)
            for choice in _literal_choices(field.annotation):
                assert choice in tool.description, (tool.name, choice)


def _literal_choices(annotation: Any) -> list[str]:
    if get_origin(annotation) is Literal:
        return [str(choice) for choice in get_args(annotation)]
    return [choice for argument in get_args(annotation) for choice in _literal_choices(argument)]


def test_schemas_are_valid_json_schema_with_the_required_arguments() -> None:
    schemas = tool_schemas()
    assert [schema["name"] for schema in schemas] == SEED_ORDER
    required = {
        "filter_data": ["column", "operator"],
        "filter_by_range": ["column"],
        "filter_by_values": ["column", "values"],
        "aggregate_data": ["group_by_columns", "agg_column", "agg_function"],
        "group_by": ["group_by_columns", "aggregations"],
        "pivot_table": ["index", "columns", "values"],
        "transform_column": ["column", "operation"],
        "add_calculated_column": ["new_column_name", "expression"],
        "sort_data": ["columns"],
        "summarize_data": [],
        "describe_column": ["column"],
        "value_counts": ["column"],
        "get_data_overview": [],
    }
    for schema in schemas:
        parameters = schema["parameters"]
        jsonschema.Draft202012Validator.check_schema(parameters)
        assert parameters["type"] == "object" and parameters["additionalProperties"] is False
        assert parameters.get("required", []) == required[schema["name"]]
        assert schema["description"] == TOOLS[schema["name"]].description
    operator = schemas[0]["parameters"]["properties"]["operator"]
    assert operator["enum"] == [
        "eq",
        "ne",
        "gt",
        "gte",
        "lt",
        "lte",
        "in",
        "not_in",
        "contains",
        "not_contains",
        "isnull",
        "notnull",
    ]


def test_schemas_accept_a_typical_call_and_reject_a_missing_argument() -> None:
    schema = tool_schemas()[1]["parameters"]
    jsonschema.validate({"column": "日付", "min_value": "2024-01-01", "max_value": "2024-03-31"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"min_value": 1}, schema)


def test_run_tool_validates_then_runs() -> None:
    result = run_tool("filter_by_range", FRAME, {"column": "売上", "min_value": "10000", "max_value": 20000})
    assert isinstance(result, ToolResult) and result.frame is not None
    assert len(result.frame) == FRAME["売上"].between(10_000, 20_000).sum()
    dates = run_tool("filter_by_range", FRAME, {"column": "日付", "max_value": "2024-01-31"})
    assert dates.frame is not None
    assert len(dates.frame) == (FRAME["日付"] < "2024-02-01").sum()


def test_a_string_for_min_value_is_refused_with_the_expected_types() -> None:
    with pytest.raises(ToolRetry) as raised:
        run_tool("filter_by_range", FRAME, {"column": "売上", "min_value": "lots"})
    message = str(raised.value)
    assert message.startswith('filter_by_range got invalid arguments: min_value="lots" is not valid; ')
    assert "min_value takes number or date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM) or null" in message
    assert message.endswith("Arguments: column, min_value=null, max_value=null.")


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("filter_data", {"column": "地域", "value": "関東"}, "operator is missing (one of 'eq', 'ne', 'gt'"),
        ("filter_data", {"column": "地域", "operator": "equals", "value": "関東"}, "operator takes one of 'eq', 'ne'"),
        (
            "sort_data",
            {"columns": "売上"},
            'columns="売上" is not valid: Input should be a valid list; columns takes list of text',
        ),
        ("sort_data", {"columns": ["売上"], "top_n": "ten"}, 'top_n="ten" is not valid'),
        ("value_counts", {"column": "地域", "limit": 5}, "limit is not an argument of value_counts"),
        (
            "group_by",
            {"group_by_columns": ["地域"], "aggregations": {"売上": "average"}},
            'aggregations.売上="average" is not valid',
        ),
        (
            "filter_by_values",
            {"column": "地域", "values": [["関東"]]},
            "values takes list of (text or integer or number or true/false)",
        ),
        ("summarize_data", ["地域"], 'the arguments must be a JSON object, not ["地域"]. It takes no arguments.'),
    ],
)
def test_run_tool_names_bad_arguments_and_expected_types(name: str, arguments: Any, expected: str) -> None:
    with pytest.raises(ToolRetry) as raised:
        run_tool(name, FRAME, arguments)
    assert expected in str(raised.value)


def test_an_unknown_tool_lists_the_tools() -> None:
    with pytest.raises(ToolRetry) as raised:
        run_tool("filter_rows", FRAME, {})
    message = str(raised.value)
    assert "There is no tool 'filter_rows'. Did you mean 'filter_data'" in message
    assert all(f"'{name}'" in message for name in SEED_ORDER)


def test_tool_errors_pass_through_run_tool() -> None:
    with pytest.raises(ToolRetry, match="gt needs numbers or dates but 地域 holds text"):
        run_tool("filter_data", FRAME, {"column": "地域", "operator": "gt", "value": 3})


def test_describe_tools_lists_every_tool_in_either_language() -> None:
    english, japanese = describe_tools("en"), describe_tools("ja")
    for text in (english, japanese):
        lines = text.splitlines()
        assert len(lines) == 14
        assert [line.split("(")[0].lstrip("- ").rstrip("*") for line in lines[1:]] == SEED_ORDER
    assert "- filter_data*(column, operator, value=null): Keep the rows" in english
    assert "- summarize_data(): Basic statistics" in english
    assert '- pivot_table*(index, columns, values, aggfunc="sum", fill_value=0) ピボットテーブル:' in japanese
    assert all(label in japanese for label in LABELS_JA.values())
    assert japanese.startswith("データツール")


def test_tool_results_carry_one_of_frame_or_table() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        ToolResult(name="x", details={}, summary_en="", summary_ja="")
    with pytest.raises(ValueError, match="exactly one"):
        ToolResult(name="x", frame=FRAME, table=FRAME, details={}, summary_en="", summary_ja="")
    result = run_tool("value_counts", FRAME, {"column": "地域"})
    assert result.summary("ja") == result.summary_ja and result.summary("en") == result.summary_en


BIG_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("filter_data", {"column": "地域", "operator": "in", "value": ["関東", "近畿"]}),
    ("filter_by_range", {"column": "日付", "min_value": "2030-01-01", "max_value": "2031-12-31"}),
    ("filter_by_values", {"column": "店舗コード", "values": ["S001", "S002"], "exclude": True}),
    ("aggregate_data", {"group_by_columns": ["地域", "商品名"], "agg_column": "売上", "agg_function": "median"}),
    ("group_by", {"group_by_columns": ["店舗コード"], "aggregations": {"売上": ["sum", "std"], "数量": "mean"}}),
    ("pivot_table", {"index": "店舗コード", "columns": "地域", "values": "売上", "aggfunc": "mean"}),
    ("transform_column", {"column": "売上", "operation": "log10"}),
    ("add_calculated_column", {"new_column_name": "単価", "expression": "where(数量 > 0, 売上 / 数量, 0)"}),
    ("sort_data", {"columns": ["地域", "売上"], "ascending": [True, False], "top_n": 100}),
    ("summarize_data", {}),
    ("describe_column", {"column": "売上"}),
    ("value_counts", {"column": "店舗コード", "top_n": 5}),
    ("get_data_overview", {}),
]


def test_every_tool_runs_on_a_hundred_thousand_rows() -> None:
    big = sales(rows=100_000, seed=7)
    assert [name for name, _ in BIG_CALLS] == SEED_ORDER
    for name, arguments in BIG_CALLS:
        result = checked(lambda frame, name=name, arguments=arguments: run_tool(name, frame, arguments), big)
        assert result.changes_data == TOOLS[name].changes_data
        shown = result.frame if result.changes_data else result.table
        assert shown is not None and not shown.empty, name
        assert any(character.isdigit() for character in result.summary_en), name
        assert any(character.isdigit() for character in result.summary_ja), name
    kept = run_tool("filter_data", big, {"column": "地域", "operator": "in", "value": ["関東", "近畿"]})
    assert kept.details["rows_after"] == big["地域"].isin(["関東", "近畿"]).sum() > 40_000
    unit = run_tool("add_calculated_column", big, {"new_column_name": "単価", "expression": "売上 / 数量"})
    assert unit.frame is not None and not np.isinf(unit.frame["単価"]).any()
    assert isinstance(unit.frame, pd.DataFrame) and len(unit.frame) == 100_000
