"""The service layer: what the CLI, the API and the UI ask Bunseki to do."""

from bunseki.service.analysis import AnalysisSession
from bunseki.service.cells import run_cell
from bunseki.service.runtime import Event, TurnResult
from bunseki.service.sessions import AnalysisService, DataFormat, ReportFormat
from bunseki.service.users import Accounts

__all__ = [
    "Accounts",
    "AnalysisService",
    "AnalysisSession",
    "DataFormat",
    "Event",
    "ReportFormat",
    "TurnResult",
    "run_cell",
]
