"""ペンギン調査.tsv (palmerpenguins, translated): 種 (アデリー/ジェンツー/ヒゲ), 島 (トージャーセン/ビスコー/ドリーム),
くちばしの長さ(mm), くちばしの厚さ(mm), ひれの長さ(mm), 体重(g), 性別 (オス/メス, 11 blank), 調査年 (2007-2009)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[d["調査年"] == year]


QUESTIONS = [
    Q(1, "このデータには何羽のペンギンが載ってる？", "basic", count(lambda d: len(d))),
    Q(2, "性別がわからない（空欄の）ペンギンは何羽いますか", "basic", count(lambda d: d["性別"].isna().sum())),
    Q(
        3,
        "ジェンツーペンギンの平均体重は？",
        "condition_stat",
        number(lambda d: d.loc[d["種"] == "ジェンツー", "体重(g)"].mean()),
    ),
    Q(
        4,
        "ドリーム島のペンギンって、くちばしの長さは平均どれくらい？",
        "condition_stat",
        number(lambda d: d.loc[d["島"] == "ドリーム", "くちばしの長さ(mm)"].mean()),
    ),
    Q(
        5,
        "くちばしが一番長い個体はどの島で記録されたの？",
        "extreme_name",
        name(lambda d: d.loc[d["くちばしの長さ(mm)"].idxmax(), "島"], "島"),
    ),
    Q(
        6,
        "ひれ（フリッパー）が最も短いペンギンの種は何でしょうか",
        "extreme_name",
        name(lambda d: d.loc[d["ひれの長さ(mm)"].idxmin(), "種"], "種"),
    ),
    Q(7, "体重の中央値は何グラム？", "percentile", number(lambda d: d["体重(g)"].median())),
    Q(8, "90th percentile of flipper length?", "percentile", number(lambda d: d["ひれの長さ(mm)"].quantile(0.9))),
    Q(
        9,
        "オスとメスで平均体重はどれくらい違いますか（グラムで）",
        "difference",
        number(lambda d: d.loc[d["性別"] == "オス", "体重(g)"].mean() - d.loc[d["性別"] == "メス", "体重(g)"].mean()),
    ),
    Q(
        10,
        "ヒゲペンギンとアデリーペンギン、くちばしの長さの平均は何mm違う？",
        "difference",
        number(
            lambda d: (
                d.loc[d["種"] == "ヒゲ", "くちばしの長さ(mm)"].mean()
                - d.loc[d["種"] == "アデリー", "くちばしの長さ(mm)"].mean()
            )
        ),
    ),
    Q(
        11,
        "ビスコー島で記録されたペンギンは全体の何％を占めていますか",
        "ratio",
        percent(lambda d: 100 * (d["島"] == "ビスコー").mean()),
    ),
    Q(
        12,
        "ジェンツーの平均体重ってアデリーの何倍くらい？",
        "ratio",
        number(
            lambda d: d.loc[d["種"] == "ジェンツー", "体重(g)"].mean() / d.loc[d["種"] == "アデリー", "体重(g)"].mean()
        ),
    ),
    Q(
        13,
        "調査年ごとに見ると、記録されたペンギンの数が一番多かったのは何年？",
        "by_period",
        name(lambda d: d["調査年"].value_counts().idxmax(), "調査年"),
    ),
    Q(14, "2008年に調査されたペンギンは何羽ですか", "by_period", count(lambda d: (d["調査年"] == 2008).sum())),
    Q(15, "2007年のペンギンの平均体重を教えて", "period_total", number(lambda d: _year(d, 2007)["体重(g)"].mean())),
    Q(
        16,
        "What was the mean bill length of the penguins measured in 2009?",
        "period_total",
        number(lambda d: _year(d, 2009)["くちばしの長さ(mm)"].mean()),
    ),
    Q(
        17,
        "2007年の調査で、くちばしの厚さの平均が一番大きかった種は？",
        "group_in_period",
        name(lambda d: _year(d, 2007).groupby("種")["くちばしの厚さ(mm)"].mean().idxmax(), "種"),
    ),
    Q(
        18,
        "2008年にいちばん多くペンギンが記録された島はどこですか",
        "group_in_period",
        name(lambda d: _year(d, 2008)["島"].value_counts().idxmax(), "島"),
    ),
    Q(
        19,
        "アデリーペンギンの中で3番目に重い個体の体重は？",
        "ranking_within",
        number(lambda d: d.loc[d["種"] == "アデリー", "体重(g)"].sort_values(ascending=False).iloc[2]),
    ),
    Q(
        20,
        "メスだけで見て、くちばしの長さの平均が長い島の上位2つは？",
        "ranking_within",
        names(lambda d: d[d["性別"] == "メス"].groupby("島")["くちばしの長さ(mm)"].mean().nlargest(2).index, "島"),
    ),
    Q(
        21,
        "Are there any Adelie penguins heavier than 5000 g?",
        "yes_no_answer",
        yesno(lambda d: (d.loc[d["種"] == "アデリー", "体重(g)"] > 5000).any()),
    ),
    Q(
        22,
        "ドリーム島に体重4.5kgを超える個体はいますか",
        "yes_no_answer",
        yesno(lambda d: (d.loc[d["島"] == "ドリーム", "体重(g)"] > 4500).any()),
    ),
]
