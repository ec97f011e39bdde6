"""Downloads serve the file the service opened: a swap for a symlink after that open changes nothing.

Cell code can replace a workspace file by a link to a file outside at any moment. The service
opens the file in one step that follows no link and hands the open file to the route; the fake
hook below makes that swap right after the open, in the window where a path checked by the
service used to be opened again by the response.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd
import pytest
from fastapi.testclient import TestClient

from bunseki.sandbox.workspace import host_writes
from bunseki.service import AnalysisService, OpenFile
from tests.api.conftest import PREFIX, ask, problem_of, start


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("not for you")
    return path


def swap_for_link(path: Path, target: Path) -> None:
    """Replace ``path`` by a symlink to ``target`` in one rename, as cell code in the sandbox can."""
    link = path.with_name(path.name + ".link")
    with host_writes(path.parent):
        link.symlink_to(target)
        os.replace(link, path)


def swapping_after_open(open_file: Callable[..., OpenFile], swap: Callable[[], None]) -> Callable[..., OpenFile]:
    """The service's opener, then the swap, before the route reads what was opened."""

    def opened_then_swapped(*args: Any, **kwargs: Any) -> OpenFile:
        opened = open_file(*args, **kwargs)
        swap()
        return opened

    return opened_then_swapped


def test_an_artifact_swapped_after_the_open_is_served_as_opened_and_then_refused(
    api: TestClient, service: AnalysisService, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = start(api)
    [chart] = ask(api, session, "地域別の売上合計をグラフにして")["artifacts"]
    path = Path(service.get_session(session).workspace) / chart["name"]
    original = path.read_bytes()
    monkeypatch.setattr(
        service, "open_artifact", swapping_after_open(service.open_artifact, lambda: swap_for_link(path, secret))
    )

    served = api.get(chart["url"])
    assert path.read_text() == "not for you"  # the swap happened before the body was read
    assert served.status_code == 200 and served.content == original
    assert served.headers["content-length"] == str(len(original))
    assert served.headers["content-disposition"] == f"attachment; filename*=utf-8''{quote(path.name)}"  # not ASCII

    after = api.get(chart["url"])
    assert problem_of(after)["status"] == 404 and "not for you" not in after.text


def test_a_report_swapped_after_the_open_is_served_as_opened_and_then_refused(
    api: TestClient, service: AnalysisService, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = start(api)
    ask(api, session, "地域別の売上合計は？")
    [report] = service.reports(session)
    assert report.html_path is not None
    path = Path(service.get_session(session).workspace) / report.html_path
    original = path.read_bytes()
    monkeypatch.setattr(
        service, "open_report", swapping_after_open(service.open_report, lambda: swap_for_link(path, secret))
    )

    served = api.get(f"{PREFIX}/sessions/{session}/report", params={"format": "html"})
    assert path.read_text() == "not for you"
    assert served.status_code == 200 and served.content == original
    assert served.headers["content-type"].startswith("text/html")

    after = api.get(f"{PREFIX}/sessions/{session}/report", params={"format": "html"})
    assert problem_of(after)["status"] == 404 and "not for you" not in after.text
    by_name = api.get(f"{PREFIX}/sessions/{session}/artifacts/{report.html_path}")
    assert problem_of(by_name)["status"] == 404 and "not for you" not in by_name.text


def test_the_data_download_never_goes_through_a_name_in_the_workspace(
    api: TestClient, service: AnalysisService, secret: Path, sales: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = start(api)
    workspace = Path(service.get_session(session).workspace)
    exports = workspace / "exports"
    exports.mkdir()
    planted = exports / "sales_cp932_current.csv"  # where the export used to be written, then reopened
    planted.symlink_to(secret)
    monkeypatch.setattr(
        service, "open_data", swapping_after_open(service.open_data, lambda: swap_for_link(planted, secret))
    )

    served = api.get(f"{PREFIX}/sessions/{session}/data")
    assert served.status_code == 200 and "not for you" not in served.text
    assert served.headers["content-disposition"] == 'attachment; filename="sales_cp932_current.csv"'
    downloaded = pd.read_csv(io.BytesIO(served.content), encoding="utf-8-sig")
    assert downloaded["売上金額"].tolist() == sales["売上金額"].tolist()
    assert secret.read_text() == "not for you"  # not written through the planted link either
    assert sorted(path.name for path in exports.iterdir()) == ["sales_cp932_current.csv"]
