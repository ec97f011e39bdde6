"""What the API sends and receives: the JSON shapes its OpenAPI schema documents.

Where the API shows a domain model, its schema is a form of that model (`bunseki.domain.Omitted`):
the fields it leaves out are named, and every other field comes from the model as it is.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from bunseki import domain
from bunseki.domain import Omitted, ReportOutput

TurnStatus = Literal["finalized", "asked", "limit_reached", "error"]


class Problem(BaseModel):
    """RFC 9457 problem details: every error response has this shape (application/problem+json)."""

    type: str = Field(default="about:blank", description="A URI naming the kind of problem.")
    title: str = Field(description="The kind of problem, in a few words.")
    status: int
    detail: str | None = Field(default=None, description="What went wrong this time, and what to do.")
    instance: str | None = Field(default=None, description="The request path.")
    errors: list[dict[str, Any]] | None = Field(default=None, description="Validation errors, one per field.")


class Dataset(BaseModel):
    """The uploaded data file and an overview of the data as it stands now."""

    name: str
    format: str
    encoding: str | None
    rows: int = Field(description="Rows of the current data.")
    column_count: int
    columns: list[str]
    dtypes: dict[str, str]
    numeric_columns: list[str]
    datetime_columns: list[str]
    categorical_columns: list[str]
    memory_bytes: int
    original_rows: int
    is_original: bool = Field(description="Whether the current data is the data as uploaded.")
    state: str = Field(description="The active data state in one line (Japanese or English).")
    steps: list[str] = Field(description="What changed the data since the original, in order.")
    notes: list[str] = Field(
        default_factory=list,
        description="How the file was read, where that was not the obvious way: numbers written with currency "
        "signs or decimal commas, dates in several styles, renamed columns, the sheet used, nested columns.",
    )
    sheet: str | None = Field(default=None, description="For a workbook: the sheet analysed.")
    sheets: list[str] = Field(default_factory=list, description="For a workbook: all its sheets, in order.")


class Usage(domain.TurnUsage):
    """What a turn's model calls cost. ``model`` is "offline" (and every count 0) when the built-in
    rules answered: no model ran."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    @classmethod
    def of(cls, usage: domain.TurnUsage | None) -> Usage | None:
        return None if usage is None else cls.model_validate(usage, from_attributes=True)


class Turn(domain.Turn):
    """One question of the session and how its run ended, with what it cost (null while it runs,
    and for turns recorded before usage was)."""

    session_id: Omitted = None
    question: Omitted = None
    owner: Omitted = None
    started_at: Omitted = None
    finished_at: Omitted = None
    error: Omitted = None
    model: Omitted = None
    trace: Omitted = None
    status: Annotated[domain.TurnStatus, WithJsonSchema({"type": "string"})] = Field(
        description="running, finalized, asked, limit_reached, error or interrupted."
    )
    usage: Usage | None

    @classmethod
    def of(cls, turn: domain.Turn) -> Turn:
        return cls.model_validate(turn.model_dump() | {"usage": Usage.of(turn.usage)})


class SessionSummary(domain.Session):
    """A session in a list: no overview, which would mean reading every data file."""

    user_id: Omitted = None
    dataset_path: Omitted = None
    dataset_format: Omitted = None
    dataset_encoding: Omitted = None
    workspace: Omitted = None


class Session(SessionSummary):
    """A session with the overview of its data and its turns."""

    dataset_name: Omitted = None
    dataset_rows: Omitted = None
    dataset_columns: Omitted = None
    dataset: Dataset
    turns: list[Turn] = Field(default_factory=list, description="The questions so far, with what each cost.")

    @classmethod
    def of(cls, session: domain.Session, overview: dict[str, Any], turns: list[domain.Turn] | None = None) -> Session:
        dataset = Dataset(
            name=session.dataset_name, format=session.dataset_format, encoding=session.dataset_encoding, **overview
        )
        return cls.model_validate(
            session.model_dump() | {"dataset": dataset, "turns": [Turn.of(turn) for turn in turns or []]}
        )


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The length limit is a setting (BUNSEKI_MAX_QUESTION_CHARS, 413 above it), so it is checked by the route.
    message: str = Field(min_length=1, description="The question, in Japanese or English.")


class Step(domain.Step):
    """One operation on the data (a tool, code, a reset, a restore, a snapshot)."""

    id: Omitted = None
    session_id: Omitted = None


class Artifact(BaseModel):
    name: str = Field(description="The path inside the session's workspace.")
    kind: str
    url: str


class ChatResponse(BaseModel):
    """The answer to a chat message, with the steps it executed and the report and files the turn produced."""

    message: str = Field(description="The answer, the question back to the person, or what went wrong.")
    status: TurnStatus
    steps_executed: list[Step]
    report: ReportOutput | None
    artifacts: list[Artifact]
    data_state: str | None = Field(default=None, description="The active data state after the turn.")
    usage: Usage | None = Field(default=None, description="What the turn's model calls cost.")


class Message(domain.Message):
    """One chat message at its position (from 1) in the session."""

    id: Omitted = None
    session_id: Omitted = None
    usage: Usage | None = Field(default=None, description="On an answer: what its turn's model calls cost.")

    @classmethod
    def of(cls, message: domain.Message, usage: domain.TurnUsage | None = None) -> Message:
        return cls.model_validate(message.model_dump() | {"usage": Usage.of(usage)})


class SnapshotRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200, pattern=r"\S", description="A name to find it by.")


class Snapshot(domain.Snapshot):
    """A saved state of the data: the table after ``step_position`` steps."""

    session_id: Omitted = None
    path: Omitted = None


class DataStateChange(BaseModel):
    """The step a restore or reset recorded, and the data state it left."""

    step: Step
    data_state: str


class SandboxBackendHealth(BaseModel):
    backend: str = Field(description="Where sandboxes run: local (this server's processes) or ray (a cluster).")
    ok: bool
    sessions: int = Field(description="Session sandboxes the backend holds now.")
    warm: int = Field(description="Started sandboxes waiting for new sessions.")
    detail: dict[str, str | int | float] = Field(default_factory=dict, description="Backend-specific figures.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    database: str = Field(description="The database backend in use (sqlite or postgresql).")
    warm_sandboxes: int = Field(description="Sandboxes started and waiting for new sessions.")
    sandbox_backend: SandboxBackendHealth
