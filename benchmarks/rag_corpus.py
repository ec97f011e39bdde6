"""The retrieval benchmark's corpus (Japanese and English company documents in every format the
knowledge base reads) and its labelled questions. Written for this benchmark; separate from the
tests' corpus so that nothing is tuned on what it is measured with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib
import pandas as pd

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import matplotlib_fontja  # noqa: F401  (registers a Japanese font for the PDF)

MARKDOWN = {
    "hr/leave.md": """\
# 休暇制度

## 年次有給休暇

入社6か月後に10日の年次有給休暇を付与します。その後は勤続年数に応じて1年ごとに付与日数が増え、最大20日となります。
未使用の有給休暇は翌年度に限り繰り越すことができます。

## 特別休暇

本人の結婚の場合は5日、配偶者の出産の場合は2日の特別休暇を取得できます。
忌引休暇は、父母・配偶者・子の場合は5日、祖父母・兄弟姉妹の場合は3日です。

## 育児休業

子が1歳になるまで育児休業を取得できます。保育所に入れない場合などは、最長で子が2歳になるまで延長できます。
育児休業の申請は、開始予定日の1か月前までに人事部へ提出してください。
""",
    "hr/expenses.md": """\
# 経費精算の手引き

## 申請期限

経費は月末で締め、翌月10日までに経費精算システムから申請してください。期限を過ぎた申請は原則として受け付けません。
申請には必ず領収書の画像を添付します。

## 交通費

交通費は経路検索で表示される最も安い経路の運賃を上限として支給します。タクシーの利用は深夜や荷物が多い場合に限ります。

## 出張

国内出張の日当は1日あたり2,000円、海外出張は1日あたり5,000円です。宿泊費は1泊12,000円を上限とします。
""",
    "it/vpn.md": """\
# VPN 接続手順

社外から社内システムを利用するには VPN 接続が必要です。

## 初回設定

GlobalProtect クライアントをインストールし、ポータルに vpn.example.co.jp を入力します。
社員番号とパスワードでサインインした後、スマートフォンの認証アプリで多要素認証を行います。

## 接続できないとき

まずクライアントを再起動してください。それでも接続できない場合は、クライアントのキャッシュを削除してから再度サインインします。
解決しない場合はヘルプデスク（内線 4100）へ連絡してください。
""",
    "eng/deploy.md": """\
# Deployment guide

## Blue-green deployment

Every release is deployed to the idle colour first. Health checks run every 10 seconds, and traffic
switches only after 6 consecutive checks pass.

## Rolling back

To roll back, run `deployctl rollback --to <release>`. The previous colour stays warm for 2 hours after
a switch, so a rollback within that window takes less than a minute.
""",
    "eng/oncall.md": """\
# On-call handbook

## Escalation

If the primary on-call engineer does not acknowledge a page within 15 minutes, it escalates to the
secondary, and after another 15 minutes to the engineering manager.

## Severity levels

SEV1 means customers cannot use the product; SEV2 means a major feature is degraded; SEV3 covers
minor issues with a workaround. Every SEV1 and SEV2 incident needs a postmortem within 5 business days.
""",
}

PASSWORD_POLICY_CP932 = """\
パスワードポリシー

パスワードは12文字以上とし、英大文字・英小文字・数字・記号のうち3種類以上を含めてください。
パスワードは90日ごとに変更が必要です。過去5世代と同じパスワードは再利用できません。

サインインに5回続けて失敗すると、アカウントは30分間ロックされます。
"""

MEETING_ROOMS_EUCJP = """\
会議室の予約について

会議室は利用日の2週間前から予約できます。1回の予約は最大3時間までです。
キャンセルは利用日の前日までに予約システムから行ってください。

