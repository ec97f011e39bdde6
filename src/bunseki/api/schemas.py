"""What the API sends and receives: the JSON shapes its OpenAPI schema documents."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bunseki.report.models import ReportOutput
from bunseki.service import MessageView, SessionView, SnapshotView, StepView, TurnUsage, TurnView

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


class Usage(BaseModel):
    """What a turn's model calls cost. ``model`` is "offline" (and every count 0) when the built-in
    rules answered: no model ran."""

    model: str = Field(description="provider:model, or offline.")
    calls: int = Field(description="Model calls, retries and structured-output attempts included.")
    prompt_tokens: int
    completion_tokens: int
    seconds: float = Field(description="Time spent waiting for the model, summed over its calls.")
    cost: float | None = Field(description="USD when BUNSEKI_LLM_PRICES prices the model; else null.")

    @classmethod
    def of(cls, usage: TurnUsage | None) -> Usage | None:
        return None if usage is None else cls.model_validate(usage.model_dump())


class Turn(BaseModel):
    """One question of the session and how its run ended, with what it cost (null while it runs,
    and for turns recorded before usage was)."""

    id: str
    number: int
    status: str = Field(description="running, finalized, asked, limit_reached, error or interrupted.")
    usage: Usage | None

    @classmethod
    def of(cls, view: TurnView) -> Turn:
        return cls(id=view.id, number=view.number, status=view.status, usage=Usage.of(view.usage))


class Session(BaseModel):
    id: str
    title: str
    model: str
    dataset: Dataset
    created_at: datetime
    updated_at: datetime
    turns: list[Turn] = Field(default_factory=list, description="The questions so far, with what each cost.")

    @classmethod
    def of(cls, record: SessionView, overview: dict[str, Any], turns: list[TurnView] | None = None) -> Session:
        dataset = Dataset(
            name=record.dataset_name, format=record.dataset_format, encoding=record.dataset_encoding, **overview
        )
        return cls(
            id=record.id,
            title=record.title,
            model=record.model,
            dataset=dataset,
            created_at=record.created_at,
            updated_at=record.updated_at,
            turns=[Turn.of(turn) for turn in turns or []],
        )


class SessionSummary(BaseModel):
    """A session in a list: no overview, which would mean reading every data file."""

    id: str
    title: str
    model: str
    dataset_name: str
    dataset_rows: int = Field(description="Rows of the data as uploaded.")
    dataset_columns: int
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, record: SessionView) -> SessionSummary:
        return cls.model_validate(record.model_dump())


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The length limit is a setting (BUNSEKI_MAX_QUESTION_CHARS, 413 above it), so it is checked by the route.
    message: str = Field(min_length=1, description="The question, in Japanese or English.")


class Step(BaseModel):
    """One operation on the data (a tool, code, a reset, a restore, a snapshot)."""

    position: int
    step_type: str
    parameters: dict[str, Any]
    result: Any
    rows_before: int | None
    rows_after: int | None
    changes_data: bool
    duration_s: float
    turn_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, record: StepView) -> Step:
        return cls.model_validate(record.model_dump())


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


class Message(BaseModel):
    position: int
    role: Literal["user", "assistant"]
    content: str
    turn_id: str | None
    created_at: datetime
    usage: Usage | None = Field(default=None, description="On an answer: what its turn's model calls cost.")

    @classmethod
    def of(cls, record: MessageView, usage: TurnUsage | None = None) -> Message:
        return cls.model_validate(record.model_dump() | {"usage": Usage.of(usage)})


class SnapshotRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200, pattern=r"\S", description="A name to find it by.")


class Snapshot(BaseModel):
    id: str
    name: str
    rows: int
    columns: int
    step_position: int
    created_at: datetime

    @classmethod
    def of(cls, record: SnapshotView) -> Snapshot:
        return cls.model_validate(record.model_dump())


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
