"""Outpatient visits, FY2023–FY2024 (Japanese headers): 受診日, 診療科, 初診再診, 年齢, 待ち時間（分）,
診療費, 紹介状, 保険種別.

Written before the brain was changed for them (held out): everyday wording, polite forms, 万, 年度, 上期.
"""

from questions import compute as c
from questions.expect import Question as Q
from questions.expect import count, direction, name, names, number, percent, period

D = "受診日"
W = "待ち時間（分）"


def _fy(d, year):
    return c.fiscal_year(d, D, year)


QUESTIONS = [
    Q("外来のデータは全部で何件ありますか？", "shape", count(len)),
    Q("列はいくつありますか", "shape", count(lambda d: d.shape[1])),
    Q("How many visits are recorded?", "shape", count(len)),
    Q("診療科はいくつありますか？", "distinct", count(lambda d: d["診療科"].nunique())),
    Q("保険種別は何種類ありますか", "distinct", count(lambda d: d["保険種別"].nunique())),
    Q("How many departments are in the data?", "distinct", count(lambda d: d["診療科"].nunique())),
    Q("紹介状ありの受診は何件でしたか", "filter", count(lambda d: (d["紹介状"] == "あり").sum())),
    Q("待ち時間が60分を超えた受診は何件？", "filter", count(lambda d: (d[W] > 60).sum())),
    Q("診療費が1万円以上の受診は何件ありますか", "filter", count(lambda d: (d["診療費"] >= 10000).sum())),
    Q("How many visits came with a referral letter?", "filter", count(lambda d: (d["紹介状"] == "あり").sum())),
    Q(
        "2024年度に受診が一番多かった診療科はどこですか",
        "subset_ranking",
        name(lambda d: c.first(_fy(d, 2024), "診療科"), "診療科"),
    ),
    Q(
        "初診に限ると、平均待ち時間が最も長い診療科は？",
        "subset_ranking",
        name(lambda d: c.first(d[d["初診再診"] == "初診"], "診療科", W, "mean"), "診療科"),
    ),
    Q(
        "国保の患者で診療費の合計が一番大きい診療科を教えてください",
        "subset_ranking",
        name(lambda d: c.first(d[d["保険種別"] == "国保"], "診療科", "診療費"), "診療科"),
    ),
    Q(
        "診療科別の受診件数を集計して、一番少ない診療科を教えて",
        "two_part",
        name(lambda d: c.first(d, "診療科", ascending=True), "診療科"),
    ),
    Q("月別の受診数をグラフにして、最も多かった月は？", "two_part", period(lambda d: c.peak(d, D, None, "M"), "M", D)),
    Q(
        "保険種別ごとの平均診療費を出して、いちばん高いのはどれ？",
        "two_part",
        name(lambda d: c.first(d, "保険種別", "診療費", "mean"), "保険種別"),
    ),
    Q("内科の受診は全体の何％ですか", "share", percent(lambda d: 100 * (d["診療科"] == "内科").mean())),
    Q("紹介状ありの割合は何パーセント？", "share", percent(lambda d: 100 * (d["紹介状"] == "あり").mean())),
    Q(
        "小児科の診療費は全体の診療費の何%を占めていますか",
        "share",
        percent(lambda d: c.share(d.loc[d["診療科"] == "小児科", "診療費"], d["診療費"])),
    ),
    Q(
        "2023年度から2024年度で診療費の合計は何％増えましたか？",
        "growth",
        percent(lambda d: c.growth(_fy(d, 2023)["診療費"], _fy(d, 2024)["診療費"])),
    ),
    Q(
        "2024年度の上期と下期で受診件数は何％変わった？",
        "growth",
        percent(
            lambda d: (
                100
                * (
                    len(c.window(d, D, "2024-10-01", "2025-04-01")) / len(c.window(d, D, "2024-04-01", "2024-10-01"))
                    - 1
                )
            )
        ),
    ),
    Q(
        "2024年第1四半期から第2四半期で受診件数は何％増えた？",
        "growth",
        percent(
            lambda d: (
                100
                * (
                    len(c.window(d, D, "2024-04-01", "2024-07-01")) / len(c.window(d, D, "2024-01-01", "2024-04-01"))
                    - 1
                )
            )
        ),
    ),
    Q(
        "月ごとの診療費の合計は増加傾向ですか、減少傾向ですか",
        "trend",
        direction(lambda d: c.slope(d, D, "診療費", "M")),
    ),
    Q(
        "四半期別の平均待ち時間の推移で、一番長かった四半期は？",
        "trend",
        period(lambda d: c.peak(d, D, W, "Q", "mean"), "Q", D),
    ),
    Q("Is the monthly total fee going up or down?", "trend", direction(lambda d: c.slope(d, D, "診療費", "M"))),
    Q("診療費の外れ値（zスコア3超）は何件？", "outliers", count(lambda d: c.zscore_count(d["診療費"]))),
    Q("待ち時間の外れ値をIQR法で数えてください", "outliers", count(lambda d: c.iqr_count(d[W]))),
    Q(
        "診療費÷年齢の平均を計算してください（0歳は除かず）",
        "derived",
        number(lambda d: (d["診療費"] / d["年齢"].replace(0, float("nan"))).mean()),
    ),
    Q("診療費を1000で割った値の中央値は？", "derived", number(lambda d: (d["診療費"] / 1000).median())),
    Q(
        "年齢と待ち時間の相関係数を教えてください",
        "correlation",
        number(lambda d: d["年齢"].corr(d[W]), 0.02, absolute=True),
    ),
    Q(
        "What's the correlation between age and 診療費?",
        "correlation",
        number(lambda d: d["年齢"].corr(d["診療費"]), 0.02, absolute=True),
    ),
    Q(
        "平均診療費が高い診療科ベスト3は？",
        "top_n",
        names(lambda d: c.top(d, "診療科", "診療費", "mean", n=3), "診療科"),
    ),
    Q("受診件数ワースト2の診療科", "top_n", names(lambda d: c.top(d, "診療科", n=2, ascending=True), "診療科")),
    Q(
        "平均待ち時間が短い診療科を上位3つあげてください",
        "top_n",
        names(lambda d: c.top(d, "診療科", W, "mean", n=3, ascending=True), "診療科"),
    ),
]
