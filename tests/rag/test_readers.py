"""Reading every document format and encoding into titled sections."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest

from bunseki.errors import DocumentReadError
from bunseki.rag.models import Document
from bunseki.rag.readers import read_document
from tests.rag.corpus import write_pdf


def read(corpus: Path, source: str) -> Document:
    path = corpus / source
    return read_document(path, source, path.read_bytes())


def all_text(document: Document) -> str:
    return "\n".join(block for section in document.sections for block in section.blocks)


def test_markdown_title_and_heading_paths(corpus: Path) -> None:
    document = read(corpus, "manuals/setup.md")
    assert document.kind == "markdown"
    assert document.title == "Bunseki 導入ガイド"
    headings = [section.heading for section in document.sections]
    # "設定" has no text of its own, so it only shows in the paths of its subsections.
    assert headings == ["", "インストール", "設定 > Qdrant サーバー", "設定 > ワークスペース", "トラブルシューティング"]
    qdrant = document.sections[2]
    assert "QDRANT_URL" in qdrant.blocks[0]


def test_markdown_keeps_a_fenced_block_whole_and_ignores_hashes_inside_it(tmp_path: Path) -> None:
    path = tmp_path / "code.md"
    path.write_text("# T\n\n## Run\n\n```sh\n# not a heading\n\nmake demo\n```\n\nafter\n", encoding="utf-8")
    document = read_document(path, "code.md", path.read_bytes())
    assert [section.heading for section in document.sections] == ["Run"]
    assert document.sections[0].blocks == ("```sh\n# not a heading\n\nmake demo\n```", "after")


@pytest.mark.parametrize(
    ("source", "phrase"),
    [("notes/returns.txt", "商品到着後14日以内"), ("notes/delivery.txt", "通常3営業日以内に発送")],
    ids=["cp932", "euc-jp"],
)
def test_japanese_legacy_encodings_are_detected(corpus: Path, source: str, phrase: str) -> None:
    document = read(corpus, source)
    assert document.kind == "text"
    assert document.title == all_text(document).split("\n")[0]  # the first line, standing alone
    assert phrase in all_text(document)
    assert len(document.sections[0].blocks) == 3  # paragraphs split at blank lines


def test_html_headings_title_and_no_script_or_style(corpus: Path) -> None:
    document = read(corpus, "guide/security.html")
    assert document.title == "Account security"
    by_heading = {section.heading: section.blocks for section in document.sections}
    assert "Open Settings > Security and choose Enable two-factor authentication." in by_heading[
        "Two-factor authentication"
    ][0].replace("\n", " ")
    assert by_heading["Session timeout"] == ("Idle sessions are signed out automatically after 30 minutes.",)
    text = all_text(document)
    assert "tracking" not in text
    assert "color" not in text


def test_pdf_text_is_read_page_by_page(corpus: Path) -> None:
    document = read(corpus, "papers/maintenance.pdf")
    assert document.kind == "pdf"
    assert document.title == "設備点検マニュアル"
    assert document.sections[0].heading == "p. 1"
    text = all_text(document)
    assert "ポンプは毎月第1月曜日に点検し" in text
    assert "emergency stop button" in text


def test_pdf_without_text_and_a_damaged_pdf_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "scan.pdf"
    write_pdf(empty, [])
    with pytest.raises(DocumentReadError, match=r"OCR"):
        read_document(empty, "scan.pdf", empty.read_bytes())
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\n1 0 obj <</Type /Catalog" + b"\x00" * 50)
    with pytest.raises(DocumentReadError, match=r"damaged.pdf"):
        read_document(damaged, "damaged.pdf", damaged.read_bytes())


def test_damaged_pdfs_are_read_or_refused_never_crash(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    write_pdf(path, ["設備点検マニュアル", "ポンプは毎月点検する。", "Check the pump every month."])
    raw = path.read_bytes()
    rng = random.Random(12)
    outcomes = set()
    for attempt in range(60):
        damaged = bytearray(raw)
        if attempt % 3 == 0:
            damaged = damaged[: rng.randrange(len(damaged))]
        elif attempt % 3 == 1:
            for _ in range(rng.randint(1, 20)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        else:
            start = rng.randrange(len(damaged))
            del damaged[start : start + rng.randint(1, 500)]
        try:
            read_document(path, "manual.pdf", bytes(damaged))
            outcomes.add("read")
        except DocumentReadError as exc:
            assert str(exc).startswith("manual.pdf: ")
            outcomes.add("refused")
    assert outcomes == {"read", "refused"}


def test_source_code_is_split_at_top_level_definitions(corpus: Path) -> None:
    document = read(corpus, "code/search.py")
    assert document.kind == "code"
    assert document.title == "search.py"
    headings = [section.heading for section in document.sections]
    assert headings == ["", "def binary_search(items, target)", "class LruCache"]
    assert "二分探索" in document.sections[1].blocks[0]
    assert "def __init__" in document.sections[2].blocks[0]  # methods stay with their class


def test_qa_tables_give_one_section_per_pair(corpus: Path) -> None:
    csv = read(corpus, "faq/faq.csv")  # CP932, columns 質問/回答
    assert csv.kind == "qa"
    assert [section.heading for section in csv.sections] == [
        "パスワードを忘れました",
        "領収書は発行できますか",
        "支払い方法は何がありますか",
    ]
    assert csv.sections[0].blocks[0].startswith("Q: パスワードを忘れました\nA: ログイン画面の")
    xlsx = read(corpus, "faq/account.xlsx")  # columns Question/Answer
    assert len(xlsx.sections) == 2
    assert "Edit e-mail" in xlsx.sections[0].blocks[0]


def test_qa_table_rows_without_an_answer_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "faq.csv"
    pd.DataFrame({"question": ["Asked?", "Unanswered?"], "answer": ["Yes.", None]}).to_csv(path, index=False)
    document = read_document(path, "faq.csv", path.read_bytes())
    assert [section.heading for section in document.sections] == ["Asked?"]


def test_a_table_without_question_and_answer_columns_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sales.csv"
    path.write_text("地域,売上\n関東,100\n", encoding="utf-8")
    with pytest.raises(DocumentReadError, match=r"question column.*地域, 売上"):
        read_document(path, "sales.csv", path.read_bytes())


def test_unsupported_types_and_undecodable_text_are_refused(tmp_path: Path) -> None:
    image = tmp_path / "photo.png"
    image.write_bytes(b"\x89PNG\r\n")
    with pytest.raises(DocumentReadError, match=r"'.png' are not read"):
        read_document(image, "photo.png", image.read_bytes())
    utf16 = tmp_path / "notes.txt"
    utf16.write_bytes("メモ".encode("utf-16"))
    with pytest.raises(DocumentReadError, match=r"notes.txt: .*UTF-16"):
        read_document(utf16, "notes.txt", utf16.read_bytes())


def _write_manual_docx(path: Path) -> None:
    """A Word manual as people write them: headings, a bulleted list, a table, paragraphs."""
    import docx  # python-docx (a dev dependency): only the tests write Word files

    document = docx.Document()
    document.add_heading("受発注システム 操作マニュアル", level=1)
    document.add_paragraph("この手引きは受発注システムの日常の操作を説明します。")
    document.add_heading("ログイン", level=2)
    document.add_paragraph("社員番号とパスワードを入力して「ログイン」を押します。")
    document.add_paragraph("パスワードは90日ごとに変更が必要です。", style="List Bullet")
    document.add_paragraph("5回続けて間違えるとアカウントがロックされます。", style="List Bullet")
    document.add_heading("設定項目", level=2)
    entries = [
        ("項目", "説明"),
        ("AUTO_LOGOUT", "操作がないときに自動でログアウトするまでの分数"),
        ("MAIL_FROM", "通知メールの送信元アドレス"),
    ]
    table = document.add_table(rows=len(entries), cols=2)
    for row, (name, meaning) in zip(table.rows, entries, strict=True):
        row.cells[0].text, row.cells[1].text = name, meaning
    document.save(str(path))


def test_word_documents_keep_headings_lists_and_tables(tmp_path: Path) -> None:
    path = tmp_path / "manual.docx"
    _write_manual_docx(path)
    document = read_document(path, "manual.docx", path.read_bytes())
    assert document.kind == "word" and document.title == "受発注システム 操作マニュアル"
    headings = [section.heading for section in document.sections]
    assert "ログイン" in headings and "設定項目" in headings
    login = next(section for section in document.sections if section.heading == "ログイン")
    assert "パスワードは90日ごとに変更が必要です。" in login.blocks
    settings = "\n".join(next(section for section in document.sections if section.heading == "設定項目").blocks)
    assert "AUTO_LOGOUT" in settings and "自動でログアウトするまでの分数" in settings


def test_a_damaged_word_document_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(DocumentReadError, match=r"broken.docx.*save it again as .docx"):
        read_document(path, "broken.docx", path.read_bytes())


MAN_PAGE = """\
DU(1)                          ユーザーコマンド                          DU(1)



