"""`AnalysisService`: conversations that follow the data state, survive restarts, and never overlap."""

from __future__ import annotations

import io
import threading
import uuid
from pathlib import Path

import pandas as pd
import pytest
from langchain_core.messages import AIMessage, HumanMessage

from bunseki.brain.analyst.contract import AnalystView, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.errors import (
    ConfigurationError,
    Conflict,
    DataLoadError,
    InputError,
    NotFound,
    QuestionTooLong,
    SessionBusy,
    SnapshotNameTaken,
)
from bunseki.owners import process_owner
from bunseki.samples import SALES_CSV
from bunseki.sandbox.workspace import host_writes
from bunseki.service import AnalysisService, OpenFile
from bunseki.service.history import count_tokens
from bunseki.settings import Settings
from bunseki.store import models as store_models
from tests.conftest import ServiceFactory
from tests.fakes.backends import LosingBackend
from tests.fakes.brains import GatedBrain


def overview(service: AnalysisService, session_id: str) -> dict[str, object]:
    """The data overview without its memory figure, which a Parquet round trip changes slightly."""
    return {k: v for k, v in service.data_state(session_id).items() if k != "memory_bytes"}


def kanto(sales: pd.DataFrame) -> pd.DataFrame:
    return sales[sales["地域"] == "関東"]


def read(file: OpenFile) -> bytes:
    with file:
        return file.read()


def test_a_conversation_follows_the_data_state(service: AnalysisService, sales: pd.DataFrame) -> None:
    session = service.create_session(SALES_CSV, title="売上の分析")
    by_region = sales.groupby("地域")["売上金額"].sum()

    first = service.run_turn(session.id, "地域別の売上合計は？")
    assert first.status == "finalized"
    assert f"{by_region.max():,}" in (first.answer or "")

    narrowed = service.run_turn(session.id, "その中で関東だけにして")
    assert narrowed.status == "finalized"
    assert [record.tool for record in narrowed.executions] == ["filter_data"]
    assert service.data_state(session.id)["rows"] == len(kanto(sales))
    assert "関東" in (narrowed.data_state or "")

    charted = service.run_turn(session.id, "前の結果をグラフにして")
    assert charted.status == "finalized"
    assert f"{kanto(sales)['売上金額'].sum():,}" in (charted.answer or "")  # computed on the narrowed data
    assert [path.suffix for path in charted.artifacts] == [".png"]
    assert all(path.is_file() for path in charted.artifacts)

    back = service.run_turn(session.id, "元のデータに戻して")
    assert back.status == "finalized"
    overview = service.data_state(session.id)
    assert (overview["rows"], overview["is_original"]) == (len(sales), True)

    steps = service.steps(session.id)
    assert [step.step_type for step in steps] == ["code", "filter_data", "code", "reset"]
    assert [step.position for step in steps] == [1, 2, 3, 4]
    assert (steps[1].rows_before, steps[1].rows_after) == (len(sales), len(kanto(sales)))
    assert steps[1].parameters == {"column": "地域", "operator": "eq", "value": "関東"}
    assert (steps[3].rows_before, steps[3].rows_after) == (len(kanto(sales)), len(sales))
    messages = service.messages(session.id)
    assert [m.role for m in messages] == ["user", "assistant"] * 4
    assert messages[2].content == "その中で関東だけにして"
    assert [turn.status for turn in service.store.list_turns(session.id)] == ["finalized"] * 4
    assert [Path(r.markdown_path or "").name for r in service.reports(session.id)] == [
        f"report_{n:03d}.md" for n in (1, 2, 3, 4)
    ]


