"""open_in_workspace and OpenFile: where a refused open becomes NotFound, and what an open file yields."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from bunseki.errors import NotFound
from bunseki.service.files import open_in_workspace


def test_a_link_in_the_workspace_is_not_found_and_says_nothing_of_its_target(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("not for you")
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "chart.png").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(NotFound) as refused:
        open_in_workspace(str(tmp_path / "workspace"), "chart.png", missing="this session has no artifact 'chart.png'")
    assert str(refused.value) == "this session has no artifact 'chart.png'"
    assert isinstance(refused.value.__cause__, OSError) and refused.value.__cause__.errno == errno.ELOOP


def test_an_open_file_yields_what_it_held_when_opened_and_closes(tmp_path: Path) -> None:
    (tmp_path / "table.csv").write_bytes(b"a,b\n1,2\n")
    file = open_in_workspace(str(tmp_path), "table.csv", missing="gone")
    assert (file.name, file.size) == ("table.csv", 8)
    with (tmp_path / "table.csv").open("ab") as growing:
        growing.write(b"3,4\n")  # the length was announced already (Content-Length)
    assert b"".join(file.chunks()) == b"a,b\n1,2\n"
    assert file.handle.closed
