"""The service layer: what the CLI, the API and the UI ask Bunseki to do; it answers in the models
of `bunseki.domain`."""

from bunseki.service.analysis import AnalysisSession
from bunseki.service.cells import run_cell
from bunseki.service.conversation import Exchange
from bunseki.service.datastates import DataFormat, ReportFormat
from bunseki.service.files import OpenFile
from bunseki.service.inputs import UPLOAD_SUFFIXES
from bunseki.service.runtime import TurnResult
from bunseki.service.sessions import AnalysisService
from bunseki.service.users import Accounts

__all__ = [
    "UPLOAD_SUFFIXES",
    "Accounts",
    "AnalysisService",
    "AnalysisSession",
    "DataFormat",
    "Exchange",
    "OpenFile",
    "ReportFormat",
    "TurnResult",
    "run_cell",
]
