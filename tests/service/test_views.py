"""`AnalysisService` and `Accounts` hand out their own views, never store records, with the records' values."""

from __future__ import annotations

from pydantic import BaseModel

from bunseki.samples import SALES_CSV
from bunseki.service import (
    AnalysisService,
    ArtifactView,
    MessageView,
    ReportView,
    SessionView,
    SnapshotView,
    StepView,
    TurnView,
    UserView,
)


def _is_view(value: object, view: type[BaseModel]) -> bool:
    """Exactly the view: not a store record, nor anything made from one."""
    return type(value) is view


def test_every_method_returns_views_holding_what_the_store_recorded(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV, title="売上")
    assert _is_view(session, SessionView)
    assert session.model_dump() == service.store.get_session(session.id).model_dump()
    for found in (
        service.get_session(session.id),
        service.find_session(session.id[:8]),
        *service.list_sessions(),
        service.set_model(session.id, "offline"),
    ):
        assert _is_view(found, SessionView) and found.id == session.id

    service.run_turn(session.id, "地域別の売上合計をグラフにして")
    service.run_turn(session.id, "地域は関東だけにして")
    messages = service.messages(session.id)
    assert messages and all(_is_view(message, MessageView) for message in messages)
    assert [m.model_dump() for m in messages] == [m.model_dump() for m in service.store.list_messages(session.id)]
    steps = service.steps(session.id)
    assert steps and all(_is_view(step, StepView) for step in steps)
    assert [s.model_dump() for s in steps] == [s.model_dump() for s in service.store.list_steps(session.id)]
    assert all(_is_view(step, StepView) for step in service.turn_steps(session.id, str(steps[0].turn_id)))
    reports = service.reports(session.id)
    assert reports and all(_is_view(report, ReportView) for report in reports)
    assert [r.model_dump() for r in reports] == [r.model_dump() for r in service.store.list_reports(session.id)]
    artifacts = service.artifacts(session.id)
    assert artifacts and all(_is_view(artifact, ArtifactView) for artifact in artifacts)

    exchanges = service.conversation(session.id)
    assert all(_is_view(exchange.turn, TurnView) for exchange in exchanges)
    assert [exchange.turn.number for exchange in exchanges if exchange.turn] == [1, 2]
    assert _is_view(exchanges[0].report, ReportView)
    assert all(_is_view(step, StepView) for exchange in exchanges for step in exchange.steps)

    saved = service.snapshot(session.id, "関東")
    assert _is_view(saved, SnapshotView)
    assert _is_view(service.find_snapshot(session.id, "関東"), SnapshotView)
    assert all(_is_view(snapshot, SnapshotView) for snapshot in service.snapshots(session.id))
    assert _is_view(service.reset(session.id), StepView)
    assert _is_view(service.restore(session.id, saved.id), StepView)
    assert _is_view(service.delete_snapshot(session.id, saved.id), SnapshotView)


def test_accounts_hand_out_user_views(service: AnalysisService) -> None:
    user, key = service.accounts.create("alice")
    assert _is_view(user, UserView) and user.name == "alice" and user.revoked_at is None
    assert [(u.id, u.name) for u in service.accounts.list()] == [(user.id, "alice")]
    assert all(_is_view(u, UserView) for u in service.accounts.list())
    authenticated = service.accounts.authenticate(key)
    assert _is_view(authenticated, UserView) and authenticated == user
    assert service.accounts.authenticate("not-a-key") is None
