"""stocks.csv (vega_datasets stocks): symbol (MSFT, AMZN, IBM, AAPL, GOOG), date (YYYY-MM-DD, the first
of each month, 2000-01 to 2010-03; GOOG from 2004-08), price (monthly price in US dollars)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, period, yesno


def _s(d: pd.DataFrame, symbol: str) -> pd.DataFrame:
    d = d[d["symbol"] == symbol].copy()
    d["when"] = pd.to_datetime(d["date"])
    return d


def _at(d: pd.DataFrame, symbol: str, day: str) -> float:
    s = _s(d, symbol)
    return float(s.loc[s["when"] == pd.Timestamp(day), "price"].iloc[0])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[pd.to_datetime(d["date"]).dt.year == year]


def _growth(d: pd.DataFrame, start: str, end: str) -> pd.Series:
    """Price change from start to end in percent, per symbol that has both months."""
    wide = d.assign(when=pd.to_datetime(d["date"])).pivot(index="when", columns="symbol", values="price")
    return (wide.loc[pd.Timestamp(end)] / wide.loc[pd.Timestamp(start)] - 1).dropna() * 100


def _when_extreme(d: pd.DataFrame, symbol: str, largest: bool) -> pd.Timestamp:
    s = _s(d, symbol)
    return s.loc[s["price"].idxmax() if largest else s["price"].idxmin(), "when"]


def _yearly(d: pd.DataFrame, symbol: str) -> pd.Series:
    s = _s(d, symbol)
    return s.groupby(s["when"].dt.year)["price"].mean()


def _biggest_monthly_drop(d: pd.DataFrame, symbol: str) -> pd.Timestamp:
    s = _s(d, symbol).sort_values("when")
    return s.loc[s["price"].pct_change().idxmin(), "when"]


QUESTIONS = [
    Q(
        1,
        "Which company had the lowest monthly price anywhere in this file?",
        "extreme_name",
        name(lambda d: d.loc[d["price"].idxmin(), "symbol"], "symbol"),
    ),
    Q(
        2,
        "2000年1月から2010年1月までで、株価の上昇率が一番大きかった銘柄はどれ？",
        "extreme_name",
        name(lambda d: _growth(d, "2000-01-01", "2010-01-01").idxmax(), "symbol"),
    ),
    Q(
        3,
        "Amazonの株価が一番安かったのはいつ？",
        "extreme_date",
        period(lambda d: _when_extreme(d, "AMZN", largest=False), "M", "date"),
    ),
    Q(
        4,
        "When did Google's stock hit its all-time high in this data?",
        "extreme_date",
        period(lambda d: _when_extreme(d, "GOOG", largest=True), "M", "date"),
    ),
    Q(5, "What's the median monthly price of IBM?", "percentile", number(lambda d: _s(d, "IBM")["price"].median())),
    Q(
        6,
        "マイクロソフト株の価格の上位10%ライン（90パーセンタイル）はいくらですか",
        "percentile",
        number(lambda d: _s(d, "MSFT")["price"].quantile(0.9)),
    ),
    Q(
        7,
        "Appleの2009年の平均株価は、2008年と比べていくら上がった？",
        "difference",
        number(lambda d: _yearly(d, "AAPL")[2009] - _yearly(d, "AAPL")[2008]),
    ),
    Q(
        8,
        "How much lower was Microsoft's price in March 2010 than in January 2000?",
        "difference",
        number(lambda d: _at(d, "MSFT", "2000-01-01") - _at(d, "MSFT", "2010-03-01")),
    ),
    Q(
        9,
        "By what percent did Amazon's price rise from January 2009 to December 2009?",
        "ratio",
        percent(lambda d: (_at(d, "AMZN", "2009-12-01") / _at(d, "AMZN", "2009-01-01") - 1) * 100),
    ),
    Q(
        10,
        "2010年3月の時点で、Googleの株価はIBMの何倍ですか？",
        "ratio",
        number(lambda d: _at(d, "GOOG", "2010-03-01") / _at(d, "IBM", "2010-03-01")),
    ),
    Q(
        11,
        "マイクロソフトの年間平均株価が一番低かったのは何年？",
        "by_period",
        count(lambda d: _yearly(d, "MSFT").idxmin()),  # a year: a bare "2003" fails the period form
    ),
    Q(
        12,
        "In which month did Apple have its biggest one-month drop in percentage terms?",
        "by_period",
        period(lambda d: _biggest_monthly_drop(d, "AAPL"), "M", "date"),
    ),
    Q(
        13,
        "How many days passed between Google's first price in the data and its all-time high?",
        "duration",
        count(lambda d: (_when_extreme(d, "GOOG", largest=True) - _s(d, "GOOG")["when"].min()).days),
    ),
    Q(
        14,
        "Appleの最安値から最高値まで、何か月かかりましたか？",
        "duration",
        count(
            lambda d: (lambda lo, hi: (hi.year - lo.year) * 12 + hi.month - lo.month)(
                _when_extreme(d, "AAPL", largest=False), _when_extreme(d, "AAPL", largest=True)
            )
        ),
    ),
    Q(
        15,
        "What was Apple's average price in 2008?",
        "period_total",
        number(lambda d: _year(_s(d, "AAPL"), 2008)["price"].mean()),
    ),
    Q(
        16,
        "Amazon's mean price for 2005?",
        "period_total",
        number(lambda d: _year(_s(d, "AMZN"), 2005)["price"].mean()),
    ),
    Q(
        17,
        "Which stock had the lowest average price in 2006?",
        "group_in_period",
        name(lambda d: _year(d, 2006).groupby("symbol")["price"].mean().idxmin(), "symbol"),
    ),
    Q(
        18,
        "2008年1月から12月にかけて、下落率が一番大きかった銘柄は？",
        "group_in_period",
        name(lambda d: _growth(d, "2008-01-01", "2008-12-01").idxmin(), "symbol"),
    ),
    Q(
        19,
        "Top 3 stocks by average price in 2009?",
        "ranking_within",
        names(lambda d: _year(d, 2009).groupby("symbol")["price"].mean().nlargest(3).index, "symbol"),
    ),
    Q(
        20,
        "2001年に平均株価が安かった順に3銘柄教えて",
        "ranking_within",
        names(lambda d: _year(d, 2001).groupby("symbol")["price"].mean().nsmallest(3).index, "symbol"),
    ),
    Q(21, "IBMが50ドルを割ったことってある？", "yes_no_answer", yesno(lambda d: (_s(d, "IBM")["price"] < 50).any())),
    Q(
        22,
        "Did Microsoft ever trade above $40 in this data?",
        "yes_no_answer",
        yesno(lambda d: (_s(d, "MSFT")["price"] > 40).any()),
    ),
]