def test_the_data_state_survives_a_restart(open_service: ServiceFactory, sales: pd.DataFrame) -> None:
    first = open_service()
    session = first.create_session(SALES_CSV)
    first.run_turn(session.id, "地域は関東だけにして")
    first.run_turn(session.id, "売上金額の高い順に並べて")
    before = overview(first, session.id)
    exported = pd.read_csv(io.BytesIO(read(first.open_data(session.id, "csv"))), encoding="utf-8-sig")
    first.close()

    again = open_service()
    assert overview(again, session.id) == before
    workspace = Path(session.workspace)
    with host_writes(workspace / "snapshots"):
        (workspace / "snapshots" / "current.json").unlink()  # the saved copy is gone: replay the steps
    replayed = open_service()
    assert overview(replayed, session.id) == before
    replayed_csv = read(replayed.open_data(session.id, "csv"))
    assert pd.read_csv(io.BytesIO(replayed_csv), encoding="utf-8-sig").equals(exported)
    expected = kanto(sales).sort_values("売上金額", ascending=False)["売上金額"].tolist()
    assert exported["売上金額"].tolist() == expected

    answer = replayed.run_turn(session.id, "売上金額の合計は？")
    assert f"{kanto(sales)['売上金額'].sum():,}" in (answer.answer or "")


def test_snapshots_restore_and_delete(service: AnalysisService, sales: pd.DataFrame) -> None:
    session = service.create_session(SALES_CSV)
    service.run_turn(session.id, "地域は関東だけにして")
    saved = service.snapshot(session.id, "関東のみ")
    assert (saved.rows, saved.columns) == (len(kanto(sales)), len(sales.columns))
    assert (Path(session.workspace) / saved.path).is_file()

    service.reset(session.id)
    assert service.data_state(session.id)["rows"] == len(sales)
    assert service.find_snapshot(session.id, "関東のみ").id == saved.id
    assert service.find_snapshot(session.id, saved.id[:6]).id == saved.id

    step = service.restore(session.id, saved.id)
    assert (step.step_type, step.rows_before, step.rows_after) == ("restore", len(sales), len(kanto(sales)))
    overview = service.data_state(session.id)
    assert overview["rows"] == len(kanto(sales))
    assert "関東のみ" in overview["state"]

    service.delete_snapshot(session.id, saved.id)  # the current data comes from it: the file stays for replay
    assert service.snapshots(session.id) == []
    assert (Path(session.workspace) / saved.path).is_file()
    other = service.snapshot(session.id, "もう一つ")
    service.delete_snapshot(session.id, other.id)
    assert not (Path(session.workspace) / other.path).exists()
    with pytest.raises(NotFound, match="no snapshot"):
        service.find_snapshot(session.id, "関東のみ")
    assert [s.step_type for s in service.steps(session.id)] == [
        "filter_data",
        "snapshot",
        "reset",
        "restore",
        "snapshot",
    ]


def test_reports_and_data_export(service: AnalysisService, sales: pd.DataFrame) -> None:
    session = service.create_session(SALES_CSV)
    with pytest.raises(NotFound, match="no report"):
        service.open_report(session.id, "md")
    service.run_turn(session.id, "地域は関東だけにして")
    service.run_turn(session.id, "商品カテゴリ別の売上金額の合計は？")
    markdown = read(service.open_report(session.id, "md")).decode("utf-8")
    with service.open_report(session.id, "html") as html:
        assert "report_002" in html.name
    with service.open_report(session.id, "ipynb") as notebook:
        assert notebook.name.endswith(".ipynb")
        assert "run_tool('filter_data'" in notebook.read().decode("utf-8")
    by_category = kanto(sales).groupby("商品カテゴリ")["売上金額"].sum()
    assert f"{by_category.max():,}" in markdown
    with service.open_data(session.id, "parquet") as data:
        assert data.name == "sales_cp932_current.parquet"
        frame = pd.read_parquet(io.BytesIO(data.read()))
    assert len(frame) == len(kanto(sales))
    assert set(frame["地域"]) == {"関東"}


def test_turns_of_one_session_never_overlap(open_service: ServiceFactory) -> None:
    brain = GatedBrain()
    service = open_service(brain=brain)
    session = service.create_session(SALES_CSV)
    outcome: list[str] = []
    first = threading.Thread(target=lambda: outcome.append(service.run_turn(session.id, "売上金額の合計は？").status))
    first.start()
    assert brain.entered.wait(30)
    with pytest.raises(SessionBusy):
        service.run_turn(session.id, "数量の合計は？")
    other = open_service()  # another process on the same database sees the running turn's live owner
    with pytest.raises(SessionBusy, match="another process"):
        other.run_turn(session.id, "数量の合計は？")
    brain.release.set()
    first.join(60)
    assert outcome == ["finalized"]
    assert [m.content for m in service.messages(session.id) if m.role == "user"] == ["売上金額の合計は？"]


