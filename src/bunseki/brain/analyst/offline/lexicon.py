"""Everyday business words in Japanese and English: one concept, the words people use for it.

Column matching uses it both ways: a question in English about Japanese headers (payment
method → 支払方法, members → 会員) and in Japanese about English ones (人口 → population).
It holds general vocabulary, never the headers of one table: a concept reaches a column only
when the column's own name is one of its words, contains one as its head noun, or (Japanese)
starts with one followed by a measure suffix (在庫 + 数, 売上 + 金額) or ends with one (月間売上).
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.analyst.offline.text import fold, normalize

# Each tuple is one concept; Japanese and English words mixed, English in lower case.
CONCEPTS: Final[tuple[tuple[str, ...], ...]] = (
    # money
    ("売上", "売り上げ", "売上高", "売上金額", "販売額", "販売金額", "sales", "revenue", "turnover"),
    ("金額", "amount", "value", "売上", "売り上げ", "売上金額", "sales", "revenue"),  # a ledger's 金額 is its 売上
    ("単価", "価格", "値段", "price", "unit price"),
    ("費用", "コスト", "経費", "cost", "expense", "spend"),
    ("料金", "手数料", "fee", "charge"),
    ("利益", "粗利", "profit", "margin", "gross profit"),
    ("予算", "budget"),
    ("目標", "ノルマ", "target", "goal", "quota"),
    ("返金", "返金額", "払い戻し", "refund", "refund amount"),
    ("返品", "return"),
    ("送料", "配送料", "shipping", "shipping fee", "shipping cost", "delivery fee"),
    ("チップ", "心付け", "tip", "gratuity"),
    ("会計", "会計額", "請求額", "伝票", "bill", "total bill", "check amount"),
    ("給与", "給料", "年収", "月給", "salary", "income", "annual income", "pay", "wage"),
    ("支払方法", "支払い方法", "決済方法", "支払い", "決済", "payment method", "payment", "payment type"),
    # quantities
    ("数量", "個数", "販売数", "販売数量", "quantity", "qty", "units", "volume"),
    ("在庫", "在庫数", "在庫量", "stock", "inventory", "on hand"),
    ("発注点", "再発注点", "reorder point", "reorder level"),
    ("客数", "来客数", "来店数", "顧客数", "customer count", "visitors"),
    ("人数", "人員", "party size", "guests", "headcount", "number of people"),
    ("宿泊数", "泊数", "nights"),
    ("残業", "残業時間", "overtime", "overtime hours"),
    ("勤続年数", "在籍年数", "tenure", "years of service"),
    ("欠席", "欠席日数", "absence", "absences", "days absent"),
    ("待ち時間", "待機時間", "wait", "waiting time", "wait time"),
    ("点数", "得点", "スコア", "score", "points"),
    ("評価", "査定", "rating", "evaluation", "review score"),
    # people and organisations
    ("顧客", "お客様", "customer", "client"),
    ("会員", "メンバー", "member", "membership"),
    ("社員", "従業員", "職員", "employee", "staff"),
    ("患者", "patient"),
    ("医師", "担当医", "doctor", "physician"),
    ("部署", "部門", "所属", "department", "dept", "division"),
    ("診療科", "department", "specialty", "clinical department"),
    ("店舗", "店", "ストア", "store", "shop", "branch", "outlet"),
    ("倉庫", "物流センター", "warehouse", "depot", "fulfillment center"),
    ("クラス", "学級", "class", "homeroom"),
    ("部活", "部活動", "club"),
    ("年齢", "歳", "age"),
    ("性別", "男女", "gender", "sex"),
    # things and kinds
    ("商品", "製品", "品目", "product", "item", "goods"),
    ("品名", "商品名", "製品名", "product name", "item name"),
    ("カテゴリ", "カテゴリー", "分類", "種類", "ジャンル", "category", "type", "segment", "genre"),
    ("理由", "原因", "reason", "cause"),
    ("状態", "ステータス", "status", "state"),
    ("保険", "保険種別", "insurance", "insurance type"),
    ("紹介状", "紹介", "referral", "referral letter"),
    ("在宅勤務", "リモートワーク", "テレワーク", "remote work", "work from home", "remote"),
    ("注文", "受注", "order"),
    ("予約", "booking", "reservation"),
    ("受診", "来院", "visit"),
    ("キャンセル", "取消", "canceled", "cancelled", "cancellation"),
    ("退職", "離職", "辞職", "attrition", "resigned", "resignation"),
    ("解約", "churn", "churned", "cancel"),
    ("客室", "部屋タイプ", "room type", "room"),
    ("センサー", "sensor"),
    ("ページ", "page"),
    ("流入元", "参照元", "source", "traffic source"),
    ("チャネル", "経路", "販路", "channel"),
    ("セッション", "セッション数", "session"),
    ("コンバージョン", "成約", "cv", "conversion", "converted", "convert"),
    ("直帰率", "bounce rate"),
    # places
    ("地域", "エリア", "地方", "region", "area"),
    ("都市", "市区町村", "city", "town"),
    ("国", "国名", "country", "nation"),
    ("都道府県", "県", "prefecture"),
    # time
    ("日付", "日時", "年月日", "date", "day", "time", "timestamp"),
    ("曜日", "weekday", "day of week", "day of the week", "day"),
    ("年", "年度", "year", "fiscal year"),
    # measurements and indicators
    ("気温", "温度", "temperature", "temp"),
    ("最高気温", "high temperature", "max temperature", "daily high"),
    ("最低気温", "low temperature", "min temperature", "daily low"),
    ("湿度", "humidity"),
    ("気圧", "pressure", "air pressure"),
    ("降水量", "雨量", "rainfall", "precipitation", "rain"),
    ("天気", "天候", "weather"),
    ("人口", "population"),
    ("平均寿命", "寿命", "life expectancy"),
    ("国内総生産", "gdp"),
    ("排出量", "emissions"),
    # school subjects
    ("国語", "japanese"),
    ("数学", "math", "mathematics", "maths"),
    ("英語", "english"),
)

# The days of the week as a column's values may name them, Monday first.
WEEKDAYS: Final[tuple[tuple[str, ...], ...]] = (
    ("mon", "monday", "月曜", "月曜日", "月"),
    ("tue", "tues", "tuesday", "火曜", "火曜日", "火"),
    ("wed", "weds", "wednesday", "水曜", "水曜日", "水"),
    ("thu", "thur", "thurs", "thursday", "木曜", "木曜日", "木"),
    ("fri", "friday", "金曜", "金曜日", "金"),
    ("sat", "saturday", "土曜", "土曜日", "土"),
    ("sun", "sunday", "日曜", "日曜日", "日"),
)
# Category values people name in the other language or in full (Sat → Saturday, 土曜日).
VALUE_CONCEPTS: Final[tuple[tuple[str, ...], ...]] = (
    *(words[:-1] for words in WEEKDAYS),  # a lone 月 or 日 in a question is no day of the week
    ("male", "男性", "男子"),
    ("female", "女性", "女子"),
    ("error", "エラー", "異常"),
    ("ok", "正常"),
    ("lunch", "ランチ", "昼食"),
    ("dinner", "ディナー", "夕食"),
)

# Headers that end in a unit say what they measure before it: refund_usd is a refund.
_UNIT_WORDS = {"usd", "jpy", "yen", "eur", "pct", "percent", "kg", "g", "cm", "mm", "km", "min", "mins", "h", "hrs"}
# 在庫 + 数, 売上 + 金額: a concept word followed by one of these still names the same measure.
_JA_SUFFIXES = ("数", "額", "金額", "高", "量", "時間", "日数", "件数", "名", "区分", "種別", "方法", "率", "点")
_JA_FEE = re.compile(r"[費料]$")  # 診療費, 利用料: fees
_ASCII = re.compile(r"^[\x00-\x7f]+$")
_FEE_CONCEPT = next(words for words in CONCEPTS if "fee" in words)


def concepts_for(name: str, *, identifier: bool = False) -> list[tuple[tuple[str, ...], float]]:
    """The concepts a column header names, with how sure (1 = the header is one of the words).

    ``identifier``: the column names each row (return_id), so its head is "id", not "return".
    """
    normal = _without_unit(normalize(name)).casefold()
    folded = fold(name)
    head = _head(folded, identifier=identifier)
    found: list[tuple[tuple[str, ...], float]] = []
    for words in CONCEPTS:
        if normal in words or folded in words or (folded.endswith("s") and folded[:-1] in words):
            found.append((words, 0.8))
        elif (head and head in words) or any(_ja_prefix(normal, word) for word in words if not _ASCII.match(word)):
            found.append((words, 0.7))
    if not _ASCII.match(normal) and _JA_FEE.search(normal) and all(w is not _FEE_CONCEPT for w, _ in found):
        found.append((_FEE_CONCEPT, 0.6))
    return found


def value_forms(value: str) -> list[str]:
    """Other names of a category value (Sat → saturday, 土曜日); the value itself excluded."""
    key = normalize(value).casefold()
    for words in VALUE_CONCEPTS:
        if key in words:
            return [word for word in words if word != key]
    return []


def weekday_of(value: str) -> int | None:
    """0 for Monday … 6 for Sunday, if ``value`` names a day of the week (Sat, 土曜日, 土)."""
    key = normalize(value).casefold()
    return next((day for day, words in enumerate(WEEKDAYS) if key in words), None)


def _without_unit(name: str) -> str:
    """待ち時間（分） → 待ち時間, 金額(円) → 金額: a unit in brackets is not part of the concept."""
    return re.sub(r"\s*[（(][^）)]{1,6}[）)]\s*$", "", name)


def _head(folded: str, *, identifier: bool = False) -> str | None:
    """The head noun of an English header: refund usd → refund, product category → category."""
    if not _ASCII.match(folded) or " " not in folded:
        return None
    words = [word for word in folded.split() if word not in _UNIT_WORDS]
    if len(words) > 1 and words[-1] in ("id", "no", "code", "name") and not identifier:  # sensor_id holds sensors
        words = words[:-1]
    return words[-1] if words else None


def _ja_prefix(name: str, word: str) -> bool:
    """在庫数 and 月間売上 name 在庫 and 売上; 受診日 does not name 受診 (it is a date)."""
    if len(word) < 2:
        return False
    if name.endswith(word):
        return True
    return name.startswith(word) and name[len(word) :] in _JA_SUFFIXES
