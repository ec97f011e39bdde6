"""E-commerce orders, 2023-04 to 2025-03: 注文ID, 注文日, 会員 (yes/no), category, 金額, 送料, 支払方法, 都道府県."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, name, number, percent, period

D = "注文日"
QUESTIONS = [
    Q("注文は全部で何件ありますか？", "shape", count(len)),
    Q("How many orders are there in total?", "shape", count(len)),
    Q("列の数は？", "shape", count(lambda d: d.shape[1])),
    Q("How many product categories are there?", "distinct", s.distinct("category")),
    Q("支払方法は何通り？", "distinct", s.distinct("支払方法")),
    Q("注文のあった都道府県の数を教えて", "distinct", s.distinct("都道府県")),
    Q("会員の注文は何件？", "filter", count(lambda d: (d["会員"] == "yes").sum())),
    Q("How many orders were placed by members?", "filter", count(lambda d: (d["会員"] == "yes").sum())),
    Q("金額が3万円以上の注文は何件ありますか", "filter", count(lambda d: (d["金額"] >= 30000).sum())),
    Q(
        "2024年度に売上（金額）が一番多かったカテゴリは？",
        "subset_ranking",
        name(lambda d: c.first(c.fiscal_year(d, D, 2024), "category", "金額"), "category"),
    ),
    Q(
        "非会員の注文で、金額合計が最も大きい都道府県はどこ？",
        "subset_ranking",
        s.winner("都道府県", "金額", rows=s.where("会員", "no")),
    ),
    Q(
        "In 2024, which payment method was used most often?",
        "subset_ranking",
        name(lambda d: c.first(c.year(d, D, 2024), "支払方法"), "支払方法"),
    ),
    Q("カテゴリ別に金額を集計して、一番大きいカテゴリを教えて", "two_part", s.winner("category", "金額")),
    Q("月別の注文件数をグラフにして、最も多かった月は？", "two_part", s.peak(D, None, "M")),
    Q("支払方法ごとの平均金額を出して、いちばん高い支払方法は？", "two_part", s.winner("支払方法", "金額", "mean")),
    Q("会員の注文は全体の何％？", "share", s.row_share("会員", "yes")),
    Q("Electronicsの金額は全体の何パーセント？", "share", s.total_share("category", "Electronics", "金額")),
    Q("What share of revenue (金額) comes from members?", "share", s.total_share("会員", "yes", "金額")),
    Q(
        "2023年度から2024年度で金額は何％伸びた？",
        "growth",
        percent(lambda d: c.growth(c.fiscal_year(d, D, 2023)["金額"], c.fiscal_year(d, D, 2024)["金額"])),
    ),
    Q(
        "2024年度上期は2023年度上期に比べて注文金額が何%増えましたか？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2023-04-01", "2023-10-01")["金額"], c.window(d, D, "2024-04-01", "2024-10-01")["金額"]
            )
        ),
    ),
    Q("会員の平均金額は非会員より何％高い？", "growth", s.value_change("会員", "no", "yes", "金額")),
    Q("月別の売上(金額)推移で一番売れた月は？", "trend", s.peak(D, "金額", "M")),
    Q("Is monthly revenue (金額) going up or down?", "trend", s.trend(D, "金額")),
    Q(
        "四半期別の注文件数の推移で最も少なかった四半期は？",
        "trend",
        period(lambda d: c.peak(d, D, None, "Q", low=True), "Q", D),
    ),
    Q("金額の外れ値（zスコア>3）は何件？", "outliers", s.zscore_outliers("金額")),
    Q("IQR法で金額の外れ値を数えると何件？", "outliers", s.iqr_outliers("金額")),
    Q(
        "How many outliers does 金額 have with a z-score threshold of 2?",
        "outliers",
        count(lambda d: c.zscore_count(d["金額"], 2.0)),
    ),
    Q("送料込みの金額（金額+送料）の平均はいくら？", "derived", number(lambda d: (d["金額"] + d["送料"]).mean())),
    Q("送料の比率（送料÷金額）の平均を教えて", "derived", number(lambda d: (d["送料"] / d["金額"]).mean())),
    Q("税込金額を金額×1.1として、その合計は？", "derived", number(lambda d: (d["金額"] * 1.1).sum())),
    Q("金額と送料の相関係数は？", "correlation", s.correlation("金額", "送料", 0.01)),
    Q(
        "correlation between 金額 and 送料 (spearman)",
        "correlation",
        s.correlation("金額", "送料", 0.01, method="spearman"),
    ),
    Q("送料と金額の関係を相関係数で", "correlation", s.correlation("送料", "金額", 0.01)),
    Q("金額合計の上位3カテゴリは？", "top_n", s.leaders("category", "金額", n=3)),
    Q("注文件数が多い都道府県トップ3を教えてください", "top_n", s.leaders("都道府県", n=3)),
    Q("Top 2 payment methods by total amount", "top_n", s.leaders("支払方法", "金額", n=2)),
]
