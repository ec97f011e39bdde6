"""The investigator's brain: its contract, and the offline (deterministic) brain.

The brain reads what the checks found (`DatasetView`) and proposes hypotheses, each with the
candidate AST edits that would test it. The verifier (not the brain) decides by execution.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from bunseki.investigation.edits import Edit

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


class InvestigatorBrain(Protocol):
    def hypotheses(self, view: DatasetView) -> list[Hypothesis]: ...


class OfflineInvestigatorBrain:
    """Hypotheses from generic diagnostics; no case-specific strings."""

    def hypotheses(self, view: DatasetView) -> list[Hypothesis]:
        d = view.diagnostics
        edits = [Edit(**e) for e in view.edits]
        out: list[Hypothesis] = []

        def add(kind: HypothesisKind, statement: str, test: str, chosen: list[Edit]) -> None:
            ids = [e.id for e in chosen if not any(e.id in h.edit_ids for h in out)]
            out.append(Hypothesis(id=f"H{len(out) + 1}", kind=kind, statement=statement, test=test, edit_ids=ids))

        operators = [e for e in edits if e.kind == "operator"]
        for hit in d.get("at_threshold", []):
            add(
                "inconsistency",
                f"Values of {hit['column']} exactly at {hit['value']:g} (frames {_short(hit['frames'])}) are "
                "classified differently from the reference: a comparison at the threshold uses the wrong operator.",
                "Flip each comparison operator (> ↔ >=, < ↔ <=), re-run, compare with the reference.",
                operators,
            )
        shifts = sorted({abs(s) for s in (*d.get("start_shifts", []), *d.get("end_shifts", [])) if s})
        lag = int(d.get("lag", 0))
        sizes = sorted({*shifts, *([abs(lag)] if lag else [])})
        for size in sizes[:3]:
            chosen = [e for e in edits if e.kind != "operator" and _delta(e) in (size, -size)]
            where = f"starts {d.get('start_shifts')}, ends {d.get('end_shifts')}, best lag {lag}"
            add(
                "inconsistency",
                f"Runs of the flag are displaced by {size} frame(s) against the reference ({where}): "
                "a window length, alignment or run-length constant is off by that much.",
                f"Change each integer constant and default by ±{size}, re-run, compare with the reference.",
                chosen,
            )
        defaults = [e for e in edits if e.kind == "default"]
        add(
            "parameter",
            "A default parameter value (or keyword argument) differs from what the specification intends.",
            "Change each numeric default by a small step, re-run, compare with the reference.",
            defaults,
        )
        add(
            "unexpected",
            "Some other simple edit (operator, constant) explains the difference.",
            "Try every remaining candidate edit.",
            edits,
        )
        if d.get("missing_near_mismatch"):
            add(
                "unexpected",
                f"Missing values near the mismatches ({d['missing_near_mismatch']}) are handled differently.",
                "No simple edit tests this; inspect how the algorithm treats NaN.",
                [],
            )
        if d.get("edge_mismatch"):
            add(
                "unexpected",
                "The first or last frames differ: start-up or padding at the edges is handled differently.",
                "No simple edit beyond the constants above tests this; compare how the edges are filled.",
                [],
            )
        if d.get("close_to_threshold"):
            add(
                "unexpected",
                "Values within rounding of a threshold may be compared after rounding in the reference.",
                "No simple edit tests this; compare with rounded inputs.",
                [],
            )
        return [h for h in out if h.edit_ids or "No simple edit" in h.test]


def _delta(edit: Edit) -> float:
    try:
        return float(edit.new) - float(edit.old)
    except ValueError:
        return 0.0


def _short(frames: list[int]) -> str:
    return ", ".join(str(f) for f in frames[:8]) + ("…" if len(frames) > 8 else "")
