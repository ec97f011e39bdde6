"""The service layer: what the CLI, the API and the UI ask Bunseki to do."""

from bunseki.service.analysis import AnalysisSession
from bunseki.service.cells import run_cell
from bunseki.service.runtime import Event, TurnResult
from bunseki.service.sessions import AnalysisService

__all__ = ["AnalysisService", "AnalysisSession", "Event", "TurnResult", "run_cell"]
