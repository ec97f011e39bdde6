"""The knowledge chat page in Streamlit's AppTest: the page's layout in Japanese and English, documents
uploaded into a collection, an answer with its citations and thought process, and clearing the history.
Real e5 over embedded Qdrant in the test's workspace, the offline brain, and a warmed embedding cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bunseki.ui import APP
from tests.rag.uploads import DOCUMENTS, write_warm_cache

TIMEOUT_S = 120  # a ceiling for one script run (an ingest or a question included), never a measurement
PAGE = "app_pages/knowledge.py"


@pytest.fixture(scope="session")
def warm_embeddings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_warm_cache(tmp_path_factory.mktemp("knowledge-ui"))


@pytest.fixture
def workspace(ui_workspace: Path, warm_embeddings: Path) -> Path:
    shutil.copy(warm_embeddings, ui_workspace / "embeddings.sqlite")
    return ui_workspace


def open_page(locale: str = "ja-JP") -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    app.context["locale"] = locale
    app.run()
    app.switch_page(PAGE).run()
    assert not app.exception, app.exception
    return app


def add_documents(app: AppTest, collection: str = "docs") -> AppTest:
    app.text_input(key="knowledge_upload_collection").input(collection)
    [uploader] = app.sidebar.get("file_uploader")
    uploader.set_value([(name, content, "application/octet-stream") for name, content in DOCUMENTS])
    app.button(key="knowledge-ingest").click().run()
    assert not app.exception, app.exception
    return app


def notices_of(app: AppTest) -> list[str]:
    """The text of every success, info, warning and error box on the page."""
    return [str(element.value) for kind in ("success", "info", "warning", "error") for element in app.get(kind)]


def test_the_page_is_drawn_as_the_seed_draws_it_in_both_languages(workspace: Path) -> None:
    japanese = open_page("ja-JP")
    assert [title.value for title in japanese.title] == ["Bunseki ナレッジチャット"]
    assert japanese.caption[0].value.startswith("登録したドキュメントをもとに")
    assert [expander.label for expander in japanese.expander] == ["元ドキュメント", "登録済みの Q&A"]
    assert japanese.selectbox(key="knowledge_model").value == "offline"
    assert japanese.multiselect(key="knowledge_collections").label == "検索するコレクション"
    assert japanese.button(key="knowledge-clear").label == "会話履歴を消去"
    assert japanese.sidebar.get("file_uploader")[0].label.startswith("ドキュメント")
    assert any("まだコレクションがありません" in text for text in notices_of(japanese))
    assert japanese.chat_input[0].disabled  # nothing to search yet

    english = open_page("en-US")
    assert [title.value for title in english.title] == ["Bunseki knowledge chat"]
    assert [expander.label for expander in english.expander] == ["Source documents", "Registered Q&A"]
    assert english.button(key="knowledge-ingest").label == "Add"


def test_documents_uploaded_into_a_collection_are_listed_and_previewed(workspace: Path) -> None:
    app = add_documents(open_page(), "社内FAQ")
    assert any("「社内FAQ」に 5 件を取り込みました" in text for text in notices_of(app)), notices_of(app)
    assert app.multiselect(key="knowledge_collections").value == ["社内FAQ"]
    documents, qa = app.expander
    [listing] = documents.dataframe
    assert sorted(listing.value["ファイル"]) == ["faq.csv", "returns.txt", "security.html", "setup.md", "sorting.md"]
    [pairs] = qa.dataframe
    assert "パスワードを忘れました" in list(pairs.value["質問"])
    assert any("PDF の領収書" in answer for answer in pairs.value["回答"])
    assert not app.chat_input[0].disabled


def test_an_answer_shows_its_citations_and_thought_process_and_the_history_clears(workspace: Path) -> None:
    app = add_documents(open_page())
    app.chat_input[0].set_value("パスワードを忘れたときはどうすればいいですか").run()
    assert not app.exception, app.exception
    user, assistant = app.chat_message
    assert user.markdown[0].value == "パスワードを忘れたときはどうすればいいですか"
    answer = " ".join(str(block.value) for block in assistant.markdown)
    assert "パスワードを忘れた方" in answer
    assert "**根拠**" in answer and "`faq.csv#0`" in answer  # the citation under the answer
    [thought] = assistant.expander
    assert thought.label == "思考プロセス"
    assert any("search_rag_knowledge_base" in str(code.value) for code in thought.code)
    assert any("推敲（Reflection）" in str(block.value) for block in thought.markdown)

    app.chat_input[0].set_value("社員食堂の営業時間は？").run()  # asked with the first turn as history
    assert len(app.chat_message) == 4
    assert any("未回答の質問として記録しました" in text for text in notices_of(app))

    app.button(key="knowledge-clear").click().run()
    assert not app.chat_message
    assert any("会話履歴を消去しました" in text for text in notices_of(app))