def test_a_turn_left_running_by_a_dead_process_is_marked_interrupted(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV)
    host, pid, _ = process_owner().split(":")
    stale = service.store.start_turn(session_id=session.id, question="途中の質問", owner=f"{host}:{pid}:0")
    service.store.add_message(session_id=session.id, role="user", content="途中の質問", turn_id=stale.id)

    result = service.run_turn(session.id, "売上金額の合計は？")
    assert result.status == "finalized"
    turns = service.store.list_turns(session.id)
    assert [(t.question, t.status) for t in turns] == [
        ("途中の質問", "interrupted"),
        ("売上金額の合計は？", "finalized"),
    ]
    notice = service.messages(session.id)[1]
    assert (notice.role, notice.turn_id) == ("assistant", stale.id)
    assert "中断" in notice.content


def test_the_cell_a_dead_process_left_running_is_abandoned_once_its_turn_is_marked(
    service_settings: Settings,
) -> None:
    backend = LosingBackend(service_settings, lose=set())
    service = AnalysisService(service_settings, backend=backend)
    try:
        session, other = service.create_session(SALES_CSV), service.create_session(SALES_CSV)
        host, pid, _ = process_owner().split(":")
        dead = f"{host}:{pid}:0:service"  # this pid, another start time: a process that is gone
        service.store.start_turn(session_id=session.id, question="途中の質問", owner=dead)
        alive = service.store.start_turn(session_id=other.id, question="別の質問", owner=f"{process_owner()}:other")

        for _ in range(2):  # a turn is marked, and its cell abandoned, once
            service.messages(session.id)
            service.messages(other.id)

        assert backend.abandoned == [(session.id, dead)]
        assert service.store.running_turns(session.id) == []
        assert [turn.id for turn in service.store.running_turns(other.id)] == [alive.id]  # a live owner's stays
    finally:
        service.close()
        backend.close()


def test_history_is_trimmed_to_the_token_budget(open_service: ServiceFactory) -> None:
    seen: list[AnalystView] = []

    class Recording(OfflineAnalystBrain):
        def decide(self, view: AnalystView) -> ReasonOutput:
            seen.append(view)
            return super().decide(view)

    service = open_service(brain=Recording(), history_tokens=200)
    session = service.create_session(SALES_CSV)
    questions = [
        "地域別の売上金額の合計は？",
        "商品カテゴリ別の数量の合計は？",
        "店舗別の客数の平均は？",
        "売上金額の合計は？",
    ]
    for question in questions:
        service.run_turn(session.id, question)
    last = next(view for view in reversed(seen) if view.question == questions[-1])
    assert last.history, "the latest exchange is always kept"
    assert last.history[0].role == "user"
    assert last.history[-1].role == "assistant"
    assert last.history[-2].content == questions[-2]
    everything = [
        HumanMessage(m.content) if m.role == "user" else AIMessage(m.content) for m in service.messages(session.id)
    ]
    assert count_tokens(everything[:-2]) > 200, "the test needs a conversation longer than the budget"
    assert len(last.history) < 2 * (len(questions) - 1)  # older exchanges were left out
    kept = [HumanMessage(t.content) if t.role == "user" else AIMessage(t.content) for t in last.history]
    assert count_tokens(kept) <= 200


def test_sessions_belong_to_their_user(service: AnalysisService) -> None:
    alice, _ = service.store.create_user("alice")
    bob, _ = service.store.create_user("bob")
    session = service.create_session(SALES_CSV, user_id=alice.id)
    assert service.get_session(session.id, user_id=alice.id).id == session.id
    with pytest.raises(NotFound):
        service.get_session(session.id, user_id=bob.id)
    with pytest.raises(NotFound):
        service.run_turn(session.id, "売上金額の合計は？", user_id=bob.id)
    assert service.list_sessions(user_id=bob.id) == []
    assert [s.id for s in service.list_sessions(user_id=alice.id)] == [session.id]


def test_delete_session_removes_its_rows_and_workspace(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV)
    service.run_turn(session.id, "地域は関東だけにして")
    workspace = Path(session.workspace)
    assert workspace.is_dir()
    service.delete_session(session.id)
    assert not workspace.exists()
    with pytest.raises(NotFound):
        service.get_session(session.id)
    assert service.store.list_steps(session.id) == []


