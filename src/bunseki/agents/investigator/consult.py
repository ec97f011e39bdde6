"""The brain's words and proposals, taken only when they hold; otherwise the offline text stands.

Every call to the brain goes through `consult`: an unusable answer (malformed, off-schema, an
unknown kind) is noted in the dataset's ``model_notes`` and the deterministic result is used.
What the brain writes is checked before it is used: its numbers against executed output
(`grounding`), its column meanings against the passages it was shown, its edits against the AST.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, TypeVar

from bunseki.brain.investigator.contract import (
    ColumnNote,
    DatasetView,
    EditProposal,
    FactsView,
    Hypothesis,
    InvestigatorBrain,
)
from bunseki.errors import ModelOutputError
from bunseki.investigation.edits import JOIN, Edit, change_id, describe_all, patch_edit, proposed_edit
from bunseki.investigation.grounding import facts_text, redact, ungrounded
from bunseki.investigation.index import Passage
from bunseki.investigation.patches import PatchError, apply_unified_diff

T = TypeVar("T")
MAX_PROPOSALS = 3  # edits the brain may propose per dataset (each costs a verifier iteration)


def note(ds: dict[str, Any], text: str) -> None:
    ds["model_notes"] = [*ds.get("model_notes", []), text]


def consult(ds: dict[str, Any], what: str, call: Callable[[], T]) -> T | None:
    """The brain's answer, or None (noted) when the model's answer was unusable."""
    try:
        return call()
    except ModelOutputError as exc:
        note(ds, f"{what}: the model's answer was unusable ({exc}); the offline diagnostics were used.")
        return None


def grounded(ds: dict[str, Any], what: str, text: str | None, facts: str) -> str | None:
    """``text`` if every number in it appears in ``facts`` (executed output); else None, noted."""
    if not text or not text.strip():
        return None
    missing = ungrounded(text, facts)
    if missing:
        note(ds, f"{what}: the model's text was not used, its numbers {missing} are not in any executed output.")
        return None
    return text.strip()


def executed_facts(ds: dict[str, Any]) -> dict[str, Any]:
    """What the data check and the comparison established (the numbers a model may quote)."""
    summary = ds.get("summary") or {}
    return {
        "expected_ranges": (ds.get("expectation") or {}).get("ranges"),
        "mismatched_runs": ds.get("mismatched_runs", []),
        "reference_mismatches": ds.get("reference_mismatches", []),
        "eval": summary.get("eval"),
        "rows": {"output": summary.get("output", {}).get("rows"), "reference": summary.get("core", {}).get("rows")},
        "diagnostics": ds.get("diagnostics", {}),
    }


def merge_meanings(
    ds: dict[str, Any], found: list[dict[str, Any]], notes: list[ColumnNote], passages: list[Passage]
) -> list[dict[str, Any]]:
    """The model's meanings in place of retrieval's where they cite a passage shown and add no number."""
    by_column = {m["column"]: dict(m) for m in found}
    by_source = {p.source: p for p in passages}
    for item in notes:
        passage = by_source.get(item.source.strip("[] ").rsplit("/", 1)[-1])  # "[environment/x.md]" too
        if item.column not in by_column or passage is None:
            note(ds, f"column meanings: {item.column!r} from {item.source!r} was not used (no such column or passage).")
            continue
        meaning = grounded(ds, f"column meaning of {item.column}", item.meaning, passage.text)
        if meaning:
            by_column[item.column].update(meaning=meaning, segment=passage.segment, source=passage.source)
    return list(by_column.values())


def narrative(brain: InvestigatorBrain, ds: dict[str, Any]) -> str | None:
    facts = executed_facts(ds)
    view = FactsView(name=ds["name"], expected=ds["expected"], facts=facts)
    text = consult(ds, "consistency narrative", lambda: brain.narrate(view))
    return grounded(ds, "consistency narrative", text, facts_text(facts))


def propose(
    brain: InvestigatorBrain, ds: dict[str, Any], hypothesis: Hypothesis, source: str
) -> tuple[str, list[Edit]] | None:
    """A change the brain proposes for a refuted hypothesis, as edits the verifier can run; or None."""
    if hypothesis.proposals or len(ds.get("proposed", {})) >= MAX_PROPOSALS:
        return None
    hypothesis.proposals += 1
    view = DatasetView(**ds["view"])  # kept in the state as a dict
    answer: EditProposal | None = consult(ds, f"edit for {hypothesis.id}", lambda: brain.propose_edit(view, hypothesis))
    if answer is None or not (answer.edits or answer.diff):
        return None
    if answer.diff:
        return _patch(ds, hypothesis, source, answer.diff, answer.claim)
    edits = [proposed_edit(source, e.line, e.old, e.new, e.col) for e in answer.edits]
    applied = [e for e in edits if e is not None]
    if len(applied) != len(edits) or len({(e.line, e.col) for e in applied}) != len(applied):
        wanted = "; ".join(f"line {e.line}: {e.old} → {e.new}" for e in answer.edits)
        note(ds, f"edit for {hypothesis.id}: the model's change ({wanted}) is not a simple edit of the code; not run.")
        return None
    change = change_id(applied)
    if change in hypothesis.edit_ids:
        note(ds, f"edit for {hypothesis.id}: the model proposed {describe_all(applied)}, already run.")
        return None
    ds["proposed"] = {**ds.get("proposed", {}), change: answer.claim}
    return change, applied


def _patch(
    ds: dict[str, Any], hypothesis: Hypothesis, source: str, diff: str, claim: str
) -> tuple[str, list[Edit]] | None:
    """The model's unified diff as a change to run, when it applies to the code and leaves it valid Python."""
    try:
        ast.parse(apply_unified_diff(source, diff))
    except PatchError as exc:
        note(ds, f"edit for {hypothesis.id}: the model's patch does not apply to the code ({exc}); not run.")
        return None
    except SyntaxError as exc:
        note(
            ds,
            f"edit for {hypothesis.id}: the model's patch leaves the code invalid "
            f"(line {exc.lineno}: {exc.msg}); not run.",
        )
        return None
    edit = patch_edit(diff)
    if edit.id in hypothesis.edit_ids or edit.id in ds.get("proposed", {}):
        note(ds, f"edit for {hypothesis.id}: the model proposed the same patch again, already run.")
        return None
    ds["proposed"] = {**ds.get("proposed", {}), edit.id: claim}
    return edit.id, [edit]


