"""A small Japanese + English corpus in every format and encoding the knowledge base reads, and
questions labelled with the chunk that answers them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib
import pandas as pd

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import matplotlib_fontja  # noqa: F401  (registers a Japanese font)

SETUP_MD = """\
# Bunseki 導入ガイド

Bunseki は日本語と英語で質問できるデータ分析エージェントです。

## インストール

Python 3.11 以上が必要です。仮想環境を作成してから pip でインストールしてください。
インストールが終わったら `bunseki doctor` を実行して、サンドボックスが使えるかどうかを確認します。

## 設定

### Qdrant サーバー

既定では Qdrant はワークスペースの中で組み込みモードとして動きます。
複数のプロセスから同じナレッジベースを使う場合は、環境変数 QDRANT_URL にサーバーの URL を設定し、
認証が必要なら QDRANT_API_KEY も設定してください。

### ワークスペース

分析結果とデータベースは BUNSEKI_WORKSPACE_ROOT で指定したディレクトリに保存されます。

## トラブルシューティング

文字化けする場合は、ファイルの文字コードを確認してください。UTF-8、CP932、EUC-JP は自動で判定されます。
それでも読めない場合は UTF-8 で保存し直してください。
グラフの日本語が豆腐になる場合は、フォントが入っているか確認します。
メモリ不足で処理が止まる場合は、データを分割して読み込むか、サンドボックスのメモリ上限を引き上げてください。
サンドボックスが起動しない場合は bubblewrap がインストールされているか確認します。
"""

RETURNS_CP932 = """\
返品と交換について

商品到着後14日以内であれば、未使用品に限り返品を受け付けます。
返品をご希望の場合は、注文番号を添えてサポート窓口へご連絡ください。返送料はお客様のご負担となります。

初期不良の場合は、送料当社負担で新品と交換いたします。
"""

DELIVERY_EUCJP = """\
配送について

ご注文から通常3営業日以内に発送し、発送後1〜2日でお届けします。
離島や一部地域では、お届けまでにさらに数日かかる場合があります。

