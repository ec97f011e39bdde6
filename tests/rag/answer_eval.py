"""An evaluation set for the knowledge answerer: the fixture corpus plus a few more documents, and
questions labelled with the source that answers them and a phrase the answer must quote, or with
no source when the corpus cannot answer (the answerer must abstain).

Kinds: where, what, steps, setting (what a setting means), option (what an option does), number,
definition; asked in Japanese and English, over documents in the same and in the other language.
Used by tests/agents/test_knowledge_answer_eval.py (a floor) and benchmarks/knowledge_answers.py
(the table).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.rag.corpus import write_corpus

PRINTER_TXT = """\
プリンター PX-200 取扱説明書

各部の名称
電源ボタンは本体の右側面にあります。
用紙トレイは本体の前面下部にあり、A4用紙を最大250枚セットできます。

用紙の補充
1. 用紙トレイを手前に引き出します。
2. 用紙ガイドを用紙のサイズに合わせます。
3. 印刷面を下にして用紙をセットし、トレイを奥まで押し込みます。

エラーコード
E02: 紙詰まりが発生しています。背面カバーを開けて詰まった用紙を取り除いてください。
E05: インクが残りわずかです。
E09: 本体内部の温度が高すぎます。電源を切って30分待ってください。

省エネ設定
スリープまでの時間: 操作がないときに省電力モードへ移るまでの時間です。初期値は5分です。
自動電源オフ: 指定した時間だけ操作がないと電源が切れます。
"""

CLI_MD = """\
# Command reference

## bunseki run

Runs an analysis script in the sandbox.

- `--timeout SECONDS`: how long one cell may run before it is stopped. The default is 180 seconds.
- `--memory MB`: the memory limit of the sandbox in megabytes.
- `--format text|json`: the output format of the answer.
- `--no-network`: blocks every network connection from the sandbox.

## bunseki export

Exports a finished report. Run `bunseki export REPORT_ID --to html` to write a self-contained HTML file.
The notebook export re-runs the analysis from the original data.

## Glossary

A snapshot is a saved copy of the current data that can be restored later.
A cell is one piece of code that the sandbox runs at a time.
"""

SETTINGS_MD = """\
# 環境設定リファレンス

## 環境変数

- `BUNSEKI_DATABASE_URL`: セッションと履歴を保存するデータベースの接続先です。未設定の場合は SQLite を使います。
- `BUNSEKI_LOG_LEVEL`: ログの詳細度です。DEBUG、INFO、WARNING のいずれかを指定します。
- `BUNSEKI_MAX_UPLOAD_MB`: アップロードできるファイルの最大サイズ（MB）です。既定値は200です。

## 用語

ワークスペースとは、セッションのデータ、グラフ、レポートを保存するフォルダのことです。
ナレッジベースとは、質問に答えるために取り込んだ文書の集まりです。
"""


def write_eval_corpus(root: Path) -> Path:
    """The fixture corpus and the evaluation's own documents under ``root``."""
    write_corpus(root)
    (root / "manuals" / "printer.txt").write_text(PRINTER_TXT, encoding="utf-8")
    (root / "manuals" / "cli.md").write_text(CLI_MD, encoding="utf-8")
    (root / "manuals" / "settings.md").write_text(SETTINGS_MD, encoding="utf-8")
    return root


@dataclass(frozen=True)
class Case:
    """A question; ``source`` and ``phrase`` say where its answer is (None: it must abstain)."""

    question: str
    kind: str
    source: str | None = None
    phrase: str | None = None
    written_in: str | None = None  # the answering document's language, when not one of this corpus's

    @property
    def direction(self) -> str:
        """ja, en, ja→en, en→ja, or 'none' for questions the corpus cannot answer."""
        if self.source is None:
            return "none"
        asked = "ja" if any(ord(char) > 0x3000 for char in self.question) else "en"
        written_in = self.written_in or _document_language(self.source)
        return asked if written_in == asked else f"{asked}→{_other(asked)}"


_ENGLISH_SOURCES = ("guide/security.html", "faq/account.xlsx", "en/sorting.md", "manuals/cli.md")


def _document_language(source: str) -> str:
    return "en" if source in _ENGLISH_SOURCES else "ja"


def _other(language: str) -> str:
    return "en" if language == "ja" else "ja"


MAINTENANCE, RETURNS, DELIVERY = "papers/maintenance.pdf", "notes/returns.txt", "notes/delivery.txt"
SETUP, FAQ, ACCOUNT, SECURITY = "manuals/setup.md", "faq/faq.csv", "faq/account.xlsx", "guide/security.html"
SORTING, SEARCH, PRINTER, CLI, SETTINGS = (
    "en/sorting.md",
    "code/search.py",
    "manuals/printer.txt",
    "manuals/cli.md",
    "manuals/settings.md",
)

