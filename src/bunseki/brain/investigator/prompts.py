"""Prompts of the investigator's chat-model brain, one per agent, with retrieved passages.

Every prompt carries the passages of the specifications and code that retrieval found for that
agent's question. The rule running through them: the model explains and proposes; numbers,
tables, diffs and verdicts come from executed code. Whatever number the model writes is checked
against the executed output afterwards, and its words are dropped when one is not there.
"""

from __future__ import annotations

import json

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from bunseki.brain.investigator.contract import ColumnsView, DatasetView, FactsView, Hypothesis

FACTS_CHARS = 4000
PASSAGE_CHARS = 6000

ROLE = (
    "You are part of an investigation of why a time-series algorithm's output differs from its "
    "expectation and from the core library's reference. Code runs in a sandbox; its output is "
    "given to you. Never state a number that is not in the executed output shown to you. "
    "Write in the language of the expectation text (Japanese or English)."
)

COLUMNS_TASK = (
    "Say what each column of the CSV means, using only the passages of the evaluation environment's "
    "and the algorithm's documents below. For each column a passage describes, give `column` (exactly "
    "as listed), `meaning` (one sentence, from the passage) and `source` (the file name in the "
    "passage's [segment/file] label). Leave out columns no passage describes; never guess."
)

NARRATIVE_TASK = (
    "Explain in two or three sentences what the executed comparison shows: where the output differs "
    "from the expectation and the reference, and what the evaluation function said. Quote numbers "
    "only exactly as they appear in the facts; do not compute new ones."
)

HYPOTHESES_TASK = (
    "Propose hypotheses of kind inconsistency (code contradicts the specification), parameter (a wrong "
    "parameter value) or unexpected (something else). For each, name the candidate edits (by id, only from "
    "the list given) whose re-execution would test it; to test edits together (a window's two bounds, say), "
    "join their ids with ' + ' in one entry. Do not claim anything is verified: execution decides."
)

EDIT_TASK = (
    "The hypothesis below was refuted by execution for the edits tried so far. Propose one concrete "
    "change that would test it. Either `edits`: one or more edits applied together, each replacing a "
    "number literal or a comparison operator (>, >=, <, <=) of the algorithm at a given line (`line`, `old` "
    "exactly as written there, `new`; `col` only when `old` occurs twice on that line). Or `diff`: any "
    "change of the algorithm as a unified diff of its file (hunks `@@ -start,count +start,count @@` whose "
    "context and removed lines are copied exactly from the numbered code, without the numbers), for what "
    "no simple edit can do (a filter, an argument, another statistic or column). "
    "Your `claim` is only a claim: the change is re-run on every dataset and compared with the reference."
)

ROOT_CAUSE_TASK = (
    "Word the root cause of this dataset's difference in one or two sentences, for the report. Base it "
    "on the hypotheses as execution decided them (verified, refuted, untested) and the fix diff; if "
    "nothing was verified, say what the evidence points to without claiming a cause. Quote numbers only "
    "exactly as they appear in the facts, the evidence or the diff."
)


def _passages(passages: list[str]) -> str:
    return "\n\n".join(passages)[:PASSAGE_CHARS] or "(none found)"


def _facts(facts: dict[str, object]) -> str:
    return json.dumps(facts, ensure_ascii=False, default=str)[:FACTS_CHARS]


def _numbered(source: str) -> str:
    return "\n".join(f"{n:4d}  {line}" for n, line in enumerate(source.splitlines(), 1))


def column_messages(view: ColumnsView) -> list[BaseMessage]:
    return [
        SystemMessage(f"{ROLE}\n\n{COLUMNS_TASK}"),
        HumanMessage(f"Columns: {view.columns}\n\nRetrieved passages:\n{_passages(view.passages)}"),
    ]


def narrative_messages(view: FactsView) -> list[BaseMessage]:
    return [
        SystemMessage(f"{ROLE}\n\n{NARRATIVE_TASK}"),
        HumanMessage(f"Dataset {view.name}. Expected: {view.expected}\n\nExecuted comparison:\n{_facts(view.facts)}"),
    ]


def hypothesis_messages(view: DatasetView, *, max_edits: int = 80) -> list[BaseMessage]:
    edits = "\n".join(
        f"- {e['kind']}@{e['line']}:{e['col']}:{e['old']}->{e['new']} ({e['context']})" for e in view.edits[:max_edits]
    )
    return [
        SystemMessage(f"{ROLE}\n\n{HYPOTHESES_TASK}"),
        HumanMessage(
            f"Dataset {view.name}. Expected: {view.expected}\n\n"
            f"Diagnostics (output vs reference):\n{_facts(view.diagnostics)}\n\n"
            f"Specification and code passages (algorithm and evaluation environment):\n{_passages(view.passages)}\n\n"
            f"Algorithm {view.source_name}:\n{_numbered(view.source)}\n\n"
            f"Numbers the specifications state: {view.documented[:40]}\n\n"
            f"Candidate edits (use these ids exactly):\n{edits}"
        ),
    ]


def edit_messages(view: DatasetView, hypothesis: Hypothesis) -> list[BaseMessage]:
    return [
        SystemMessage(f"{ROLE}\n\n{EDIT_TASK}"),
        HumanMessage(
            f"Dataset {view.name}. Expected: {view.expected}\n\n"
            f"Hypothesis ({hypothesis.kind}): {hypothesis.statement}\n"
            f"Execution so far: {hypothesis.evidence or 'nothing run'}\n\n"
            f"Diagnostics (output vs reference):\n{_facts(view.diagnostics)}\n\n"
            f"Specification and code passages:\n{_passages(view.passages)}\n\n"
            f"Algorithm {view.source_name}:\n{_numbered(view.source)}"
        ),
    ]


def root_cause_messages(view: FactsView) -> list[BaseMessage]:
    decided = "\n".join(
        f"- {h.id} ({h.kind}, {_verdict(h.verified)}): {h.statement} Evidence: {h.evidence}" for h in view.hypotheses
    )
    return [
        SystemMessage(f"{ROLE}\n\n{ROOT_CAUSE_TASK}"),
        HumanMessage(
            f"Dataset {view.name}. Expected: {view.expected}\n\n"
            f"Facts from execution:\n{_facts(view.facts)}\n\n"
            f"Hypotheses as execution decided them:\n{decided or '(none)'}\n\n"
            f"Verified fix (diff):\n{view.fix or '(none)'}"
        ),
    ]


def _verdict(verified: bool | None) -> str:
    return {True: "verified", False: "refuted", None: "untested"}[verified]