お届け日時の指定は、注文確認画面から変更できます。
"""

SECURITY_HTML = """\
<!doctype html>
<html>
<head><title>Account security</title><style>body { color: #333 }</style></head>
<body>
<nav>Home | Help</nav>
<h1>Account security</h1>
<p>Keep your account safe with a strong password and a second factor.</p>
<h2>Two-factor authentication</h2>
<p>Open <b>Settings &gt; Security</b> and choose <em>Enable two-factor authentication</em>.
Scan the QR code with an authenticator app and enter the six-digit code.</p>
<h2>Session timeout</h2>
<p>Idle sessions are signed out automatically after 30 minutes.</p>
<script>var tracking = "do not index this script";</script>
</body>
</html>
"""

SEARCH_PY = '''\
"""Searching sorted sequences."""

import bisect


def binary_search(items, target):
    """整列済みのリストから値を二分探索で探し、その位置を返す。見つからなければ -1 を返す。"""
    index = bisect.bisect_left(items, target)
    if index < len(items) and items[index] == target:
        return index
    return -1


class LruCache:
    """A least-recently-used cache that evicts the oldest entry when it is full."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.entries = {}
'''

MERGE_SORT_MD = """\
# Sorting notes

## Merge sort

Merge sort splits the list in halves, sorts each half recursively and merges the two sorted halves.
It runs in O(n log n) time in every case and needs O(n) extra memory.

## Quicksort

Quicksort picks a pivot and partitions the list around it. Its worst case is quadratic.
"""

FAQ_CSV_ROWS = [
    (
        "パスワードを忘れました",
        "ログイン画面の「パスワードを忘れた方」を選び、登録メールアドレスに届くリンクから再設定してください。",
    ),
    ("領収書は発行できますか", "注文履歴の画面から PDF の領収書をダウンロードできます。"),
    ("支払い方法は何がありますか", "クレジットカード、銀行振込、コンビニ払いに対応しています。"),
]

FAQ_XLSX_ROWS = [
    (
        "How do I change my e-mail address?",
        "Go to Profile, choose Edit e-mail, and confirm the link we send to the new address.",
    ),
    ("Can I cancel an order?", "Orders can be cancelled until they are shipped, from the Orders page."),
]

PDF_LINES = [
    "設備点検マニュアル",
    "ポンプは毎月第1月曜日に点検し、振動と異音を記録すること。",
    "フィルターは3か月ごとに交換する。",
    "The emergency stop button is located on the left side of the control panel.",
]


def write_pdf(path: Path, lines: list[str]) -> None:
    """A one-page PDF whose text layer holds ``lines`` (TrueType fonts, so Japanese extracts)."""
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure = plt.figure(figsize=(8.27, 11.69))
        for number, line in enumerate(lines):
            figure.text(0.08, 0.92 - 0.04 * number, line, fontsize=11)
        figure.savefig(path)
        plt.close(figure)


def write_corpus(root: Path) -> Path:
    """Write the corpus under ``root`` (created) and return ``root``."""
    for folder in ("manuals", "notes", "guide", "code", "faq", "en", "papers"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "manuals" / "setup.md").write_text(SETUP_MD, encoding="utf-8")
    (root / "notes" / "returns.txt").write_bytes(RETURNS_CP932.encode("cp932"))
    (root / "notes" / "delivery.txt").write_bytes(DELIVERY_EUCJP.encode("euc_jp"))
    (root / "guide" / "security.html").write_text(SECURITY_HTML, encoding="utf-8")
    (root / "code" / "search.py").write_text(SEARCH_PY, encoding="utf-8")
    (root / "en" / "sorting.md").write_text(MERGE_SORT_MD, encoding="utf-8")
    faq = pd.DataFrame(FAQ_CSV_ROWS, columns=["質問", "回答"])
    (root / "faq" / "faq.csv").write_bytes(faq.to_csv(index=False).encode("cp932"))
    pd.DataFrame(FAQ_XLSX_ROWS, columns=["Question", "Answer"]).to_excel(root / "faq" / "account.xlsx", index=False)
    write_pdf(root / "papers" / "maintenance.pdf", PDF_LINES)
    (root / ".git").mkdir(exist_ok=True)
    (root / ".git" / "notes.md").write_text("# hidden\n\nnot a document", encoding="utf-8")
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return root


@dataclass(frozen=True)
class Question:
    """A question and where its answer is: the source, and a phrase the answering chunk contains."""

    text: str
    source: str
    phrase: str
    kind: str  # ja, en, cross (asked in one language, answered in the other), code


QUESTIONS = [
    Question("パスワードを忘れたときはどうすればいいですか", "faq/faq.csv", "パスワードを忘れた方", "ja"),
    Question("買った商品を送り返したい", "notes/returns.txt", "返品", "ja"),
    Question("荷物はいつ届きますか", "notes/delivery.txt", "3営業日", "ja"),
    Question("複数のプロセスで同じナレッジベースを使うには？", "manuals/setup.md", "QDRANT_URL", "ja"),
    Question("ポンプの点検はいつ行いますか", "papers/maintenance.pdf", "第1月曜日", "ja"),
    Question("How do I turn on two-factor authentication?", "guide/security.html", "Enable two-factor", "en"),
    Question("How can I change my email address?", "faq/account.xlsx", "Edit e-mail", "en"),
    Question("Which sorting algorithm needs extra memory but is always n log n?", "en/sorting.md", "Merge sort", "en"),
    Question("How long does delivery take?", "notes/delivery.txt", "3営業日", "cross"),
    Question("Can I return a product I bought?", "notes/returns.txt", "返品", "cross"),
    Question("サンドボックスのメモリが足りないときは", "manuals/setup.md", "メモリ不足", "ja"),
    Question("二分探索の関数", "code/search.py", "binary_search", "code"),
]