大会議室Aは役員会議が優先されるため、予約が取り消される場合があります。
"""

SENSOR_HTML = """\
<!doctype html>
<html><head><meta charset="utf-8"><title>温度センサー TS-200 仕様書</title></head>
<body>
<h1>温度センサー TS-200</h1>
<h2>仕様</h2>
<ul>
<li>測定範囲: -40〜125℃</li>
<li>精度: ±0.5℃（0〜70℃）</li>
<li>通信方式: I2C（最大400kHz）</li>
<li>電源電圧: 3.3V</li>
</ul>
<h2>保守</h2>
<p>精度を保つため、校正は年に1回実施してください。</p>
</body></html>
"""

SECURITY_HTML = """\
<!doctype html>
<html><head><title>Information security policy</title></head>
<body>
<h2>Devices</h2>
<p>All laptops must use full-disk encryption and lock the screen after 5 minutes of inactivity.
USB storage devices are prohibited on company machines.</p>
<h2>Phishing</h2>
<p>Forward suspicious e-mails to security@example.com and do not click their links.</p>
</body></html>
"""

RETRY_PY = '''\
"""Calling flaky services."""

import random
import time


def retry_with_backoff(func, attempts=5, base_delay=0.5):
    """Call func until it succeeds, waiting exponentially longer (with jitter) between attempts."""
    for attempt in range(attempts):
        try:
            return func()
        except ConnectionError:
            time.sleep(base_delay * 2**attempt + random.random() * base_delay)
    raise TimeoutError("gave up")


class RateLimiter:
    """A token bucket: at most `rate` calls per second, with bursts up to `capacity`."""

    def __init__(self, rate, capacity):
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
'''

PDF_LINES = [
    "TS-200 エラーコード一覧",
    "E01: 電源電圧の低下。電源ケーブルとアダプターを確認してください。",
    "E02: センサーの断線。プローブの接続を確認してください。",
    "E03: 通信タイムアウト。本体を再起動してください。",
    "E04: 内部温度の異常。使用を中止し、サポートに連絡してください。",
]

SUPPORT_QA = [
    ("保証期間はどのくらいですか", "製品の保証期間は購入日から1年間です。"),
    (
        "修理を依頼するにはどうすればよいですか",
        "サポートサイトの修理受付フォームから申し込み、製品を指定の住所へ送ってください。",
    ),
    ("請求書を再発行できますか", "管理画面の「請求履歴」から過去の請求書を再発行できます。"),
    ("法人向けの割引はありますか", "10台以上のご購入で法人割引を適用します。営業担当へお問い合わせください。"),
]

BILLING_QA = [
    ("How do I download an invoice?", "Open Billing, choose the month and click Download PDF."),
    ("Can I pay by bank transfer?", "Yes, annual plans can be paid by bank transfer; monthly plans need a card."),
    ("How do I upgrade my plan?", "Go to Settings, Plan, and pick the new plan; the price difference is prorated."),
]


def write_pdf(path: Path, lines: list[str]) -> None:
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure = plt.figure(figsize=(8.27, 11.69))
        for number, line in enumerate(lines):
            figure.text(0.08, 0.92 - 0.04 * number, line, fontsize=11)
        figure.savefig(path)
        plt.close(figure)


def write_corpus(root: Path) -> Path:
    for source, text in MARKDOWN.items():
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        (root / source).write_text(text, encoding="utf-8")
    for folder in ("it", "facility", "product", "faq", "policy", "eng"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "it" / "password_policy.txt").write_bytes(PASSWORD_POLICY_CP932.encode("cp932"))
    (root / "facility" / "meeting_rooms.txt").write_bytes(MEETING_ROOMS_EUCJP.encode("euc_jp"))
    (root / "product" / "ts200.html").write_text(SENSOR_HTML, encoding="utf-8")
    (root / "policy" / "security.html").write_text(SECURITY_HTML, encoding="utf-8")
    (root / "eng" / "retry.py").write_text(RETRY_PY, encoding="utf-8")
    write_pdf(root / "product" / "errors.pdf", PDF_LINES)
    support = pd.DataFrame(SUPPORT_QA, columns=["質問", "回答"]).to_csv(index=False)
    (root / "faq" / "support.csv").write_bytes(support.encode("cp932"))
    pd.DataFrame(BILLING_QA, columns=["question", "answer"]).to_excel(root / "faq" / "billing.xlsx", index=False)
    return root


@dataclass(frozen=True)
class Question:
    text: str
    source: str
    phrase: str  # the answering chunk contains it
    group: str  # ja, ja-para (paraphrase), en, en-para, en->ja, ja->en, code


QUESTIONS = [
    Question("有給休暇は入社後何日付与されますか", "hr/leave.md", "10日の年次有給休暇", "ja"),
    Question("経費精算の申請期限はいつですか", "hr/expenses.md", "翌月10日", "ja"),
    Question("VPN のポータルに入力するアドレスは", "it/vpn.md", "vpn.example.co.jp", "ja"),
    Question("パスワードは何文字以上必要ですか", "it/password_policy.txt", "12文字以上", "ja"),
    Question("会議室は何時間まで予約できますか", "facility/meeting_rooms.txt", "最大3時間", "ja"),
    Question("TS-200 の測定範囲", "product/ts200.html", "-40〜125℃", "ja"),
    Question("エラーコード E02 の意味", "product/errors.pdf", "E02", "ja"),
    Question("保証期間はどのくらいですか", "faq/support.csv", "1年間", "ja"),
    Question("子どもが生まれたら仕事を長く休めますか", "hr/leave.md", "育児休業", "ja-para"),
    Question("出張したときの手当はいくらもらえる", "hr/expenses.md", "日当", "ja-para"),
    Question("自宅から会社のシステムにつなぐ方法", "it/vpn.md", "GlobalProtect", "ja-para"),
    Question("サインインを何度も間違えるとどうなる", "it/password_policy.txt", "30分間ロック", "ja-para"),
    Question("壊れた製品を直してもらいたい", "faq/support.csv", "修理受付フォーム", "ja-para"),
    Question("温度計はどのくらい正確に測れますか", "product/ts200.html", "±0.5℃", "ja-para"),
    Question("How do I roll back a release?", "eng/deploy.md", "deployctl rollback", "en"),
    Question("When is a postmortem due?", "eng/oncall.md", "postmortem within 5 business days", "en"),
    Question("How do I download an invoice?", "faq/billing.xlsx", "Download PDF", "en"),
    Question("Are USB storage devices allowed?", "policy/security.html", "USB storage", "en"),
    Question("What happens if nobody answers the page?", "eng/oncall.md", "escalates", "en-para"),
    Question("How should I call a service that fails now and then?", "eng/retry.py", "retry_with_backoff", "en-para"),
    Question(
        "I received a suspicious email, what should I do?", "policy/security.html", "security@example.com", "en-para"
    ),
    Question("Can I pay without a credit card?", "faq/billing.xlsx", "bank transfer", "en-para"),
    Question("How many days of paid leave do new employees get?", "hr/leave.md", "10日の年次有給休暇", "en->ja"),
    Question("What is the warranty period?", "faq/support.csv", "1年間", "en->ja"),
    Question("How long is an account locked after failed sign-ins?", "it/password_policy.txt", "30分間", "en->ja"),
    Question("What does error E03 mean?", "product/errors.pdf", "E03", "en->ja"),
    Question("How much is the daily allowance for a business trip abroad?", "hr/expenses.md", "5,000円", "en->ja"),
    Question("本番環境へのリリースを元に戻すには", "eng/deploy.md", "rollback", "ja->en"),
    Question("ノートパソコンの暗号化は必要ですか", "policy/security.html", "full-disk encryption", "ja->en"),
    Question("請求書をダウンロードする方法", "faq/billing.xlsx", "Download PDF", "ja->en"),
    Question("障害の深刻度レベルの定義", "eng/oncall.md", "SEV1", "ja->en"),
    Question("retry_with_backoff", "eng/retry.py", "retry_with_backoff", "code"),
    Question("token bucket RateLimiter", "eng/retry.py", "RateLimiter", "code"),
]
