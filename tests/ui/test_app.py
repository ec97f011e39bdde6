"""The analysis chat in Streamlit's AppTest: upload, ask, answer, snapshot, restore, resume, and the
friendly messages, on the real service with the offline brain."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from bunseki.ui import APP
from tests.ui.conftest import JapaneseTable

CHART_QUESTION = "地域別の売上合計をグラフにして"
TIMEOUT_S = 180  # a ceiling for one script run (a turn included), never a measurement


def open_app(locale: str = "ja-JP") -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    app.context["locale"] = locale
    app.run()
    assert not app.exception
    return app


def upload(app: AppTest, table: JapaneseTable) -> AppTest:
    app.file_uploader[0].upload(table.name, table.content, "text/csv").run()
    assert not app.exception
    return app


def ask(app: AppTest, question: str) -> AppTest:
    app.chat_input[0].set_value(question).run()
    assert not app.exception
    return app


def texts_of(app: AppTest, kind: str) -> list[str]:
    return [str(element.value) for element in app.get(kind)]


def data_state(app: AppTest) -> str:
    return next(text for text in texts_of(app, "alert") + texts_of(app, "info") if "今のデータ" in text)


def session_id(app: AppTest) -> str:
    return str(app.session_state["session_id"])


def test_the_interface_speaks_the_browsers_language_and_switches(ui_workspace: Path) -> None:
    japanese = open_app("ja-JP")
    assert [title.value for title in japanese.title] == ["Bunseki 分析チャット"]
    assert japanese.file_uploader[0].label.startswith("データファイル")

    english = open_app("en-US")
    assert [title.value for title in english.title] == ["Bunseki analysis chat"]
    assert english.file_uploader[0].label.startswith("Data file")

    english.radio(key="language").set_value("ja").run()
    assert [title.value for title in english.title] == ["Bunseki 分析チャット"]


def test_upload_ask_and_take_the_report_home(ui_workspace: Path, sales_table: JapaneseTable) -> None:
    app = upload(open_app(), sales_table)
    assert any("売上データ.csv" in text and "12 行" in text for text in texts_of(app, "success"))
    assert "元のデータ（12 行）" in data_state(app)
    preview = app.dataframe[0].value
    assert list(preview.columns) == list(sales_table.frame.columns) and len(preview) == 12

    ask(app, CHART_QUESTION)
    user, assistant = app.chat_message
    assert user.markdown[0].value == CHART_QUESTION
    answer = " ".join(str(block.value) for block in assistant.markdown)
    assert sales_table.total("関東") in answer and sales_table.total("九州") in answer
    [chart] = assistant.image
    assert chart.value and chart.captions[0]  # the chart, with its caption
    assert assistant.subheader[0].value  # the report's title
    assert any(
        sales_table.total("関東").replace(",", "") in frame.value.to_string() for frame in assistant.dataframe
    ), "the report's table shows the totals"
    labels = [button.label for button in assistant.get("download_button")]
    assert labels == ["report.md", "HTML レポート", "ノートブック (.ipynb)"]
    assert "今のデータを CSV でダウンロード" in [button.label for button in app.get("download_button")]

    [thought] = [expander for expander in assistant.expander if expander.label == "思考プロセス"]
    assert any("groupby" in str(code.value) for code in thought.code), "the code that ran"
    assert any("判断の理由" in str(caption.value) for caption in thought.caption), "the reason node's rationale"
    assert not app.error


def test_snapshot_reset_and_restore_from_the_sidebar(ui_workspace: Path, sales_table: JapaneseTable) -> None:
    app = ask(upload(open_app(), sales_table), "地域は関東だけにして")
    assert "加工後のデータ（4 行／元 12 行）" in data_state(app)
    assert any("filter_data" in str(caption.value) for caption in app.sidebar.caption), "the step is listed"

    app.text_input(key=f"snapshot-name-{session_id(app)}").input("関東のみ").run()
    app.button(key="snapshot-save").click().run()
    assert any("関東のみ" in text for text in texts_of(app, "success"))

    app.button(key="reset-data").click().run()
    assert "元のデータ（12 行）" in data_state(app)

    [restore] = [button for button in app.button if button.key and button.key.startswith("restore-")]
    restore.click().run()
    assert any("「関東のみ」に戻しました" in text for text in texts_of(app, "success"))
    assert "（4 行／元 12 行）" in data_state(app)


def test_a_duplicate_snapshot_name_is_refused_with_a_clear_message(
    ui_workspace: Path, sales_table: JapaneseTable
) -> None:
    app = upload(open_app(), sales_table)
    for _ in range(2):
        app.text_input(key=f"snapshot-name-{session_id(app)}").input("元データ").run()
        app.button(key="snapshot-save").click().run()
    assert not app.exception
    assert any("すでにあります" in text and "元データ" in text for text in texts_of(app, "error"))
    assert len([button for button in app.button if button.key and button.key.startswith("restore-")]) == 1


def test_resume_an_earlier_session_then_clear_its_history(ui_workspace: Path) -> None:
    with AnalysisService(Settings()) as earlier:  # another visit, or `bunseki chat`
        record = earlier.create_session(SALES_CSV, title="以前の分析")
        earlier.run_turn(record.id, CHART_QUESTION)

    app = open_app()
    assert not app.chat_message  # a new visit starts without a session
    app.selectbox(key="resume_choice").set_value(record.id).run()
    app.button(key="resume").click().run()
    assert not app.exception
    user, assistant = app.chat_message
    assert user.markdown[0].value == CHART_QUESTION
    assert len(assistant.image) == 1
    [thought] = assistant.expander
    assert any("groupby" in str(code.value) for code in thought.code)  # kept in the store as a step
    assert "元のデータ（18,300 行）" in data_state(app)

    app.button(key="clear-history").click().run()
    assert not app.chat_message
    assert any("会話履歴を消去しました" in text for text in texts_of(app, "success"))
    assert "元のデータ（18,300 行）" in data_state(app)

    app.button(key="new-session").click().run()
    assert app.file_uploader, "a new session starts with an upload"


def test_the_address_names_the_open_session_so_a_browser_moved_to_another_replica_gets_it_back(
    ui_workspace: Path, sales_table: JapaneseTable
) -> None:
    first = ask(upload(open_app(), sales_table), "地域は関東だけにして")
    assert first.query_params == {"session": session_id(first)}

    # A new browser session (the replica it reconnected to has no state for it) with that address.
    moved = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    moved.context["locale"] = "ja-JP"
    moved.query_params["session"] = session_id(first)
    moved.run()
    assert not moved.exception
    assert session_id(moved) == session_id(first)
    assert [message.markdown[0].value for message in moved.chat_message][:1] == ["地域は関東だけにして"]
    assert "（4 行／元 12 行）" in data_state(moved)

    moved.button(key="new-session").click().run()
    assert moved.file_uploader and moved.query_params == {}

    unknown = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    unknown.query_params["session"] = "0" * 32  # deleted since, or never there: the upload page
    unknown.run()
    assert not unknown.exception and unknown.file_uploader and unknown.query_params == {}


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("ja-JP", "このファイルは読み込めませんでした"), ("en-US", "This file could not be read")],
)
def test_a_bad_file_gets_a_friendly_message(ui_workspace: Path, locale: str, expected: str) -> None:
    app = open_app(locale)
    app.file_uploader[0].upload("壊れた.csv", b"\x00\x01\x02\x03" * 64, "text/csv").run()
    [error] = app.error
    assert expected in str(error.value)
    assert app.file_uploader, "the person can try another file"
    assert "session_id" not in app.session_state  # no session was created


def test_a_model_that_is_not_configured_is_explained(
    ui_workspace: Path, sales_table: JapaneseTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BUNSEKI_MODEL", "openai:gpt-4o-mini")  # chosen, but no OPENAI_API_KEY
    app = upload(open_app(), sales_table)
    [error] = app.error
    assert "モデルはまだ使えません" in str(error.value) and "OPENAI_API_KEY" in str(error.value)

    model = app.selectbox(key="new_session_model")
    assert model.options == ["offline", "openai:gpt-4o-mini"]
    model.set_value("offline").run()
    upload(app, sales_table)
    assert not app.error and "元のデータ（12 行）" in data_state(app)

    # A session whose model lost its key since: the question is refused with the same explanation.
    with AnalysisService(Settings()) as other:
        other.store.touch_session(session_id(app), model="openai:gpt-4o-mini")
    ask(app, "売上金額の合計は？")
    [error] = app.error
    assert "モデルはまだ使えません" in str(error.value)


def test_models_with_configured_keys_are_offered(ui_workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    app = open_app()
    assert app.selectbox(key="new_session_model").options == ["offline", "openai:gpt-4o-mini"]
    assert app.selectbox(key="new_session_model").value == "offline"


def test_a_question_beyond_the_offline_analyst_gets_a_hint(ui_workspace: Path, sales_table: JapaneseTable) -> None:
    app = ask(upload(open_app(), sales_table), "明日の天気は？")
    _, assistant = app.chat_message
    assert "売上金額" in str(assistant.markdown[0].value)  # it asks back, naming what it can do
    assert any("オフラインの分析エンジン" in str(info.value) for info in assistant.info)
    assert not app.error


def excel_bytes(table: JapaneseTable) -> bytes:
    buffer = io.BytesIO()
    table.frame.to_excel(buffer, index=False)
    return buffer.getvalue()


def parquet_bytes(table: JapaneseTable) -> bytes:
    buffer = io.BytesIO()
    table.frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("売上.tsv", lambda table: table.frame.to_csv(sep="\t", index=False).encode("euc_jp")),
        ("売上_utf8.csv", lambda table: table.frame.to_csv(index=False).encode("utf-8-sig")),
        ("売上.xlsx", excel_bytes),
        ("売上.parquet", parquet_bytes),
    ],
)
def test_tables_of_every_kind_and_encoding_can_be_uploaded(
    ui_workspace: Path, sales_table: JapaneseTable, name: str, content: Callable[[JapaneseTable], bytes]
) -> None:
    app = open_app()
    app.file_uploader[0].upload(name, content(sales_table), "application/octet-stream").run()
    assert not app.exception and not app.error
    assert "元のデータ（12 行）" in data_state(app)
    preview = app.dataframe[0].value
    assert list(preview.columns) == list(sales_table.frame.columns)
    assert preview["地域"].tolist() == sales_table.frame["地域"].tolist()
