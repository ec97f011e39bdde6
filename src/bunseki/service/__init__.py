"""The service layer: what the CLI, the API and the UI ask Bunseki to do."""

from bunseki.service.analysis import AnalysisSession
from bunseki.service.cells import run_cell
from bunseki.service.conversation import Exchange
from bunseki.service.runtime import Event, TurnResult
from bunseki.service.sessions import UPLOAD_SUFFIXES, AnalysisService

__all__ = ["UPLOAD_SUFFIXES", "AnalysisService", "AnalysisSession", "Event", "Exchange", "TurnResult", "run_cell"]
