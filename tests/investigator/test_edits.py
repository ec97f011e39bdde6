"""Candidate AST edits: operators, integer constants and defaults, applied as one-segment changes."""

from __future__ import annotations

import numpy as np

from bunseki.investigation.diagnostics import best_lag, runs
from bunseki.investigation.edits import apply, candidate_edits, unified_diff

SOURCE = """def f(x, level=0.5, n=3):
    # keep this comment
    return [v > level for v in x[: n + 1]]
"""


def test_edits_cover_operators_constants_and_defaults() -> None:
    edits = {e.describe() for e in candidate_edits(SOURCE, float_values=(0.4, 0.5))}
    assert "line 3 (f): > → >=" in edits
    assert "line 1 (f(n=…)): 3 → 4" in edits
    assert "line 3 (f): 1 → 2" in edits
    assert "line 1 (f(level=…)): 0.5 → 0.4" in edits
    assert not any("0.5 → 0.5" in e or "0.5 → 1.5" in e for e in edits)  # floats take the given values only


def test_apply_keeps_layout_and_diff_is_small() -> None:
    edit = next(e for e in candidate_edits(SOURCE) if e.kind == "operator")
    edited = apply(SOURCE, edit)
    assert "# keep this comment" in edited and "v >= level" in edited
    diff = unified_diff(SOURCE, edited, "f.py")
    assert diff.count("\n-") == 1 and "+    return [v >= level" in diff


def test_lag_and_runs() -> None:
    reference = np.zeros(50, dtype=int)
    reference[10:20] = 1
    assert best_lag(np.roll(reference, 3), reference) == 3
    assert best_lag(reference, reference) == 0
    assert runs([1, 2, 3, 7, 8]) == [(1, 3), (7, 8)]


def test_diagnostics_name_thresholds_rounding_missing_values_and_edges() -> None:
    from bunseki.brain.investigator import DatasetView, OfflineInvestigatorBrain
    from bunseki.investigation.diagnostics import diagnose

    frames = np.arange(20)
    x = np.full(20, 0.1)
    x[0:3] = 0.8  # exactly at the constant, at the first frames
    x[10] = np.nan
    x[12] = 0.8 + 1e-9  # within rounding of it
    reference = np.zeros(20, dtype=int)
    reference[0:3] = 1
    reference[11:13] = 1
    output = np.zeros(20, dtype=int)
    d = diagnose(frames, output, reference, {"x": x}, [0.8, 3.0])
    assert d["mismatched_runs"] == [[0, 2], [11, 12]] and d["edge_mismatch"]
    assert d["at_threshold"][0]["value"] == 0.8 and d["at_threshold"][0]["frames"] == [0, 1, 2]
    assert d["close_to_threshold"][0]["frames"] == [12]
    assert d["missing_near_mismatch"] == {"x": 1}
    view = DatasetView(name="d", expected="", diagnostics=d, source_name="a.py", source=SOURCE, edits=[])
    statements = " ".join(h.statement for h in OfflineInvestigatorBrain().hypotheses(view))
    assert "Missing values" in statements and "rounding" in statements and "edges" in statements
