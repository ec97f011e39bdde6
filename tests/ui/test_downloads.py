"""What a download button reads: the file the service opens at the click, read whole and closed."""

from __future__ import annotations

from pathlib import Path

from bunseki.service import OpenFile
from bunseki.service.files import open_in_workspace
from bunseki.ui import render


def test_a_download_opens_its_file_only_when_clicked_and_closes_it(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "report_001.md").write_text("# 売上", encoding="utf-8")
    opened: list[OpenFile] = []

    def open_report() -> OpenFile:
        opened.append(open_in_workspace(str(tmp_path), "reports/report_001.md", missing="no report"))
        return opened[-1]

    read = render.contents(open_report)
    assert opened == []  # drawing the button opens nothing
    (tmp_path / "reports" / "report_001.md").write_text("# 売上（最新）", encoding="utf-8")
    assert read().decode("utf-8") == "# 売上（最新）"
    assert [file.handle.closed for file in opened] == [True]
