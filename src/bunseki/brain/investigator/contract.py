"""The investigator's brain: what it sees of a dataset, and what it answers.

The brain reads what the checks found (`DatasetView`) and proposes hypotheses, each with the
candidate AST edits that would test it. The verifier (not the brain) decides by execution.
Beside hypotheses a brain may word what the columns mean, what the inconsistencies show and the
root cause, and propose an edit of its own when a hypothesis is refuted; the offline brain
answers ``None`` to those (the nodes then use the deterministic text), a chat model's brain
answers in words whose numbers are checked against executed output before they are used.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

HypothesisKind = Literal["inconsistency", "parameter", "unexpected"]


class Hypothesis(BaseModel):
    id: str
    kind: HypothesisKind
    statement: str
    test: str = Field(description="How execution tests it.")
    edit_ids: list[str] = Field(default_factory=list, description="Candidate edits (Edit.id) to run.")
    verified: bool | None = None
    evidence: str = ""
    iterations: int = Field(default=0, description="Verifier iterations spent on it.")
    tested: int = Field(default=0, description="How many of edit_ids have been run.")
    fix_edit: str | None = None
    by_model: bool = Field(default=False, description="Worded by a chat model (its numbers are checked).")
    proposals: int = Field(default=0, description="Edits the brain proposed after it was refuted.")

    @property
    def pending(self) -> bool:
        """Not decided yet, and some of its edits are still to run."""
        return self.verified is None and self.tested < len(self.edit_ids)


class DatasetView(BaseModel):
    """What the brain sees of one dataset: the expectation, diagnostics, code and retrieved passages."""

    name: str
    expected: str
    diagnostics: dict[str, Any]
    source_name: str
    source: str
    edits: list[dict[str, Any]]
    passages: list[str] = Field(default_factory=list)
    documented: list[float] = Field(default_factory=list, description="Numbers the specifications state.")
    facts: list[dict[str, Any]] = Field(
        default_factory=list, description="What the specifications state (investigation.facts.Fact), with the sentence."
    )


class ColumnNote(BaseModel):
    """What one column means, and the retrieved passage (file) that says so."""

    column: str
    meaning: str
    source: str = Field(description="The file of the passage the meaning comes from.")


class ColumnsView(BaseModel):
    """The CSV's columns and the retrieved passages (evaluation environment first) about them."""

    columns: list[str]
    passages: list[str] = Field(description='Each "[segment/file] text".')


class FactsView(BaseModel):
    """What execution established about one dataset, for wording it (never for new numbers)."""

    name: str
    expected: str
    facts: dict[str, Any]
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    fix: str | None = None


class ProposedEdit(BaseModel):
    """Replace ``old`` (a number or a comparison operator) by ``new`` on ``line`` of the algorithm."""

    line: int
    old: str
    new: str
    col: int | None = Field(default=None, description="Only needed when ``old`` occurs twice on the line.")


class EditProposal(BaseModel):
    """A change the brain proposes to test a hypothesis: simple edits applied together, or a patch."""

    edits: list[ProposedEdit] = Field(default_factory=list)
    diff: str | None = Field(
        default=None,
        description="Any change of the algorithm as a unified diff of its file (@@ hunks); used instead of edits.",
    )
    claim: str = Field(default="", description="What the brain expects; execution decides.")


class InvestigatorBrain(Protocol):
    """Judgement for the investigator: hypotheses to verify, and words for what execution found."""

    @property
    def name(self) -> str:
        """What to show people: "offline", "openai:gpt-4o-mini", …"""
        ...

    def hypotheses(self, view: DatasetView) -> list[Hypothesis]: ...

    def column_meanings(self, view: ColumnsView) -> list[ColumnNote] | None: ...

    def narrate(self, view: FactsView) -> str | None: ...

    def propose_edit(self, view: DatasetView, hypothesis: Hypothesis) -> EditProposal | None: ...

    def root_cause(self, view: FactsView) -> str | None: ...
