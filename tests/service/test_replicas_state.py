"""Two services over one store, as two API replicas are: what one keeps open follows what the other committed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pandas as pd

from bunseki.brain.analyst.contract import AnalystBrain, AnalystView, CodeGenOutput, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.domain import Turn
from bunseki.owners import process_owner
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.replicas import Mark, behind, longest_turn_s, may_still_run, stale_after_s
from bunseki.settings import Settings
from tests.conftest import ServiceFactory

CELL = "セル:"  # a message that starts so runs the rest as one cell


class CellBrain(OfflineAnalystBrain):
    """The offline brain, except that a message starting with `CELL` runs the rest of it as a cell."""

    def decide(self, view: AnalystView) -> ReasonOutput:
        if not view.question.startswith(CELL):
            return super().decide(view)
        if view.executions:
            return ReasonOutput(next_action="finalize", rationale="ran it")
        return ReasonOutput(next_action="act", instruction="run the cell", rationale="test")

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        if view.question.startswith(CELL):
            return CodeGenOutput(code=view.question.removeprefix(CELL))
        return super().write_code(view)


def total(frame: pd.DataFrame) -> str:
    return f"{frame['売上金額'].sum():,}"


def test_a_replica_continues_from_what_the_other_committed(open_service: ServiceFactory, sales: pd.DataFrame) -> None:
    a, b = open_service(), open_service()
    kanto = sales[sales["地域"] == "関東"]
    session = a.create_session(SALES_CSV)

    assert a.run_turn(session.id, "地域は関東だけにして").status == "finalized"
    follow_up = b.run_turn(session.id, "売上金額の合計は？")  # B opens the session after A's filter
    assert total(kanto) in (follow_up.answer or "")
    assert b.data_state(session.id)["rows"] == len(kanto)

    b.reset(session.id)  # A's runtime still holds the filtered data: it must not answer from it
    assert a.data_state(session.id)["rows"] == len(sales)
    assert total(sales) in (a.run_turn(session.id, "売上金額の合計は？").answer or "")

    assert a.run_turn(session.id, "地域は関東だけにして").status == "finalized"
    saved = b.snapshot(session.id, "関東")  # B's open runtime is behind: the snapshot is of A's data
    assert (saved.rows, [s.name for s in a.snapshots(session.id)]) == (len(kanto), ["関東"])
    b.restore(session.id, saved.id)
    assert a.data_state(session.id)["rows"] == b.data_state(session.id)["rows"] == len(kanto)
    steps = [s.step_type for s in a.steps(session.id)]
    assert steps == [s.step_type for s in b.steps(session.id)]
    assert [s for s in steps if s != "code"] == ["filter_data", "reset", "filter_data", "snapshot", "restore"]


def test_a_replica_sees_the_variables_a_turn_through_the_other_committed(open_service: ServiceFactory) -> None:
    brain = CellBrain()
    a, b = open_service(brain=brain), open_service(brain=brain)
    session = a.create_session(SALES_CSV)
    assert a.run_turn(session.id, f"{CELL}x = 'a'\nprint(x)").executions[-1].stdout.strip() == "a"
    assert b.run_turn(session.id, f"{CELL}x = 'b'\nprint(x)").executions[-1].stdout.strip() == "b"
    # A's sandbox still holds x == 'a'; B's turn committed x == 'b' (the sandbox saves its variables in the
    # workspace): A starts its sandbox afresh from that rather than answer from its own
    again = a.run_turn(session.id, f"{CELL}print(x)")
    assert again.executions[-1].stdout.strip() == "b"
    # with no other replica in between, A keeps its sandbox and its variables
    assert a.run_turn(session.id, f"{CELL}y = 1").status == "finalized"
    assert a.run_turn(session.id, f"{CELL}print(y)").executions[-1].stdout.strip() == "1"


def test_behind_when_a_turn_a_data_change_or_a_model_came_from_elsewhere() -> None:
    mark = Mark(turn=3, data_position=7, model="offline")
    assert not behind(mark, seen=Mark(3, 0, "offline"), data_position=7)  # the runtime's own position counts
    assert behind(mark, seen=Mark(2, 7, "offline"), data_position=7)  # a turn it did not take part in
    assert behind(mark, seen=Mark(3, 7, "offline"), data_position=5)  # a step (reset, restore, filter) it missed
    assert behind(mark, seen=Mark(3, 7, "openai:gpt-4o-mini"), data_position=7)  # another model since
    assert behind(mark, seen=None, data_position=7)  # never told: assume the worst


def test_a_model_chosen_through_one_replica_answers_through_the_other(service_settings: Settings) -> None:
    asked: dict[str, list[str]] = {"a": [], "b": []}

    def brains(name: str) -> Callable[[str], AnalystBrain]:
        return lambda spec: asked[name].append(spec) or OfflineAnalystBrain()

    with (
        AnalysisService(service_settings, brains=brains("a")) as a,
        AnalysisService(service_settings, brains=brains("b")) as b,
    ):
        session = a.create_session(SALES_CSV)
        assert a.run_turn(session.id, "売上金額の合計は？").status == "finalized"
        b.set_model(session.id, "offline:another")
        assert a.run_turn(session.id, "売上金額の合計は？").status == "finalized"
        assert asked["a"][-1] == "offline:another"  # A's open session took the new model's brain


def running(owner: str | None, started_at: datetime) -> Turn:
    return Turn(
        id="t",
        session_id="s",
        number=1,
        question="?",
        status="running",
        owner=owner,
        started_at=started_at,
        finished_at=None,
        error=None,
    )


def test_a_turn_of_a_dead_or_long_gone_replica_frees_the_session(settings: Settings) -> None:
    now = datetime.now(UTC)
    longest = timedelta(seconds=longest_turn_s(settings))
    assert longest > timedelta(seconds=settings.turn_deadline_s)
    assert may_still_run(running(process_owner(), now - 2 * longest), settings, now=now)  # alive here: asked
    host = process_owner().split(":", 1)[0]
    assert not may_still_run(running(f"{host}:999999999:1", now), settings, now=now)  # no such process here
    elsewhere = "another-host:42:1"  # a replica on another machine cannot be asked: its age decides
    assert may_still_run(running(elsewhere, now - longest + timedelta(seconds=5)), settings, now=now)
    assert not may_still_run(running(elsewhere, now - longest - timedelta(seconds=5)), settings, now=now)
    assert not may_still_run(running(None, now), settings, now=now)


def test_a_turn_of_another_machine_runs_while_its_replica_beats(settings: Settings) -> None:
    now = datetime.now(UTC)
    stale = stale_after_s(settings)
    assert stale == 3 * settings.replica_heartbeat_s
    turn = running("another-host:42:1:abcd", now - timedelta(seconds=longest_turn_s(settings) + 60))
    assert may_still_run(turn, settings, beats={"another-host:42:1": 0.5}, now=now)  # old turn, live replica
    assert may_still_run(turn, settings, beats={"another-host:42:1": stale - 1}, now=now)
    young = running("another-host:42:1:abcd", now)
    assert not may_still_run(young, settings, beats={"another-host:42:1": stale + 1}, now=now)  # silent: gone
    assert may_still_run(young, settings, beats={"another-host:7:1": 0.5}, now=now)  # no beat of its own: age rule
    assert not may_still_run(turn, settings, beats={}, now=now)
    here = running(f"{process_owner()}:abcd", now)  # this machine's /proc decides, whatever the beats say
    assert may_still_run(here, settings, beats={process_owner(): stale + 1}, now=now)
