"""The analyst's brain: what it sees at each step of the graph, what it answers, and its interface.

The graph does not know which brain it has: an `LLMAnalystBrain` over any chat model, or the
deterministic `OfflineAnalystBrain`. A brain never runs code; the graph does, in the sandbox.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from bunseki.brain.results import without_results
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import ExpectedOutput, Language, ReportOutput, TableResult

NextAction = Literal["ask", "act", "finalize"]
# A bare identifier ("ask_action", "null", "question") is the name of something, not a sentence:
# small models answer with a field's or a decision's name where the schema wanted prose.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*")


class ReasonOutput(BaseModel):
    """The ``reason`` node's decision: ask, act or finalize; acting is running code or a data tool."""

    next_action: NextAction
    instruction: str | None = Field(default=None, description="When acting: what to analyse next.")
    tool: str | None = Field(
        default=None, description="When acting on the data itself (filter, sort, aggregate, reset…): the tool's name."
    )
    tool_arguments: str | None = Field(
        default=None,
        description=(
            'The tool\'s arguments as a JSON object, e.g. {"column": "地域", "operator": "eq", "value": "関東"}.'
        ),
    )
    question: str | None = Field(default=None, description="When asking: the question for the person.")
    assumption: str | None = Field(default=None, description="An assumption made to proceed, if any.")
    rationale: str = Field(description="Why this action (for the thought-process display).")
    # A brain's own reading of the turn (the offline brain's typed plan, as JSON), kept in the graph's
    # state and handed back in the view so code and report use the reading the decision made. Not part
    # of what a model is asked to fill in.
    plan: SkipJsonSchema[dict[str, Any] | None] = None

    @model_validator(mode="after")
    def _complete(self) -> ReasonOutput:
        # What is shown to the person must be a real sentence; these mistakes are sent back to the model.
        if self.next_action == "ask" and not is_sentence(self.question):
            raise ValueError("asking needs `question`: a full question for the person, in their language")
        if self.next_action == "act" and not ((self.instruction or "").strip() or (self.tool or "").strip()):
            raise ValueError("acting needs `instruction` (what to analyse next) or `tool`")
        return self


def is_sentence(text: str | None) -> bool:
    """Whether ``text`` reads as words for a person rather than a name, a number or nothing."""
    stripped = (text or "").strip()
    has_letters = any(character.isalpha() for character in stripped)
    return has_letters and _IDENTIFIER.fullmatch(stripped) is None


class CodeGenOutput(BaseModel):
    """The code for one instruction and the outputs it announces."""

    code: str
    expected_outputs: list[ExpectedOutput] = Field(default_factory=list)


class ExecutionRecord(BaseModel):
    """One executed cell or data tool as the graph remembers it: JSON only, no DataFrames."""

    model_config = ConfigDict(frozen=True)

    instruction: str | None = None
    tool: str | None = Field(default=None, description="Set when a data tool ran instead of code.")
    arguments: dict[str, Any] | None = None
    code: str
    success: bool
    stdout: str = ""
    stderr: str = ""
    error: str | None = None
    error_type: str | None = None
    limit: str | None = None
    artifacts: list[str] = Field(default_factory=list, description="Paths relative to the workspace.")
    tables: list[TableResult] = Field(default_factory=list)
    outputs: list[ExpectedOutput] = Field(default_factory=list)
    duration_s: float = 0.0

    @property
    def visible_stdout(self) -> str:
        """The output as a person should see it: machine-readable result lines removed."""
        return without_results(self.stdout)


class ChatTurn(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant"]
    content: str


class AnalystView(BaseModel):
    """Everything a brain may look at for one decision; built by the graph from its state."""

    question: str = Field(description="The person's latest message.")
    history: list[ChatTurn] = Field(default_factory=list, description="Earlier turns, oldest first.")
    language: Language = "ja"
    data: DataFrameInfo | None = None
    executions: list[ExecutionRecord] = Field(default_factory=list)
    loop_count: int = 0
    max_loops: int = 5
    instruction: str | None = None
    assumptions: list[str] = Field(default_factory=list)
    workspace_dir: str = ""
    data_state: str | None = Field(default=None, description="The active data state, in a line.")
    tools: bool = Field(default=False, description="Whether data tools are available.")
    plan: dict[str, Any] | None = Field(default=None, description="The brain's own plan of this turn, as it decided.")

    @property
    def last_execution(self) -> ExecutionRecord | None:
        return self.executions[-1] if self.executions else None


@runtime_checkable
class AnalystBrain(Protocol):
    """Judgement for the analyst: decide, write code, write the report."""

    @property
    def name(self) -> str:
        """What to show people: "offline", "openai:gpt-4o-mini", …"""
        ...

    def decide(self, view: AnalystView) -> ReasonOutput:
        """``reason``: ask, act (with an instruction) or finalize."""
        ...

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        """``code_exec``: Python for ``view.instruction``, run on ``df`` in the sandbox."""
        ...

    def write_report(self, view: AnalystView) -> ReportOutput:
        """``report``: the conclusion and its evidence, from the executions only."""
        ...
