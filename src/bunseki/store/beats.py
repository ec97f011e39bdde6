"""Heartbeats of the processes that answer questions, timed by the database's clock.

Replicas on different machines compare one clock, the server's, so a skew between their own clocks
cannot make a live replica look gone or a dead one look alive. SQLite has no server: its "database
clock" is the clock of whichever process runs the statement, all on one machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from sqlalchemy import Float, cast, delete, extract, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.sql.elements import ColumnElement

from bunseki.store.models import ReplicaBeat

FORGET_AFTER_S: Final = 3600.0  # a process silent this long is long gone: its row only takes room
_SQLITE_NOW: Final = ("%Y-%m-%d %H:%M:%f", "now")  # UTC, to the millisecond (CURRENT_TIMESTAMP: the second)


def beat(db: OrmSession, owner: str, *, forget_after_s: float) -> None:
    """Record that ``owner`` lives, now; forget the processes silent for over ``forget_after_s``."""
    postgres = _postgres(db)
    now = func.now() if postgres else func.strftime(*_SQLITE_NOW)
    insert = (postgresql if postgres else sqlite).insert(ReplicaBeat).values(owner=owner, seen_at=now)
    db.execute(insert.on_conflict_do_update(index_elements=[ReplicaBeat.owner], set_={"seen_at": now}))
    db.execute(delete(ReplicaBeat).where(_age_s(postgres) > forget_after_s))


def ages(db: OrmSession, owners: Iterable[str]) -> dict[str, float]:
    """Seconds since each of ``owners`` last beat; an owner without a row is left out."""
    query = select(ReplicaBeat.owner, _age_s(_postgres(db))).where(ReplicaBeat.owner.in_(set(owners)))
    return {owner: float(age) for owner, age in db.execute(query)}


def forget(db: OrmSession, owner: str) -> None:
    db.execute(delete(ReplicaBeat).where(ReplicaBeat.owner == owner))


def _age_s(postgres: bool) -> ColumnElement[Any]:
    if postgres:
        return cast(extract("epoch", func.now() - ReplicaBeat.seen_at), Float)
    return (func.julianday("now") - func.julianday(ReplicaBeat.seen_at)) * 86400.0


def _postgres(db: OrmSession) -> bool:
    return db.get_bind().dialect.name == "postgresql"