名前
       du - ファイルのディスク使用量を推定する

説明
       各ファイルのディスク使用量を集計します。ディレクトリは再帰的に処理されます。

       -a, --all
              ディレクトリだけでなく、全てのファイルについて表示する

       --apparent-size
              ディスク使用量ではなく実際のサイズを表示する。実際の
              サイズは通常小さくなる。

       -k                    --block-size=1K と同様

   Exit status
       The exit status is 0 on success. An archive that cannot be  lo‐
       cated is an error.

著作権
       Copyright  ©  2020  Free Software Foundation, Inc.  License GPLv3+: GNU GPL version 3 or later.

GNU coreutils 8.32                 2021年5月                             DU(1)
"""

RST = """\
Control files
=============

The fields of a stanza are listed below.

simple
    The field, including its value, must be a single line.

folded
    The value of a folded field is a logical line that may span
    several lines.

See ``debian/control`` and :ref:`the policy <s-policy>` for more.
"""


def test_man_pages_keep_each_option_with_its_description(tmp_path: Path) -> None:
    path = tmp_path / "du.1.txt"
    path.write_text(MAN_PAGE, encoding="utf-8")
    document = read_document(path, "du.1.txt", path.read_bytes())
    assert document.title == "DU(1)"
    sections = {section.heading: section.blocks for section in document.sections}
    assert list(sections) == ["名前", "説明", "Exit status"]  # no running head or footer, no copyright
    assert "-a, --all: ディレクトリだけでなく、全てのファイルについて表示する" in sections["説明"]
    assert (
        "--apparent-size: ディスク使用量ではなく実際のサイズを表示する。実際のサイズは通常小さくなる。"
        in sections["説明"]
    )
    assert "-k: --block-size=1K と同様" in sections["説明"]
    assert "An archive that cannot be located is an error." in sections["Exit status"][0]  # lo‐ cated put back


def test_restructured_text_definitions_headings_and_markup(tmp_path: Path) -> None:
    path = tmp_path / "fields.rst.txt"
    path.write_text(RST, encoding="utf-8")
    document = read_document(path, "fields.rst.txt", path.read_bytes())
    assert document.title == "Control files"
    blocks = document.sections[0].blocks
    assert "simple: The field, including its value, must be a single line." in blocks
    assert "folded: The value of a folded field is a logical line that may span several lines." in blocks
    assert "See debian/control and the policy for more." in blocks


def test_plain_text_lines_that_are_entries_or_sentences_stay_lines(tmp_path: Path) -> None:
    path = tmp_path / "codes.txt"
    path.write_text("エラーコード\nE02: 紙詰まりです。\nE05: インクが残りわずかです。\n", encoding="utf-8")
    blocks = read_document(path, "codes.txt", path.read_bytes()).sections[0].blocks
    assert blocks == ("エラーコード\nE02: 紙詰まりです。\nE05: インクが残りわずかです。",)


def test_html_definition_lists_tables_and_page_furniture(tmp_path: Path) -> None:
    page = """<html><head><title>ls</title></head><body>
    <div class="navheader"><table><tr><td>Prev</td><td>Next</td></tr></table></div>
    <h1>ls</h1>
    <dl><dt>-a</dt><dt>--all</dt><dd><p>do not ignore entries.</p><p>Implies nothing else.</p></dd>
    <dt><code>search</code></dt><dd><p>パッケージを検索します。</p></dd></dl>
    <table><tr><th>package</th><th>size</th></tr><tr><td>aptitude</td><td>4.3 MB</td></tr></table>
    <div class="footer">© Copyright 2023. Created using Sphinx.</div>
    </body></html>"""
    path = tmp_path / "ls.html"
    path.write_text(page.replace("<title>ls</title>", "<title>ls(1) manual page</title>"), encoding="utf-8")
    document = read_document(path, "ls.html", path.read_bytes())
    assert document.title == "ls(1) manual page"  # the <title> inside the skipped <head>
    blocks = document.sections[-1].blocks
    assert blocks == (
        "-a, --all: do not ignore entries.",
        "-a, --all: Implies nothing else.",
        "search: パッケージを検索します。",
        "package: size",
        "aptitude: 4.3 MB",
    )


@pytest.mark.parametrize(
    "block",
    [
        "Copyright © 2020 Free Software Foundation, Inc.",
        "Permission is granted to make and distribute verbatim copies of this manual.",
        "This program is free software; you can redistribute it and/or modify it.",
        "Last updated on 2023-05-01.",
        "最終更新: 2023年5月1日",
        "Version 2.100 (2023-05-01)",
    ],
)
def test_notices_and_stamps_are_boilerplate(block: str) -> None:
    from bunseki.rag.boilerplate import is_boilerplate

    assert is_boilerplate(block)


@pytest.mark.parametrize(
    "block",
    [
        "Debian のパッケージは DFSG に従うライセンスで配布されます。",
        "The copyright file of a package is /usr/share/doc/package/copyright.",
        "Use --version to print the version and exit.",
    ],
)
def test_content_about_licences_and_versions_is_not_boilerplate(block: str) -> None:
    from bunseki.rag.boilerplate import is_boilerplate

    assert not is_boilerplate(block)
