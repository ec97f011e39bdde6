"""What sessions produce: snapshots, artifacts, reports, and the questions left unanswered."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bunseki.domain import Session
from bunseki.errors import NotFound
from bunseki.store import Store

REPORT = {
    "title": "地域別の月次売上",
    "sections": [{"heading": "結論", "body": "関東が全体の42%を占める。"}, {"heading": "図", "images": ["a.png"]}],
    "metrics": {"合計": 123456789, "成長率": 0.073},
}


def test_snapshots_are_kept_and_listed_in_order(store: Store, session: Session) -> None:
    first = store.add_snapshot(
        session_id=session.id, name="読み込み直後", path="snapshots/0.parquet", rows=1200, columns=6, step_position=0
    )
    second = store.add_snapshot(
        session_id=session.id, name="東京のみ", path="snapshots/3.parquet", rows=310, columns=6, step_position=3
    )
    assert (second.name, second.path, second.rows, second.columns, second.step_position) == (
        "東京のみ",
        "snapshots/3.parquet",
        310,
        6,
        3,
    )
    assert store.list_snapshots(session.id) == [first, second]
    assert store.get_snapshot(session.id, second.id) == second


def test_a_snapshot_belongs_to_its_session(store: Store, make_session: Callable[..., Session]) -> None:
    mine, other = make_session(), make_session()
    snapshot = store.add_snapshot(
        session_id=mine.id, name="s", path="snapshots/1.parquet", rows=1, columns=1, step_position=1
    )
    with pytest.raises(NotFound):
        store.get_snapshot(other.id, snapshot.id)
    with pytest.raises(NotFound):
        store.delete_snapshot(other.id, snapshot.id)
    with pytest.raises(NotFound):
        store.add_snapshot(session_id="0" * 32, name="s", path="p", rows=1, columns=1, step_position=1)
    assert store.list_snapshots(mine.id) == [snapshot]


def test_delete_snapshot(store: Store, session: Session) -> None:
    kept = store.add_snapshot(
        session_id=session.id, name="a", path="snapshots/1.parquet", rows=1, columns=1, step_position=1
    )
    gone = store.add_snapshot(
        session_id=session.id, name="b", path="snapshots/2.parquet", rows=1, columns=1, step_position=2
    )
    assert store.delete_snapshot(session.id, gone.id) == gone
    assert store.list_snapshots(session.id) == [kept]
    with pytest.raises(NotFound):
        store.get_snapshot(session.id, gone.id)
    with pytest.raises(NotFound):
        store.delete_snapshot(session.id, gone.id)


def test_artifacts_are_listed_in_order(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="グラフにして", owner="a")
    chart = store.add_artifact(session_id=session.id, path="artifacts/月別売上.png", kind="image", turn_id=turn.id)
    table = store.add_artifact(session_id=session.id, path="artifacts/集計.csv", kind="table")
    assert (chart.path, chart.kind, chart.turn_id) == ("artifacts/月別売上.png", "image", turn.id)
    assert (table.kind, table.turn_id) == ("table", None)
    assert store.list_artifacts(session.id) == [chart, table]


def test_artifacts_need_a_known_session_and_one_of_its_turns(
    store: Store, make_session: Callable[..., Session]
) -> None:
    mine, other = make_session(), make_session()
    foreign = store.start_turn(session_id=other.id, question="質問", owner="a")
    with pytest.raises(NotFound):
        store.add_artifact(session_id="0" * 32, path="a.png", kind="image")
    with pytest.raises(NotFound):
        store.add_artifact(session_id=mine.id, path="a.png", kind="image", turn_id=foreign.id)
    assert store.list_artifacts(mine.id) == []


def test_reports_keep_their_content_and_paths(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="報告書にまとめて", owner="a")
    report = store.add_report(
        session_id=session.id,
        title="地域別の月次売上",
        conclusion="関東が全体の42%を占める。",
        content=REPORT,
        markdown_path="reports/1/report.md",
        html_path="reports/1/report.html",
        notebook_path="reports/1/report.ipynb",
        turn_id=turn.id,
    )
    (fetched,) = store.list_reports(session.id)
    assert fetched == report
    assert fetched.content == REPORT
    assert (fetched.markdown_path, fetched.html_path, fetched.notebook_path) == (
        "reports/1/report.md",
        "reports/1/report.html",
        "reports/1/report.ipynb",
    )


def test_latest_report(store: Store, session: Session) -> None:
    assert store.latest_report(session.id) is None
    first = store.add_report(session_id=session.id, title="初版", conclusion="結論1", content={})
    second = store.add_report(session_id=session.id, title="改訂版", conclusion="結論2", content={"版": 2})
    assert (second.markdown_path, second.html_path, second.notebook_path, second.turn_id) == (None, None, None, None)
    assert store.latest_report(session.id) == second
    assert store.list_reports(session.id) == [first, second]
    with pytest.raises(NotFound):
        store.add_report(session_id="0" * 32, title="t", conclusion="c", content={})


def test_unanswered_questions_by_source(store: Store, session: Session) -> None:
    analyst = store.add_unanswered(
        session_id=session.id, question="来年の売上は？", reason="予測は分析の範囲外", source="analyst"
    )
    knowledge = store.add_unanswered(
        question="消費税率は？", reason="資料に記載がない", source="knowledge", collections=["manuals", "faq"]
    )
    assert (analyst.session_id, analyst.question, analyst.reason) == (
        session.id,
        "来年の売上は？",
        "予測は分析の範囲外",
    )
    assert knowledge.session_id is None
    assert (analyst.collections, knowledge.collections) == ([], ["manuals", "faq"])
    assert store.list_unanswered() == [analyst, knowledge]
    assert store.list_unanswered(source="knowledge") == [knowledge]
    assert store.list_unanswered(source="other") == []
    with pytest.raises(NotFound):
        store.add_unanswered(session_id="0" * 32, question="q", reason="r", source="analyst")