CASES: list[Case] = [
    # Japanese over Japanese
    Case("ポンプの点検はいつ行いますか", "number", MAINTENANCE, "第1月曜日"),
    Case("フィルターの交換頻度は？", "number", MAINTENANCE, "3か月ごと"),
    Case("返品できるのは何日以内ですか", "number", RETURNS, "14日以内"),
    Case("返品の送料は誰が負担しますか", "what", RETURNS, "お客様のご負担"),
    Case("初期不良の商品はどうなりますか", "what", RETURNS, "新品と交換"),
    Case("注文してから何日で発送されますか", "number", DELIVERY, "3営業日"),
    Case("お届け日時を変更するには", "steps", DELIVERY, "注文確認画面"),
    Case("離島への配送は遅れますか", "what", DELIVERY, "数日かかる"),
    Case("必要な Python のバージョンは？", "number", SETUP, "3.11"),
    Case("インストールが終わったら何を実行しますか", "steps", SETUP, "bunseki doctor"),
    Case("QDRANT_API_KEY は何のための設定ですか", "setting", SETUP, "認証"),
    Case("分析結果はどこに保存されますか", "where", SETUP, "BUNSEKI_WORKSPACE_ROOT"),
    Case("グラフの日本語が豆腐になるときは", "steps", SETUP, "フォント"),
    Case("サンドボックスが起動しないときは", "steps", SETUP, "bubblewrap"),
    Case("領収書は発行できますか", "what", FAQ, "領収書をダウンロード"),
    Case("支払い方法を教えてください", "what", FAQ, "クレジットカード"),
    Case("文字化けしたときの対処法は？", "steps", SETUP, "文字コード"),
    Case("プリンターの電源ボタンはどこにありますか", "where", PRINTER, "右側面"),
    Case("用紙を補充する手順を教えてください", "steps", PRINTER, "用紙トレイを手前に引き出します"),
    Case("エラーコード E02 はどういう意味ですか", "setting", PRINTER, "紙詰まり"),
    Case("E09 が表示されたらどうすればいいですか", "steps", PRINTER, "30分待って"),
    Case("用紙トレイには何枚セットできますか", "number", PRINTER, "250枚"),
    Case("「スリープまでの時間」は何の設定ですか", "setting", PRINTER, "省電力モード"),
    Case("BUNSEKI_LOG_LEVEL は何を設定しますか", "setting", SETTINGS, "ログの詳細度"),
    Case("BUNSEKI_DATABASE_URL を設定しないとどうなりますか", "setting", SETTINGS, "SQLite"),
    Case("アップロードできるファイルの最大サイズは？", "number", SETTINGS, "200"),
    Case("ワークスペースとは何ですか", "definition", SETTINGS, "保存するフォルダ"),
    Case("ナレッジベースとは？", "definition", SETTINGS, "文書の集まり"),
    # English over English
    Case("How long until an idle session is signed out?", "number", SECURITY, "30 minutes"),
    Case("How do I enable two-factor authentication?", "steps", SECURITY, "Enable two-factor"),
    Case("Can I cancel my order?", "what", ACCOUNT, "until they are shipped"),
    Case("What is the time complexity of merge sort?", "number", SORTING, "O(n log n)"),
    Case("What is the worst case of quicksort?", "what", SORTING, "quadratic"),
    Case("What does the --timeout option do?", "option", CLI, "how long one cell may run"),
    Case("What is the default timeout of a cell?", "number", CLI, "180 seconds"),
    Case("How do I block network access from the sandbox?", "option", CLI, "--no-network"),
    Case("How do I export a report as HTML?", "steps", CLI, "--to html"),
    Case("What is a snapshot?", "definition", CLI, "saved copy"),
    Case("What does LruCache evict when it is full?", "what", SEARCH, "oldest entry"),
    # Japanese over English
    Case("緊急停止ボタンはどこ？", "where", MAINTENANCE, "left side of the control panel"),
    Case("マージソートの計算量は？", "number", SORTING, "O(n log n)"),
    Case("二段階認証を有効にする方法は？", "steps", SECURITY, "Enable two-factor"),
    Case("メールアドレスを変更するには？", "steps", ACCOUNT, "Edit e-mail"),
    Case("注文はキャンセルできますか", "what", ACCOUNT, "until they are shipped"),
    Case("クイックソートの最悪の場合の計算量は？", "what", SORTING, "quadratic"),
    Case("セッションは何分でサインアウトされますか", "number", SECURITY, "30 minutes"),
    Case("--memory オプションは何を指定しますか", "option", CLI, "memory limit"),
    Case("--format オプションの意味は？", "option", CLI, "output format"),
    Case("レポートを HTML で出力するには？", "steps", CLI, "--to html"),
    Case("スナップショットとは何ですか", "definition", CLI, "saved copy"),
    # English over Japanese
    Case("Where is the power button of the printer?", "where", PRINTER, "右側面"),
    Case("What does error code E05 mean?", "setting", PRINTER, "インクが残りわずか"),
    Case("How many sheets does the paper tray hold?", "number", PRINTER, "250枚"),
    Case("How often should the pump be inspected?", "number", MAINTENANCE, "第1月曜日"),
    Case("How often should the filter be replaced?", "number", MAINTENANCE, "3か月ごと"),
    Case("Within how many days can I return an item?", "number", RETURNS, "14日以内"),
    Case("How long does delivery take?", "number", DELIVERY, "3営業日"),
    Case("What should I do if I forgot my password?", "steps", FAQ, "パスワードを忘れた方"),
    Case("Which payment methods are accepted?", "what", FAQ, "クレジットカード"),
    Case("Which Python version is required?", "number", SETUP, "3.11"),
    Case("How can several processes use the same knowledge base?", "setting", SETUP, "QDRANT_URL"),
    Case("What does BUNSEKI_LOG_LEVEL control?", "setting", SETTINGS, "ログの詳細度"),
    Case("What is the maximum upload size?", "number", SETTINGS, "200"),
    Case("What does binary_search return when the value is not found?", "what", SEARCH, "-1"),
    # Not in the corpus: the answerer must abstain
    Case("消費税率は何パーセントですか", "none"),
    Case("社員食堂の営業時間は？", "none"),
    Case("Who won the 2020 World Cup?", "none"),
    Case("What is the capital of Australia?", "none"),
    Case("有給休暇は何日ありますか", "none"),
    Case("プリンターのインク代はいくらですか", "none"),
    Case("What is the warranty period of the printer?", "none"),
    Case("返品の受付時間は何時までですか", "none"),
    Case("How do I delete my account?", "none"),
    Case("ヒープソートの計算量は？", "none"),
    Case("海外への配送はできますか", "none"),
    Case("How do I reset the printer to factory settings?", "none"),
    Case("サンドボックスで GPU は使えますか", "none"),
    Case("Which port does the API server listen on?", "none"),
    Case("パスワードは最低何文字必要ですか", "none"),
    Case("How much does shipping cost?", "none"),
    Case("エラーコード E07 の意味は？", "none"),
    Case("What is the default value of the --memory option?", "none"),
]


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: str
    sources: list[str]
    final: str

    @property
    def correct(self) -> bool:
        if self.case.source is None:
            return self.status == "unanswered"
        phrase = _normal(self.case.phrase or "")
        return self.status == "answered" and self.case.source in self.sources and phrase in _normal(self.final)

    @property
    def verdict(self) -> str:
        if self.correct:
            return "abstained" if self.case.source is None else "correct"
        if self.status == "unanswered":
            return "missed"
        return "wrong"


