"""The 13 deterministic data tools: typed pure functions over DataFrames, in one registry.

Each tool takes the current frame and keyword arguments and returns a `ToolResult`: a new frame
for the nine that change the data, a result table for the four that only report. Arguments that
cannot work raise `ToolRetry` with a message that names the valid choices, so a model can call
again. `run_tool` validates a model's JSON arguments first; `tool_schemas` and `describe_tools`
describe the tools for prompts.
"""

from __future__ import annotations

from bunseki.tools.aggregate import aggregate_data, group_by, pivot_table
from bunseki.tools.expressions import evaluate
from bunseki.tools.filters import filter_by_range, filter_by_values, filter_data
from bunseki.tools.registry import TOOLS, Tool, describe_tools, run_tool, tool_schemas
from bunseki.tools.result import ToolResult
from bunseki.tools.summary import describe_column, get_data_overview, summarize_data, value_counts
from bunseki.tools.transform import add_calculated_column, sort_data, transform_column

__all__ = [
    "TOOLS",
    "Tool",
    "ToolResult",
    "add_calculated_column",
    "aggregate_data",
    "describe_column",
    "describe_tools",
    "evaluate",
    "filter_by_range",
    "filter_by_values",
    "filter_data",
    "get_data_overview",
    "group_by",
    "pivot_table",
    "run_tool",
    "sort_data",
    "summarize_data",
    "tool_schemas",
    "transform_column",
    "value_counts",
]
