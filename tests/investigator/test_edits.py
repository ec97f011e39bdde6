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
