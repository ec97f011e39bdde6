"""`AnalysisService` and `Accounts` hand out the domain models, exactly, with the values the store recorded."""

from __future__ import annotations

from pydantic import BaseModel

from bunseki.domain import Artifact, Message, Report, Session, Snapshot, Step, Turn, User
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService


def _is_exactly(value: object, view: type[BaseModel]) -> bool:
    """Exactly the domain model: not a subclass, nor anything made from one."""
    return type(value) is view


def test_every_method_returns_domain_models_holding_what_the_store_recorded(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV, title="売上")
    assert _is_exactly(session, Session)
    assert session.model_dump() == service.store.get_session(session.id).model_dump()
    for found in (
        service.get_session(session.id),
        service.find_session(session.id[:8]),
        *service.list_sessions(),
        service.set_model(session.id, "offline"),
    ):
        assert _is_exactly(found, Session) and found.id == session.id

    service.run_turn(session.id, "地域別の売上合計をグラフにして")
    service.run_turn(session.id, "地域は関東だけにして")
    messages = service.messages(session.id)
    assert messages and all(_is_exactly(message, Message) for message in messages)
    assert [m.model_dump() for m in messages] == [m.model_dump() for m in service.store.list_messages(session.id)]
    steps = service.steps(session.id)
    assert steps and all(_is_exactly(step, Step) for step in steps)
    assert [s.model_dump() for s in steps] == [s.model_dump() for s in service.store.list_steps(session.id)]
    assert all(_is_exactly(step, Step) for step in service.turn_steps(session.id, str(steps[0].turn_id)))
    reports = service.reports(session.id)
    assert reports and all(_is_exactly(report, Report) for report in reports)
    assert [r.model_dump() for r in reports] == [r.model_dump() for r in service.store.list_reports(session.id)]
    artifacts = service.artifacts(session.id)
    assert artifacts and all(_is_exactly(artifact, Artifact) for artifact in artifacts)

    exchanges = service.conversation(session.id)
    assert all(_is_exactly(exchange.turn, Turn) for exchange in exchanges)
    assert [exchange.turn.number for exchange in exchanges if exchange.turn] == [1, 2]
    assert _is_exactly(exchanges[0].report, Report)
    assert all(_is_exactly(step, Step) for exchange in exchanges for step in exchange.steps)

    saved = service.snapshot(session.id, "関東")
    assert _is_exactly(saved, Snapshot)
    assert _is_exactly(service.find_snapshot(session.id, "関東"), Snapshot)
    assert all(_is_exactly(snapshot, Snapshot) for snapshot in service.snapshots(session.id))
    assert _is_exactly(service.reset(session.id), Step)
    assert _is_exactly(service.restore(session.id, saved.id), Step)
    assert _is_exactly(service.delete_snapshot(session.id, saved.id), Snapshot)


def test_accounts_hand_out_users(service: AnalysisService) -> None:
    user, key = service.accounts.create("alice")
    assert _is_exactly(user, User) and user.name == "alice" and user.revoked_at is None
    assert [(u.id, u.name) for u in service.accounts.list()] == [(user.id, "alice")]
    assert all(_is_exactly(u, User) for u in service.accounts.list())
    authenticated = service.accounts.authenticate(key)
    assert _is_exactly(authenticated, User) and authenticated == user
    assert service.accounts.authenticate("not-a-key") is None
