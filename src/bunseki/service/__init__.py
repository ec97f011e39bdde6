"""The service layer: what the CLI, the API and the UI ask Bunseki to do."""

from bunseki.service.analysis import AnalysisSession
from bunseki.service.cells import run_cell
from bunseki.service.conversation import Exchange
from bunseki.service.datastates import DataFormat, ReportFormat
from bunseki.service.files import OpenFile
from bunseki.service.inputs import UPLOAD_SUFFIXES
from bunseki.service.runtime import Event, TurnResult
from bunseki.service.sessions import AnalysisService
from bunseki.service.users import Accounts
from bunseki.service.views import (
    ArtifactView,
    MessageView,
    ReportView,
    SessionView,
    SnapshotView,
    StepView,
    TurnView,
    UserView,
)
from bunseki.usage import TurnUsage

__all__ = [
    "UPLOAD_SUFFIXES",
    "Accounts",
    "AnalysisService",
    "AnalysisSession",
    "ArtifactView",
    "DataFormat",
    "Event",
    "Exchange",
    "MessageView",
    "OpenFile",
    "ReportFormat",
    "ReportView",
    "SessionView",
    "SnapshotView",
    "StepView",
    "TurnResult",
    "TurnUsage",
    "TurnView",
    "UserView",
    "run_cell",
]
