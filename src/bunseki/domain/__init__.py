"""The things Bunseki is about, defined once and used as they are by every layer above.

A bottom package: it imports nothing of Bunseki but itself. The store reads these models from its
rows, the services build them, and the CLI, the API and the UI show them; where an interface shows
less of a model, it derives a form of it (`Omitted`) rather than declaring its fields again.
One module per area: ``sessions`` (the analyst's sessions and what happens in them, users, the
unanswered log), ``cells`` (code run once in a sandbox, and what came of it), ``events`` (what a running
turn tells its listeners), ``usage`` (what a
turn cost), ``reports`` (the report every agent writes),
``profiles`` (a table's profile), ``eda`` (EDA runs), ``investigations``, ``knowledge``
(collections, ingests, search hits, answers, conversations) and ``language``.
"""

from __future__ import annotations

from bunseki.domain.cells import ExecutionResult, ExpectedOutput, LimitName, TableResult
from bunseki.domain.eda import (
    EdaReview,
    EdaRun,
    EdaRunDetails,
    EdaRunSummary,
    EdaStatus,
    Finding,
    PlanStep,
    StepKind,
    StepOutcome,
)
from bunseki.domain.events import Event, Listener, corrections, streamed_answer
from bunseki.domain.forms import Entity, Omitted
from bunseki.domain.investigations import (
    FINISHED,
    DatasetProgress,
    InvestigationRun,
    InvestigationStatus,
    InvestigationSummary,
)
from bunseki.domain.knowledge import (
    Answer,
    AnswerStatus,
    Citation,
    Collection,
    CollectionInfo,
    Conversation,
    ConversationTurn,
    DocumentInfo,
    IngestProblem,
    IngestProgress,
    IngestReport,
    IngestResult,
    KnowledgeConversation,
    KnowledgeTurn,
    ProgressCallback,
    Reflection,
    SearchHit,
    SourceDocument,
    Thought,
    UnansweredQuestion,
)
from bunseki.domain.language import LANGUAGES, Language
from bunseki.domain.profiles import ColumnProfile, Correlation, ProfileKind, TableProfile, TopValue
from bunseki.domain.reports import LABELS, Labels, ReportOutput, ReportSection
from bunseki.domain.sessions import (
    Artifact,
    ArtifactKind,
    FinishedStatus,
    Message,
    Report,
    Role,
    Session,
    Snapshot,
    Step,
    Turn,
    TurnStatus,
    Unanswered,
    User,
)
from bunseki.domain.usage import OFFLINE, TurnUsage, describe, format_cost, total

__all__ = [
    "FINISHED",
    "LABELS",
    "LANGUAGES",
    "OFFLINE",
    "Answer",
    "AnswerStatus",
    "Artifact",
    "ArtifactKind",
    "Citation",
    "Collection",
    "CollectionInfo",
    "ColumnProfile",
    "Conversation",
    "ConversationTurn",
    "Correlation",
    "DatasetProgress",
    "DocumentInfo",
    "EdaReview",
    "EdaRun",
    "EdaRunDetails",
    "EdaRunSummary",
    "EdaStatus",
    "Entity",
    "Event",
    "ExecutionResult",
    "ExpectedOutput",
    "Finding",
    "FinishedStatus",
    "IngestProblem",
    "IngestProgress",
    "IngestReport",
    "IngestResult",
    "InvestigationRun",
    "InvestigationStatus",
    "InvestigationSummary",
    "KnowledgeConversation",
    "KnowledgeTurn",
    "Labels",
    "Language",
    "LimitName",
    "Listener",
    "Message",
    "Omitted",
    "PlanStep",
    "ProfileKind",
    "ProgressCallback",
    "Reflection",
    "Report",
    "ReportOutput",
    "ReportSection",
    "Role",
    "SearchHit",
    "Session",
    "Snapshot",
    "SourceDocument",
    "Step",
    "StepKind",
    "StepOutcome",
    "TableProfile",
    "TableResult",
    "Thought",
    "TopValue",
    "Turn",
    "TurnStatus",
    "TurnUsage",
    "Unanswered",
    "UnansweredQuestion",
    "User",
    "corrections",
    "describe",
    "format_cost",
    "streamed_answer",
    "total",
]
