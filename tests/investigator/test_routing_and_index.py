"""Routing (pure) and the case's retrieval segments (rag block, vectors cached by content hash, no pickle)."""

from __future__ import annotations

from pathlib import Path

from bunseki.agents.investigator import routing
from bunseki.agents.investigator.state import MAX_ITERATIONS, InvestigatorState
from bunseki.brain.investigator.contract import Hypothesis
from bunseki.investigation.index import CaseIndex
from bunseki.rag import EmbeddingCache
from tests.investigator.embedder import TrigramEmbedder


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


def _documents(folder: Path) -> dict[str, list[Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "spec.md"
    spec.write_text(
        "# Detector\n\nThe on-threshold is 0.8 and the window is three frames.\n\n"
        "## 出力\n\n`z` はイベント検出中に1となるフラグ。\n",
        encoding="utf-8",
    )
    code = folder / "algo.py"
    code.write_text("def detect(frame, level=0.8):\n    return frame['x'] >= level\n", encoding="utf-8")
    env = folder / "eval_spec.md"
    env.write_text(
        "# Evaluation\n\n## Columns\n\n- `frame`: the frame number.\n- `x`: the sensor level between 0 and 1.\n",
        encoding="utf-8",
    )
    return {"algorithm": [spec, code], "environment": [env]}


def test_segments_by_kind_and_vectors_cached_by_content_hash(tmp_path: Path) -> None:
    files = _documents(tmp_path / "case")
    embedder = TrigramEmbedder()
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    first = CaseIndex.build(files, embedder=embedder, cache=cache)
    try:
        assert first.segments == ["algorithm", "environment"] and first.chunks >= 3 and not first.cached
        hits = first.search("on-threshold window", ["algorithm"])
        assert hits and {h.segment for h in hits} == {"algorithm"} and "0.8" in hits[0].text
        assert {h.segment for h in first.search("sensor level", ["environment"])} == {"environment"}
    finally:
        first.close()
    embedded = embedder.embedded
    again = CaseIndex.build(files, embedder=embedder, cache=cache)
    again.close()
    assert again.cached and again.key == first.key and embedder.embedded == embedded  # nothing re-embedded
    files["algorithm"][0].write_text("# Detector\n\nchanged\n", encoding="utf-8")
    changed = CaseIndex.build(files, embedder=embedder, cache=cache)
    changed.close()
    assert changed.key != first.key and not changed.cached
    assert not list(tmp_path.rglob("*.pkl")) and not list(tmp_path.rglob("*.pickle"))


def test_column_meanings_come_from_the_environment_first(tmp_path: Path) -> None:
    index = CaseIndex.build(
        _documents(tmp_path / "case"), embedder=TrigramEmbedder(), cache=EmbeddingCache(tmp_path / "c.sqlite")
    )
    try:
        frame, x, z, other = index.column_meanings(["frame", "x", "z", "unknown_col"])
    finally:
        index.close()
    assert frame.segment == "environment" and frame.meaning and "frame number" in frame.meaning
    assert x.meaning and "sensor level" in x.meaning and x.source == "eval_spec.md"
    assert z.segment == "algorithm" and z.meaning and "フラグ" in z.meaning  # not in the environment: the spec
    assert other.meaning is None and other.source is None


def test_an_empty_segment_is_left_out_and_an_unreadable_document_named(tmp_path: Path) -> None:
    files = _documents(tmp_path / "case")
    files["environment"] = []
    binary = tmp_path / "case" / "notes.txt"
    binary.write_bytes(b"\xff\xfe\x00\x00" * 10)
    files["algorithm"].append(binary)
    index = CaseIndex.build(files, embedder=TrigramEmbedder(), cache=EmbeddingCache(tmp_path / "c.sqlite"))
    try:
        assert index.segments == ["algorithm"] and index.search("x", ["environment"]) == []
        assert len(index.problems) == 1 and "notes.txt" in index.problems[0]
    finally:
        index.close()
