"""Routing (pure) and the keyword index's content-hash cache (JSON, never pickle)."""

from __future__ import annotations

from pathlib import Path

from bunseki.agents.investigator import routing
from bunseki.agents.investigator.state import MAX_ITERATIONS, InvestigatorState
from bunseki.brain.investigator import Hypothesis
from bunseki.investigation.index import KeywordIndex


def _state(**changes: object) -> InvestigatorState:
    hypothesis = Hypothesis(id="H1", kind="unexpected", statement="s", test="t", edit_ids=[f"e{i}" for i in range(100)])
    return InvestigatorState(hypotheses=[hypothesis], iteration=1).model_copy(update=changes)


def test_verifier_continues_a_hypothesis_with_edits_left() -> None:
    state = _state()
    state.hypotheses[0].tested = 60
    assert routing.after_verifier(state) == "verifier"
    state.hypotheses[0].tested = 100
    assert routing.after_verifier(state) == "reporter"


def test_verifier_stops_on_success_or_at_the_cap() -> None:
    assert routing.after_verifier(_state(success=True)) == "reporter"
    assert routing.after_verifier(_state(iteration=MAX_ITERATIONS)) == "reporter"


def test_consistent_datasets_are_not_investigated() -> None:
    assert routing.after_consistency(InvestigatorState(current_ds={"status": "consistent"})) == "reporter"
    assert routing.after_consistency(InvestigatorState(current_ds={"status": "inconsistent"})) == "hypothesis_generator"
    assert routing.after_next(InvestigatorState()) == "summarizer"


def test_index_is_cached_by_content_hash(tmp_path: Path) -> None:
    spec = tmp_path / "spec.md"
    spec.write_text("# Detector\n\nThe on-threshold is 0.8.\n\nThe window is three frames.\n", encoding="utf-8")
    files = {"specs": [spec]}
    index, key, cached = KeywordIndex.build(files, tmp_path / "cache")
    assert not cached and "0.8" in index.search("threshold")[0].text
    again, same, cached = KeywordIndex.build(files, tmp_path / "cache")
    assert cached and same == key and len(again.passages) == len(index.passages)
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".json"]
    spec.write_text("changed", encoding="utf-8")
    assert KeywordIndex.build(files, tmp_path / "cache")[1] != key