def test_bad_input_creates_nothing(service: AnalysisService, tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"this is not a spreadsheet")
    with pytest.raises(DataLoadError):
        service.create_session(broken)
    with pytest.raises(ConfigurationError):
        service.create_session(SALES_CSV, model="nosuchprovider:model")
    assert service.list_sessions() == []
    assert not any(service.settings.workspace_root.glob("2*"))


def test_sessions_are_found_by_a_unique_id_prefix(service: AnalysisService, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter([uuid.UUID("abcd1234" + "0" * 24), uuid.UUID("abcd5678" + "0" * 24)])
    monkeypatch.setattr(store_models.uuid, "uuid4", lambda: next(ids))
    first = service.create_session(SALES_CSV)
    second = service.create_session(SALES_CSV)
    assert service.find_session("abcd1").id == first.id
    assert service.find_session("ABCD5678").id == second.id
    assert service.find_session(first.id).id == first.id
    with pytest.raises(Conflict, match="2 session"):
        service.find_session("abcd")
    with pytest.raises(NotFound, match="at least 4"):
        service.find_session("abc")
    with pytest.raises(NotFound, match="sessions list"):
        service.find_session("ffffffff")


def test_control_characters_are_refused_alike_on_every_database(service: AnalysisService) -> None:
    with pytest.raises(InputError, match="control character"):
        service.create_session(SALES_CSV, title="売上\x00")
    session = service.create_session(SALES_CSV)
    with pytest.raises(InputError, match="control character"):
        service.run_turn(session.id, "売上の合計は？\x00")
    with pytest.raises(InputError, match="empty"):
        service.run_turn(session.id, "   ")
    with pytest.raises(InputError, match="control character"):
        service.snapshot(session.id, "\x00")
    assert service.messages(session.id) == [] and service.store.list_turns(session.id) == []
    assert service.run_turn(session.id, "売上金額の合計は？\n（税込）").status == "finalized"


def test_snapshot_names_are_unique_in_a_session(open_service: ServiceFactory) -> None:
    service, elsewhere = open_service(), open_service()  # two processes on one store
    session = service.create_session(SALES_CSV)
    first = service.snapshot(session.id, "関東のみ")
    for name in ("関東のみ", " 関東のみ "):  # the same name, however it was typed
        with pytest.raises(SnapshotNameTaken, match="関東のみ"):
            service.snapshot(session.id, name)
    with pytest.raises(SnapshotNameTaken):
        elsewhere.snapshot(session.id, "関東のみ")
    assert [s.id for s in service.snapshots(session.id)] == [first.id]
    assert [s.step_type for s in service.steps(session.id)] == ["snapshot"], "a refused one leaves no step"
    assert service.find_snapshot(session.id, "関東のみ").id == first.id
    other = service.create_session(SALES_CSV)
    assert service.snapshot(other.id, "関東のみ").name == "関東のみ"  # another session may use it
    service.delete_snapshot(session.id, first.id)
    assert service.snapshot(session.id, "関東のみ").name == "関東のみ"  # a deleted name is free again


def test_an_over_long_question_is_refused_before_any_work(open_service: ServiceFactory) -> None:
    service = open_service(max_question_chars=100)
    session = service.create_session(SALES_CSV)
    with pytest.raises(QuestionTooLong, match="BUNSEKI_MAX_QUESTION_CHARS"):
        service.run_turn(session.id, "売上 " * 60)
    assert service.messages(session.id) == [] and service.store.list_turns(session.id) == []
    assert service.run_turn(session.id, "売上金額の合計は？").status == "finalized"  # a short one is answered


def test_a_turn_of_this_service_left_running_does_not_block_the_session(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV)
    stale = service.store.start_turn(session_id=session.id, question="記録に失敗した質問", owner=service._me)
    assert service.run_turn(session.id, "売上金額の合計は？").status == "finalized"
    statuses = {turn.id: turn.status for turn in service.store.list_turns(session.id)}
    assert statuses[stale.id] == "error" and list(statuses.values()).count("finalized") == 1
