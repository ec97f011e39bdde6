"""Outpatient visits, FY2023–FY2024 (Japanese headers): 受診日, 診療科, 初診再診, 年齢, 待ち時間（分）,
診療費, 紹介状, 保険種別.

Written before the brain was changed for them (held out): everyday wording, polite forms, 万, 年度, 上期.
"""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, number, percent

D = "受診日"
W = "待ち時間（分）"


def _fy(d, year):
    return c.fiscal_year(d, D, year)


QUESTIONS = [
    Q("外来のデータは全部で何件ありますか？", "shape", count(len)),
    Q("列はいくつありますか", "shape", count(lambda d: d.shape[1])),
    Q("How many visits are recorded?", "shape", count(len)),
    Q("診療科はいくつありますか？", "distinct", s.distinct("診療科")),
    Q("保険種別は何種類ありますか", "distinct", s.distinct("保険種別")),
    Q("How many departments are in the data?", "distinct", s.distinct("診療科")),
    Q("紹介状ありの受診は何件でしたか", "filter", count(lambda d: (d["紹介状"] == "あり").sum())),
    Q("待ち時間が60分を超えた受診は何件？", "filter", count(lambda d: (d[W] > 60).sum())),
    Q("診療費が1万円以上の受診は何件ありますか", "filter", count(lambda d: (d["診療費"] >= 10000).sum())),
    Q("How many visits came with a referral letter?", "filter", count(lambda d: (d["紹介状"] == "あり").sum())),
    Q(
        "2024年度に受診が一番多かった診療科はどこですか",
        "subset_ranking",
        s.winner("診療科", rows=lambda d: _fy(d, 2024)),
    ),
    Q(
        "初診に限ると、平均待ち時間が最も長い診療科は？",
        "subset_ranking",
        s.winner("診療科", W, "mean", rows=s.where("初診再診", "初診")),
    ),
    Q(
        "国保の患者で診療費の合計が一番大きい診療科を教えてください",
        "subset_ranking",
        s.winner("診療科", "診療費", rows=s.where("保険種別", "国保")),
    ),
    Q("診療科別の受診件数を集計して、一番少ない診療科を教えて", "two_part", s.winner("診療科", ascending=True)),
    Q("月別の受診数をグラフにして、最も多かった月は？", "two_part", s.peak(D, None, "M")),
    Q("保険種別ごとの平均診療費を出して、いちばん高いのはどれ？", "two_part", s.winner("保険種別", "診療費", "mean")),
    Q("内科の受診は全体の何％ですか", "share", s.row_share("診療科", "内科")),
    Q("紹介状ありの割合は何パーセント？", "share", s.row_share("紹介状", "あり")),
    Q("小児科の診療費は全体の診療費の何%を占めていますか", "share", s.total_share("診療科", "小児科", "診療費")),
    Q(
        "2023年度から2024年度で診療費の合計は何％増えましたか？",
        "growth",
        percent(lambda d: c.growth(_fy(d, 2023)["診療費"], _fy(d, 2024)["診療費"])),
    ),
    Q(
        "2024年度の上期と下期で受診件数は何％変わった？",
        "growth",
        s.window_change(D, ("2024-04-01", "2024-10-01"), ("2024-10-01", "2025-04-01")),
    ),
    Q(
        "2024年第1四半期から第2四半期で受診件数は何％増えた？",
        "growth",
        s.window_change(D, ("2024-01-01", "2024-04-01"), ("2024-04-01", "2024-07-01")),
    ),
    Q("月ごとの診療費の合計は増加傾向ですか、減少傾向ですか", "trend", s.trend(D, "診療費")),
    Q("四半期別の平均待ち時間の推移で、一番長かった四半期は？", "trend", s.peak(D, W, "Q", "mean")),
    Q("Is the monthly total fee going up or down?", "trend", s.trend(D, "診療費")),
    Q("診療費の外れ値（zスコア3超）は何件？", "outliers", s.zscore_outliers("診療費")),
    Q("待ち時間の外れ値をIQR法で数えてください", "outliers", s.iqr_outliers(W)),
    Q(
        "診療費÷年齢の平均を計算してください（0歳は除かず）",
        "derived",
        number(lambda d: (d["診療費"] / d["年齢"].replace(0, float("nan"))).mean()),
    ),
    Q("診療費を1000で割った値の中央値は？", "derived", number(lambda d: (d["診療費"] / 1000).median())),
    Q("年齢と待ち時間の相関係数を教えてください", "correlation", s.correlation("年齢", W, 0.02)),
    Q("What's the correlation between age and 診療費?", "correlation", s.correlation("年齢", "診療費", 0.02)),
    Q("平均診療費が高い診療科ベスト3は？", "top_n", s.leaders("診療科", "診療費", "mean", n=3)),
    Q("受診件数ワースト2の診療科", "top_n", s.leaders("診療科", n=2, ascending=True)),
    Q("平均待ち時間が短い診療科を上位3つあげてください", "top_n", s.leaders("診療科", W, "mean", n=3, ascending=True)),
]