def _normal(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).lower()


Asker = Callable[[str], dict[str, Any]]


def evaluate(ask: Asker, cases: list[Case] = CASES) -> list[Outcome]:
    """Ask every question; ``ask`` returns the graph's output (status, final, passages, cited)."""
    outcomes: list[Outcome] = []
    for case in cases:
        out = ask(case.question)
        sources = [out["passages"][number - 1].source for number in out.get("cited", [])]
        outcomes.append(Outcome(case, out["status"], sources, out.get("final") or ""))
    return outcomes


def table(outcomes: list[Outcome]) -> str:
    """Correct / total by direction and by kind, as Markdown."""
    rows = ["| group | n | correct | wrong | missed (abstained) |", "|---|---|---|---|---|"]

    def add(label: str, group: list[Outcome]) -> None:
        counts = Counter(outcome.verdict for outcome in group)
        good = counts["correct"] + counts["abstained"]
        rate = f"{good} ({good / len(group):.0%})"
        rows.append(f"| {label} | {len(group)} | {rate} | {counts['wrong']} | {counts['missed']} |")

    for direction in ("ja", "en", "ja→en", "en→ja", "none"):
        group = [outcome for outcome in outcomes if outcome.case.direction == direction]
        if group:
            add(f"asked {direction}" if direction != "none" else "unanswerable (must abstain)", group)
    for kind in sorted({outcome.case.kind for outcome in outcomes} - {"none"}):
        add(f"kind {kind}", [outcome for outcome in outcomes if outcome.case.kind == kind])
    answerable = [outcome for outcome in outcomes if outcome.case.source is not None]
    add("answerable, all", answerable)
    add("all", outcomes)
    return "\n".join(rows)
