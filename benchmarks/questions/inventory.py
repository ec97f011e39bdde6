"""Warehouse stock list (Japanese columns): 品番, 品名, 倉庫, 分類, 在庫数, 発注点, 単価, 最終入荷日."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, name, number, percent, period

QUESTIONS = [
    Q("在庫データは何行ありますか", "shape", count(len)),
    Q("品目数（行数）を教えて", "shape", count(len)),
    Q("How many columns does the stock list have?", "shape", count(lambda d: d.shape[1])),
    Q("倉庫はいくつある？", "distinct", s.distinct("倉庫")),
    Q("分類は何種類？", "distinct", s.distinct("分類")),
    Q("単価の異なる値はいくつありますか", "distinct", s.distinct("単価")),
    Q("在庫数が発注点を下回っている品目は何件？", "filter", count(lambda d: (d["在庫数"] < d["発注点"]).sum())),
    Q("東京倉庫の在庫数の合計は？", "filter", number(lambda d: d.loc[d["倉庫"] == "東京倉庫", "在庫数"].sum())),
    Q("在庫が0の品目はいくつありますか", "filter", count(lambda d: (d["在庫数"] == 0).sum())),
    Q(
        "大阪倉庫で在庫数の合計が一番多い分類は？",
        "subset_ranking",
        s.winner("分類", "在庫数", rows=s.where("倉庫", "大阪倉庫")),
    ),
    Q(
        "単価が1000円以上の品目で、在庫数合計が最も少ない倉庫はどこ？",
        "subset_ranking",
        name(lambda d: c.first(d[d["単価"] >= 1000], "倉庫", "在庫数", ascending=True), "倉庫"),
    ),
    Q(
        "部品の中で平均在庫数が一番多い倉庫は？",
        "subset_ranking",
        s.winner("倉庫", "在庫数", "mean", rows=s.where("分類", "部品")),
    ),
    Q("倉庫別に在庫数を集計して、一番多い倉庫を教えて", "two_part", s.winner("倉庫", "在庫数")),
    Q("分類ごとの品目数をグラフにして、最も多い分類は？", "two_part", s.winner("分類")),
    Q("月別の入荷件数（最終入荷日）を集計して、一番多かった月は？", "two_part", s.peak("最終入荷日", None, "M")),
    Q("東京倉庫の在庫数は全体の何％？", "share", s.total_share("倉庫", "東京倉庫", "在庫数")),
    Q("工具が品目数に占める割合は？", "share", s.row_share("分類", "工具")),
    Q(
        "What percent of items are below their reorder point (在庫数 < 発注点)?",
        "share",
        percent(lambda d: 100 * (d["在庫数"] < d["発注点"]).mean()),
    ),
    Q(
        "上期（1〜6月）と下期（7〜12月）で入荷件数は何％変わった？",
        "growth",
        s.window_change("最終入荷日", ("2024-01-01", "2024-07-01"), ("2024-07-01", "2025-01-01")),
    ),
    Q(
        "福岡倉庫の在庫数合計は大阪倉庫より何%少ない？",
        "growth",
        percent(
            lambda d: (
                100
                * (1 - d.loc[d["倉庫"] == "福岡倉庫", "在庫数"].sum() / d.loc[d["倉庫"] == "大阪倉庫", "在庫数"].sum())
            ),
            magnitude=True,
        ),
    ),
    Q(
        "2024年1月から2024年12月で入荷した品目の在庫数合計は何％変化した？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, "最終入荷日", "2024-01-01", "2024-02-01")["在庫数"],
                c.window(d, "最終入荷日", "2024-12-01", "2025-01-01")["在庫数"],
            )
        ),
    ),
    Q(
        "最終入荷日の月別の件数の推移で、一番少ない月はいつ？",
        "trend",
        period(lambda d: c.peak(d, "最終入荷日", None, "M", low=True), "M", "最終入荷日"),
    ),
    Q("四半期ごとの入荷件数の推移を見せて。最も多いのはどの四半期？", "trend", s.peak("最終入荷日", None, "Q")),
    Q("月ごとの在庫数合計（最終入荷日ベース）で最大の月は？", "trend", s.peak("最終入荷日", "在庫数", "M")),
    Q("単価の外れ値はIQR法で何件？", "outliers", s.iqr_outliers("単価")),
    Q("在庫数の外れ値（zスコア3超）の件数は？", "outliers", s.zscore_outliers("在庫数")),
    Q("単価のZスコアが2を超える品目はいくつ？", "outliers", count(lambda d: c.zscore_count(d["単価"], 2.0))),
    Q("在庫金額（在庫数×単価）の合計はいくら？", "derived", number(lambda d: (d["在庫数"] * d["単価"]).sum())),
    Q(
        "在庫金額を在庫数と単価の積として計算し、その平均を教えて",
        "derived",
        number(lambda d: (d["在庫数"] * d["単価"]).mean()),
    ),
    Q("発注点までの余裕（在庫数−発注点）の平均は？", "derived", number(lambda d: (d["在庫数"] - d["発注点"]).mean())),
    Q("在庫数と単価の相関係数は？", "correlation", s.correlation("在庫数", "単価", 0.01)),
    Q("発注点と在庫数の相関を調べて", "correlation", s.correlation("発注点", "在庫数", 0.01)),
    Q("correlation between 単価 and 発注点", "correlation", s.correlation("単価", "発注点", 0.01)),
    Q("在庫数の多い品目トップ3（品名）", "top_n", s.leaders("品名", "在庫数", n=3)),
    Q("在庫数が多い品番を5つ挙げて", "top_n", s.leaders("品番", "在庫数", n=5)),
    Q("在庫数合計の多い倉庫を上から2つ", "top_n", s.leaders("倉庫", "在庫数", n=2)),
]
