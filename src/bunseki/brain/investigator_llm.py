"""The investigator's brain over a chat model: hypotheses from diagnostics, code and retrieved passages.

The model may only name candidate edits from the list it is shown (ids found in the AST), so
whatever it proposes can be verified by execution; the verifier, not the model, decides.
"""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from bunseki.brain.investigator import DatasetView, Hypothesis, HypothesisKind
from bunseki.brain.llm import ask
from bunseki.llm import endpoint_of

SYSTEM = (
    "You investigate why a time-series algorithm's output differs from its expectation and reference. "
    "Propose hypotheses of kind inconsistency (code contradicts the specification), parameter (a wrong "
    "parameter value) or unexpected (something else). For each, name the candidate edits (by id, only from "
    "the list given) whose re-execution would test it; to test edits together (a window's two bounds, say), "
    "join their ids with ' + ' in one entry. Do not claim anything is verified: execution decides."
)


class ProposedHypothesis(BaseModel):
    kind: HypothesisKind
    statement: str
    test: str
    edit_ids: list[str] = Field(default_factory=list)


class HypothesisList(BaseModel):
    hypotheses: list[ProposedHypothesis]


def hypothesis_messages(view: DatasetView, *, max_edits: int = 80) -> list[BaseMessage]:
    edits = "\n".join(
        f"- {e['kind']}@{e['line']}:{e['col']}:{e['old']}->{e['new']} ({e['context']})" for e in view.edits[:max_edits]
    )
    passages = "\n\n".join(view.passages) or "(none)"
    numbered = "\n".join(f"{n:4d}  {line}" for n, line in enumerate(view.source.splitlines(), 1))
    return [
        SystemMessage(SYSTEM),
        HumanMessage(
            f"Dataset {view.name}. Expected: {view.expected}\n\n"
            f"Diagnostics (output vs reference):\n{json.dumps(view.diagnostics, ensure_ascii=False)[:4000]}\n\n"
            f"Specification and code passages:\n{passages}\n\n"
            f"Algorithm {view.source_name}:\n{numbered}\n\n"
            f"Numbers the specifications state: {view.documented[:40]}\n\n"
            f"Candidate edits (use these ids exactly):\n{edits}"
        ),
    ]


class LLMInvestigatorBrain:
    def __init__(self, model: BaseChatModel, *, name: str) -> None:
        self._model = model
        self._name = name
        self._endpoint = endpoint_of(model)

    @property
    def name(self) -> str:
        return self._name

    def hypotheses(self, view: DatasetView) -> list[Hypothesis]:
        answer = ask(self._model, HypothesisList, hypothesis_messages(view), name=self._name, endpoint=self._endpoint)
        return [
            Hypothesis(id=f"H{n}", kind=h.kind, statement=h.statement, test=h.test, edit_ids=h.edit_ids)
            for n, h in enumerate(answer.hypotheses, 1)
        ]
