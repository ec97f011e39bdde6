"""open_workspace_file: one walk from the workspace to an open file, which a later swap cannot redirect."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from bunseki.report import open_workspace_file


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "workspace" / "figures").mkdir(parents=True)
    (tmp_path / "workspace" / "figures" / "chart.png").write_bytes(b"the chart as it was opened")
    (tmp_path / "secret.txt").write_bytes(b"not for you")
    return tmp_path / "workspace"


def swap_for_link(path: Path, target: Path) -> None:
    """Replace ``path`` by a symlink to ``target`` in one rename, as cell code in the sandbox can."""
    link = path.with_name(path.name + ".link")
    link.symlink_to(target)
    os.replace(link, path)


def test_an_open_file_keeps_serving_what_was_opened_after_its_name_becomes_a_link(
    workspace: Path, tmp_path: Path
) -> None:
    chart = workspace / "figures" / "chart.png"
    with open_workspace_file(workspace, "figures/chart.png") as handle:
        swap_for_link(chart, tmp_path / "secret.txt")
        assert chart.read_bytes() == b"not for you"  # the name now leads outside
        assert handle.read() == b"the chart as it was opened"
    with pytest.raises(OSError) as refused:
        open_workspace_file(workspace, "figures/chart.png")
    assert refused.value.errno == errno.ELOOP


def test_a_directory_on_the_way_that_became_a_link_is_not_followed(workspace: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "chart.png").write_bytes(b"not for you")
    figures = workspace / "figures"
    figures.rename(workspace / "moved")
    figures.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(OSError) as refused:
        open_workspace_file(workspace, "figures/chart.png")
    assert refused.value.errno in (errno.ELOOP, errno.ENOTDIR)


def test_refusals_are_os_errors_that_leave_no_descriptor_open(workspace: Path) -> None:
    os.mkfifo(workspace / "pipe.png")  # opening it for reading would block without O_NONBLOCK
    before = len(os.listdir("/proc/self/fd"))
    for relative in ("pipe.png", "figures", ".", "", "../secret.txt", "/etc/passwd", "missing/chart.png"):
        with pytest.raises(OSError):
            open_workspace_file(workspace, relative)
    assert len(os.listdir("/proc/self/fd")) == before


def test_the_open_file_reads_like_any_file(workspace: Path) -> None:
    with open_workspace_file(workspace, "./figures//chart.png") as handle:
        assert os.get_blocking(handle.fileno())  # the non-blocking open does not leak into reads
        assert handle.read(9) == b"the chart"
        assert handle.read() == b" as it was opened"
