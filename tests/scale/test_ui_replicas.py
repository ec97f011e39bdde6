"""The web UI behind either of two replicas over one PostgreSQL and one workspace root.

Each UI replica is a process of its own with its own service (runtimes, sandboxes), as two `bunseki ui`
servers behind a load balancer are. A session started and asked through replica A is listed, shown
(its turns, its chart, its steps, its data) and continued through replica B, whose answers use what A
committed; A, which still has the session open, then follows what B committed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from bunseki.samples import SALES_CSV
from tests.scale.replicas_support import CELL, Deployment
from tests.scale.test_replicas import deployment, postgres_url  # noqa: F401  (the same deployment)
from tests.scale.ui_replicas_support import UiReplica

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

CHART = "地域別の売上合計をグラフにして"


@pytest.fixture(scope="module")
def backend() -> dict[str, str]:
    return {"BUNSEKI_SANDBOX_BACKEND": "local", "BUNSEKI_SANDBOX_TIMEOUT_S": "60"}


@pytest.fixture
def ui_replicas(deployment: Deployment) -> Iterator[tuple[UiReplica, UiReplica]]:  # noqa: F811
    a, b = UiReplica.start(deployment, "a"), UiReplica.start(deployment, "b")
    yield a, b
    a.stop()
    b.stop()


def data_state(page: dict[str, Any]) -> str:
    return str(next(text for text in page["infos"] if "今のデータ" in text))


def answers(page: dict[str, Any]) -> list[str]:
    return [message["text"] for message in page["chat"] if message["role"] == "assistant"]


def test_a_session_started_through_one_ui_replica_is_shown_and_continued_through_the_other(
    ui_replicas: tuple[UiReplica, UiReplica], sales: pd.DataFrame
) -> None:
    a, b = ui_replicas
    kanto = sales[sales["地域"] == "関東"]
    a.do("open", "browser")
    started = a.do("upload", "browser", path=str(SALES_CSV))
    session = started["session"]
    assert session and started["query"] == {"session": session}  # the address names the open session
    a.do("ask", "browser", question="地域は関東だけにして")
    a.do("ask", "browser", question=CHART)
    on_a = a.do("ask", "browser", question=f"{CELL}x = 4100\nprint(x)")
    assert f"（{len(kanto):,} 行／元 {len(sales):,} 行）" in data_state(on_a)

    # The load balancer moves the browser to B: a new browser session there, with the page's address.
    moved = b.do("open", "browser", query={"session": session})
    assert moved["session"] == session
    assert [m["role"] for m in moved["chat"]] == [m["role"] for m in on_a["chat"]] == ["user", "assistant"] * 3
    assert [m["text"] for m in moved["chat"] if m["role"] == "user"] == [
        "地域は関東だけにして",
        CHART,
        f"{CELL}x = 4100\nprint(x)",
    ]
    assert [m["images"] for m in moved["chat"]] == [m["images"] for m in on_a["chat"]] == [0, 0, 0, 1, 0, 0]
    assert moved["steps"] == on_a["steps"] and any("filter_data" in step for step in moved["steps"])
    assert data_state(moved) == data_state(on_a)

    # Another visitor on B finds the session in the list and resumes it: the same page.
    other = b.do("open", "visitor")
    assert other["session"] is None and other["uploader"]
    assert [label for label in other["past_sessions"] if session[:8] in label]
    resumed = b.do("resume", "visitor", session=session)
    assert resumed["chat"] == moved["chat"] and resumed["query"] == {"session": session}

    # B answers from A's committed state: the variables of A's cell, on A's filtered data.
    continued = b.do("ask", "browser", question=f"{CELL}x += 1\nprint(x, len(df))")
    assert f"4101 {len(kanto)}" in answers(continued)[-1]

    # A still has the session open in its own runtime: it follows what B committed.
    back = a.do("ask", "browser", question=f"{CELL}print(x * 10)")
    assert "41010" in answers(back)[-1]
    assert [m["role"] for m in back["chat"]] == ["user", "assistant"] * 5