def root_cause(brain: InvestigatorBrain, ds: dict[str, Any], hypotheses: list[Hypothesis], facts: str) -> str | None:
    view = FactsView(
        name=ds["name"], expected=ds["expected"], facts=executed_facts(ds), hypotheses=hypotheses, fix=ds.get("fix")
    )
    return grounded(ds, "root cause", consult(ds, "root cause", lambda: brain.root_cause(view)), facts)


def report_facts(ds: dict[str, Any], hypotheses: list[Hypothesis]) -> str:
    """Everything execution produced for this dataset: comparison, evidence, the edits run, the diff."""
    tried = {part for h in hypotheses for change in h.edit_ids[: h.tested] for part in change.split(JOIN)}
    run = [e for e in ds.get("edits", []) if Edit(**e).id in tried]
    return facts_text(
        executed_facts(ds), [h.evidence for h in hypotheses], [(e["old"], e["new"]) for e in run], ds.get("fix") or ""
    )


def redact_statements(ds: dict[str, Any], hypotheses: list[Hypothesis], facts: str) -> list[Hypothesis]:
    """The model's hypothesis statements with numbers no execution produced replaced by ``[?]``."""
    out = []
    for h in hypotheses:
        if h.by_model:
            text, missing = redact(h.statement, facts)
            if missing:
                note(ds, f"{h.id}: the model's numbers {missing} are in no executed output; shown as [?].")
                h = h.model_copy(update={"statement": text})
        out.append(h)
    return out
