"""The offline investigator brain: hypotheses from the checks' diagnostics, with no model."""

from __future__ import annotations

from bunseki.brain.investigator.contract import (
    ColumnNote,
    ColumnsView,
    DatasetView,
    EditProposal,
    FactsView,
    Hypothesis,
)
from bunseki.brain.investigator.offline.findings import Findings


class OfflineInvestigatorBrain:
    """Hypotheses from generic diagnostics; no case-specific strings.

    Each finding (a value exactly at a threshold, a threshold or a written signal at another scale
    or offset, displaced runs, differences at the edges, missing values) becomes a hypothesis with
    the candidate edits that would test it; edits already given to an earlier hypothesis are not
    repeated. Last come pairs of edits, for a displacement no single edit explains.
    """

    @property
    def name(self) -> str:
        return "offline"

    def hypotheses(self, view: DatasetView) -> list[Hypothesis]:
        found = Findings(view)
        found.thresholds()
        found.rounding()  # before scales: a rounded comparison also looks like a shifted level
        found.scales()
        found.signals()
        edge_first = found.edges_only()
        if edge_first:
            found.edges()
        found.displacements()
        if not edge_first:
            found.edges()
        found.specified()
        found.add(
            "parameter",
            "A default parameter value (or keyword argument) differs from what the specification intends.",
            "Change each numeric default by a small step or to a documented value, re-run, compare.",
            [e for e in found.edits if e.kind == "default"],
        )
        found.structure()
        found.units()
        found.add(
            "unexpected",
            "Some other simple edit (operator, constant) explains the difference.",
            "Try every remaining candidate edit.",
            list(found.edits),
        )
        found.pairs()
        found.untestable()
        kept = [h for h in found.out if h.edit_ids or "No simple edit" in h.test]
        return [h.model_copy(update={"id": f"H{n}"}) for n, h in enumerate(kept, 1)]

    # The deterministic texts of the nodes stand; nothing to propose beyond the candidate edits.
    def column_meanings(self, view: ColumnsView) -> list[ColumnNote] | None:
        return None

    def narrate(self, view: FactsView) -> str | None:
        return None

    def propose_edit(self, view: DatasetView, hypothesis: Hypothesis) -> EditProposal | None:
        return None

    def root_cause(self, view: FactsView) -> str | None:
        return None
