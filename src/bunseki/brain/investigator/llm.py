"""The investigator's brain over a chat model: every agent's judgement as a structured-output call.

The model may only name candidate edits from the list it is shown (ids found in the AST), or
propose an edit of the same simple patterns or any patch of the algorithm as a unified diff (applied
to a copy), so whatever it proposes can be verified by execution; the verifier, not the model,
decides. Its words (column meanings, the narrative, the root cause) are checked by the nodes against
executed output before they are used.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bunseki.brain.investigator import prompts
from bunseki.brain.investigator.contract import (
    ColumnNote,
    ColumnsView,
    DatasetView,
    EditProposal,
    FactsView,
    Hypothesis,
    HypothesisKind,
)
from bunseki.brain.structured import ChatModelBrain


class ProposedHypothesis(BaseModel):
    kind: HypothesisKind
    statement: str
    test: str
    edit_ids: list[str] = Field(default_factory=list)


class HypothesisList(BaseModel):
    hypotheses: list[ProposedHypothesis]


class ColumnNotes(BaseModel):
    columns: list[ColumnNote]


class Narrative(BaseModel):
    text: str


class RootCause(BaseModel):
    text: str


class LLMInvestigatorBrain(ChatModelBrain):
    def hypotheses(self, view: DatasetView) -> list[Hypothesis]:
        answer = self._ask(HypothesisList, prompts.hypothesis_messages(view))
        return [
            Hypothesis(id=f"H{n}", kind=h.kind, statement=h.statement, test=h.test, edit_ids=h.edit_ids, by_model=True)
            for n, h in enumerate(answer.hypotheses, 1)
        ]

    def column_meanings(self, view: ColumnsView) -> list[ColumnNote] | None:
        return self._ask(ColumnNotes, prompts.column_messages(view)).columns

    def narrate(self, view: FactsView) -> str | None:
        return self._ask(Narrative, prompts.narrative_messages(view)).text

    def propose_edit(self, view: DatasetView, hypothesis: Hypothesis) -> EditProposal | None:
        return self._ask(EditProposal, prompts.edit_messages(view, hypothesis))

    def root_cause(self, view: FactsView) -> str | None:
        return self._ask(RootCause, prompts.root_cause_messages(view)).text
