"""Bunseki (分析): conversational data analysis whose every number comes from executed code.

The public API, imported on first use so that ``import bunseki`` (and the sandbox's tooling)
stays light::

    from bunseki import AnalysisService
    service = AnalysisService()
    session = service.create_session(Path("sales.csv"))
    result = service.run_turn(session.id, "地域別の売上合計は？")
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bunseki.data import LoadedTable, load_table
    from bunseki.domain import ExecutionResult
    from bunseki.errors import BunsekiError
    from bunseki.sandbox import Limits, Sandbox
    from bunseki.service.analysis import AnalysisSession
    from bunseki.service.runtime import TurnResult
    from bunseki.service.sessions import AnalysisService
    from bunseki.settings import Settings
    from bunseki.state import DataState
    from bunseki.store import Store
    from bunseki.tools import TOOLS, ToolResult, run_tool

_HOMES = {
    "AnalysisService": "bunseki.service.sessions",
    "AnalysisSession": "bunseki.service.analysis",
    "BunsekiError": "bunseki.errors",
    "DataState": "bunseki.state",
    "ExecutionResult": "bunseki.domain",
    "Limits": "bunseki.sandbox",
    "LoadedTable": "bunseki.data",
    "Sandbox": "bunseki.sandbox",
    "Settings": "bunseki.settings",
    "Store": "bunseki.store",
    "TOOLS": "bunseki.tools",
    "ToolResult": "bunseki.tools",
    "TurnResult": "bunseki.service.runtime",
    "load_table": "bunseki.data",
    "run_tool": "bunseki.tools",
}
__all__ = [
    "TOOLS",
    "AnalysisService",
    "AnalysisSession",
    "BunsekiError",
    "DataState",
    "ExecutionResult",
    "Limits",
    "LoadedTable",
    "Sandbox",
    "Settings",
    "Store",
    "ToolResult",
    "TurnResult",
    "load_table",
    "run_tool",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'bunseki' has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name]), name)
    globals()[name] = value  # the next access is a plain attribute lookup
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
