"""The EDA page in Streamlit's AppTest, on the real service, sandbox and offline EDA brain."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from bunseki.ui import APP
from tests.ui.conftest import JapaneseTable

TIMEOUT_S = 240  # a ceiling for one script run (a whole review round included), never a measurement


def open_eda(locale: str = "ja-JP") -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    app.context["locale"] = locale
    app.run()
    app.switch_page("app_pages/eda.py").run()
    assert not app.exception, app.exception
    return app


def click(app: AppTest, key: str) -> AppTest:
    app.button(key=key).click().run()
    assert not app.exception, app.exception
    return app


def markdown_of(app: AppTest) -> str:
    return "\n".join(str(element.value) for element in app.markdown)


def test_the_page_speaks_japanese_and_english(ui_workspace: Path) -> None:
    assert [title.value for title in open_eda("ja-JP").title] == ["Bunseki 探索的データ分析（EDA）"]
    assert [title.value for title in open_eda("en-US").title] == ["Bunseki exploratory data analysis (EDA)"]


def test_upload_review_the_plan_and_results_and_download_the_report(
    ui_workspace: Path, sales_table: JapaneseTable
) -> None:
    app = open_eda()
    app.file_uploader[0].upload(sales_table.name, sales_table.content, "text/csv")
    app.text_input(key="eda_goal").set_value("売上金額の傾向")
    app.button[0].click().run()  # the form's submit button
    assert not app.exception, app.exception
    run_id = str(app.session_state["eda_run_id"])
    assert "計画の確認待ち" in markdown_of(app)
    assert app.get("arrow_data_frame") or app.dataframe  # the plan and the profile as tables

    app.text_area(key=f"eda_feedback-{run_id}-awaiting_plan_review").set_value("ステップ1を削除")
    click(app, "eda-send")
    assert "計画の確認待ち" in markdown_of(app)

    click(app, "eda-approve")
    assert "結果の確認待ち" in markdown_of(app)
    assert "### 分析結果" in markdown_of(app)
    assert len(app.get("imgs")) >= 1 or len(app.get("image")) >= 1  # the charts of the findings

    click(app, "eda-approve")
    text = markdown_of(app)
    assert "完了" in text and "### レポート" in text
    labels = [button.label for button in app.get("download_button")]
    assert labels == ["Markdown (.md)", "HTML レポート", "ノートブック (.ipynb)"]


def test_a_run_started_elsewhere_is_listed_and_can_be_reviewed_here(
    ui_workspace: Path, sales_table: JapaneseTable, tmp_path: Path
) -> None:
    data = tmp_path / sales_table.name
    data.write_bytes(sales_table.content)
    with EdaService(Settings()) as service:  # as `bunseki eda` would, in another process
        started = service.start(data)
    app = open_eda()
    assert "確認待ちの実行が 1 件あります。" in [str(caption.value) for caption in app.caption]
    click(app, "eda-open")
    assert str(app.session_state["eda_run_id"]) == started.run_id
    click(app, "eda-stop")
    assert "中止" in markdown_of(app)
    with EdaService(Settings()) as service:
        assert service.get(started.run_id).status == "stopped"
