"""The investigator page in Streamlit's AppTest, on the real service, sandbox and offline investigator brain."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.settings import Settings
from bunseki.ui import APP

TIMEOUT_S = 240  # a ceiling for one script run (a whole investigation included), never a measurement
SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation"


def open_page(locale: str = "ja-JP") -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    app.context["locale"] = locale
    app.run()
    app.switch_page("app_pages/investigations.py").run()
    assert not app.exception, app.exception
    return app


def sample_zip(**replaced: bytes) -> bytes:
    """The sample case (its manifest names no entry; its harness reads the expectation's text), zipped."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(SAMPLE.iterdir()):
            if path.is_file():
                archive.writestr(f"case/{path.name}", replaced.get(path.name, path.read_bytes()))
    return buffer.getvalue()


def markdown_of(app: AppTest) -> str:
    return "\n".join(str(element.value) for element in app.markdown)


def test_the_page_speaks_japanese_and_english(ui_workspace: Path) -> None:
    assert [title.value for title in open_page("ja-JP").title] == ["Bunseki アルゴリズム調査"]
    assert [title.value for title in open_page("en-US").title] == ["Bunseki algorithm investigation"]


def test_upload_a_case_follow_it_and_read_the_reports(ui_workspace: Path) -> None:
    app = open_page()
    app.file_uploader[0].upload("case.zip", sample_zip(), "application/zip")
    app.button[0].click().run()  # the form's submit button; the page follows the run to its end
    assert not app.exception, app.exception
    text = markdown_of(app)
    assert "… [boundary] 仮説を実行で検証しています (1)" in text  # followed agent by agent
    assert text.index("… [boundary] データを確認しています") < text.index("… [clean] データを確認しています")
    assert "状態: **完了**" in text and "hysteresis-detector" in text
    assert "### まとめ" in text and "**boundary** (inconsistent)" in text
    assert [tab.label for tab in app.tabs] == ["boundary", "clean"]
    assert "不整合あり" in text and "期待どおり" in text
    assert any("+            count = count + 1 if x[i] >= on else 0" in str(code.value) for code in app.code)
    assert len(app.get("imgs")) >= 1 or len(app.get("image")) >= 1  # the charts
    assert "## Dataset boundary" in text  # the report's Markdown, rendered
    labels = [button.label for button in app.get("download_button")]
    assert labels == ["Markdown (.md)", "HTML レポート"]


TWO_FUNCTIONS = (SAMPLE / "detector.py").read_bytes() + b"\n\ndef smooth(frame):\n    return frame\n"


@pytest.mark.parametrize(
    ("archive", "said"),
    [
        (b"not an archive", "zip or tar"),
        (sample_zip(**{"detector.py": TWO_FUNCTIONS}), "name the one to run, e.g. `entry: detector.py:detect`"),
    ],
)
def test_a_case_that_cannot_be_used_is_refused_with_the_reason(ui_workspace: Path, archive: bytes, said: str) -> None:
    app = open_page("en-US")
    app.file_uploader[0].upload("case.zip", archive, "application/zip")
    app.button[0].click().run()
    assert not app.exception, app.exception
    assert any(said in str(error.value) for error in app.error), [error.value for error in app.error]
    assert "investigation_id" not in app.session_state or not app.session_state["investigation_id"]


def test_an_investigation_started_elsewhere_is_listed_and_opened(ui_workspace: Path) -> None:
    with InvestigationRuns(Settings()) as runs:  # as the API would, in another process
        started = runs.start_from_upload("case.zip", io.BytesIO(sample_zip()))
        runs.wait(started.investigation_id)
    app = open_page("en-US")
    app.button(key="inv-open").click().run()
    assert not app.exception, app.exception
    assert str(app.session_state["investigation_id"]) == started.investigation_id
    assert "Status: **completed**" in markdown_of(app)
