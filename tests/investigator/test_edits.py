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
    from bunseki.brain.investigator.contract import DatasetView
    from bunseki.brain.investigator.offline import OfflineInvestigatorBrain
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


def test_factor_edits_scale_every_number_and_keep_integers_whole() -> None:
    source = "def f(x, level=0.5):\n    return x / 100 >= level\n"
    news = {(e.old, e.new) for e in candidate_edits(source, deltas=(), factors=(10.0, 0.1))}
    assert {("100", "1000"), ("100", "10"), ("0.5", "5.0"), ("0.5", "0.05")} <= news


def test_a_change_of_two_edits_applies_both_and_rejects_unknown_or_clashing_parts() -> None:
    from bunseki.investigation.edits import JOIN, apply_all, change_id, resolve

    source = "def f(x, i):\n    return x[max(0, i - 1) : i + 2]\n"
    by_id = {e.id: e for e in candidate_edits(source)}
    start = next(e for e in by_id.values() if e.old == "1" and e.new == "2")
    end = next(e for e in by_id.values() if e.old == "2" and e.new == "1")
    both = resolve(change_id([start, end]), by_id)
    assert both is not None and "x[max(0, i - 2) : i + 1]" in apply_all(source, both)
    assert resolve(start.id + JOIN + "constant@9:9:7->8", by_id) is None
    other = next(e for e in by_id.values() if (e.line, e.col) == (start.line, start.col) and e is not start)
    assert resolve(change_id([start, other]), by_id) is None  # two edits of one number


def test_threshold_shift_suggests_round_scale_factors() -> None:
    from bunseki.investigation.diagnostics import threshold_shift

    x = np.array([20.0, 80.0, 300.0, 700.0] * 5)
    shift = threshold_shift(x, (x >= 50).astype(int), (x >= 500).astype(int))
    assert shift is not None and shift["direction"] == "above" and shift["factors"][0] == 10.0
    assert shift["output_level"] == [20.0, 80.0] and shift["reference_level"] == [300.0, 700.0]
    windowed = np.array([0, 1, 1, 0, 0, 1, 0, 0, 0, 0] * 2)  # not a threshold of x: nothing to say
    assert threshold_shift(x, windowed, (x >= 500).astype(int)) is None


def test_signal_shift_finds_lag_scale_and_offset_by_regression() -> None:
    from bunseki.investigation.diagnostics import signal_shift

    reference = np.sin(np.arange(60) / 4.0) * 5 + 20
    assert signal_shift(reference.copy(), reference) is None  # nothing to explain
    offset = signal_shift(reference + 3, reference)
    assert offset == {"lag": 0, "scale": 1.0, "offset": 3.0, "exact": True}
    scaled = signal_shift(reference * 1000, reference)
    assert scaled is not None and scaled["scale"] == 1000.0 and scaled["offset"] == 0 and scaled["exact"]
    late = signal_shift(np.concatenate([[np.nan, np.nan], reference[:-2]]), reference)
    assert late is not None and late["lag"] == 2 and late["exact"]
    noisy = signal_shift(reference + np.random.default_rng(1).normal(0, 1, 60), reference)
    assert noisy is not None and not noisy["exact"]  # no single constant explains noise


def test_integer_casts_and_rounding_calls_are_edits_that_keep_precision() -> None:
    source = (
        "import numpy as np\n"
        "def f(frame, level=0.5):\n"
        '    x = frame["x"].to_numpy(dtype=np.int64)\n'
        "    return int(x[0]) + round(x[1]) + np.floor(x) + x.astype(int) + np.round(x, 1)\n"
    )
    edited = {apply(source, e).splitlines()[e.line - 1].strip() for e in candidate_edits(source) if e.kind == "dtype"}
    assert edited == {
        'x = frame["x"].to_numpy(dtype=np.float64)',
        "return float(x[0]) + round(x[1]) + np.floor(x) + x.astype(int) + np.round(x, 1)",
        "return int(x[0]) + float(x[1]) + np.floor(x) + x.astype(int) + np.round(x, 1)",
        "return int(x[0]) + round(x[1]) + np.asarray(x) + x.astype(int) + np.round(x, 1)",
        "return int(x[0]) + round(x[1]) + np.floor(x) + x.astype(float) + np.round(x, 1)",
    }  # np.round(x, 1) keeps its call: its decimals are a constant edit


def test_rounding_is_told_apart_from_a_shifted_level() -> None:
    from bunseki.investigation.diagnostics import rounding_explains, threshold_shift

    x = np.array([0.1, 0.44, 0.46, 0.48, 0.9, 0.1])
    reference = (x >= 0.5).astype(int)
    rounded = (np.round(x, 1) >= 0.5).astype(int)
    shift = threshold_shift(x, rounded, reference)
    assert shift is not None
    (found,) = rounding_explains(shift, [0.5, 1.0])
    assert found == {"constant": 0.5, "transform": "rounded to 1 decimal(s)", "decimals": 1, "level": 0.45}
    moved = threshold_shift(x, (x >= 0.3).astype(int), reference)  # a level that is simply elsewhere
    assert moved is not None and rounding_explains(moved, [0.5, 0.3]) == []
