"""E-commerce returns, 2024-01 to 2025-06 (English headers): return_id, return_date, product_category, reason,
refund_usd, restocking_fee, days_since_purchase, customer_tier, resellable (Y/N), warehouse.

Written before the brain was changed for them (held out): paraphrases, typos, H1/H2, quarters, month over month.
"""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, number, percent

D = "return_date"
R = "refund_usd"


def _refunds(d, start, end):
    return c.window(d, D, start, end)[R]


QUESTIONS = [
    Q("How many returns are in this file?", "shape", count(len)),
    Q("how many colums does it have", "shape", count(lambda d: d.shape[1])),
    Q("返品データは何行ありますか", "shape", count(len)),
    Q("How many different return reasons are there?", "distinct", s.distinct("reason")),
    Q("How many warehouses handle returns?", "distinct", s.distinct("warehouse")),
    Q("商品カテゴリは何種類？", "distinct", s.distinct("product_category")),
    Q("How many returns were resellable?", "filter", count(lambda d: (d["resellable"] == "Y").sum())),
    Q("How many refunds were above $200?", "filter", count(lambda d: (d[R] > 200).sum())),
    Q("How many Gold customers returned something?", "filter", count(lambda d: (d["customer_tier"] == "Gold").sum())),
    Q("返金額が100ドル以上の返品は何件？", "filter", count(lambda d: (d[R] >= 100).sum())),
    Q(
        "In 2025, which warehouse processed the most returns?",
        "subset_ranking",
        s.winner("warehouse", rows=lambda d: c.year(d, D, 2025)),
    ),
    Q(
        "For Electronics, what was the most common return reason?",
        "subset_ranking",
        s.winner("reason", rows=s.where("product_category", "Electronics")),
    ),
    Q(
        "Among Gold customers, which category had the highest total refunds?",
        "subset_ranking",
        s.winner("product_category", R, rows=s.where("customer_tier", "Gold")),
    ),
    Q("Chart returns by reason and tell me which reason is most frequent", "two_part", s.winner("reason")),
    Q("Plot monthly refund totals; which month was highest?", "two_part", s.peak(D, R, "M")),
    Q(
        "Break down the average refund by customer tier - which tier is highest?",
        "two_part",
        s.winner("customer_tier", R, "mean"),
    ),
    Q("What share of returns were Damaged?", "share", s.row_share("reason", "Damaged")),
    Q(
        "What percent of total refunds came from Electronics?",
        "share",
        s.total_share("product_category", "Electronics", R),
    ),
    Q("返品のうちNewark倉庫の割合は何％？", "share", s.row_share("warehouse", "Newark")),
    Q(
        "By what percent did total refunds change from Q1 2024 to Q1 2025?",
        "growth",
        percent(lambda d: c.growth(_refunds(d, "2024-01-01", "2024-04-01"), _refunds(d, "2025-01-01", "2025-04-01"))),
    ),
    Q(
        "How much did the number of returns grow from H1 2024 to H2 2024, in percent?",
        "growth",
        s.window_change(D, ("2024-01-01", "2024-07-01"), ("2024-07-01", "2025-01-01")),
    ),
    Q(
        "2024年上期と下期で返金額の合計は何％変わった？",
        "growth",
        percent(lambda d: c.growth(_refunds(d, "2024-01-01", "2024-07-01"), _refunds(d, "2024-07-01", "2025-01-01"))),
    ),
    Q(
        "Compared with the previous month, by how many percent did returns change in June 2025?",
        "growth",
        s.window_change(D, ("2025-05-01", "2025-06-01"), ("2025-06-01", "2025-07-01")),
    ),
    Q("Are refunds trending up or down month over month?", "trend", s.trend(D, R)),
    Q("Which quarter had the most returns?", "trend", s.peak(D, None, "Q")),
    Q("週別の返品件数の推移で一番多かった週は？", "trend", s.peak(D, None, "W")),
    Q("How many refund outliers are there using a z-score above 3?", "outliers", s.zscore_outliers(R)),
    Q("Count outliers in days_since_purchase with the IQR rule", "outliers", s.iqr_outliers("days_since_purchase")),
    Q(
        "What is the average net refund, i.e. refund_usd minus restocking_fee?",
        "derived",
        number(lambda d: (d[R] - d["restocking_fee"]).mean()),
    ),
    Q(
        "Compute refund per day since purchase (refund_usd / days_since_purchase) and give the median",
        "derived",
        number(lambda d: (d[R] / d["days_since_purchase"]).median()),
    ),
    Q(
        "Correlation between days since purchase and refund amount?",
        "correlation",
        s.correlation("days_since_purchase", R, 0.02),
    ),
    Q("top 3 return reasons by count", "top_n", s.leaders("reason", n=3)),
    Q("Which 2 warehouses had the lowest total refunds?", "top_n", s.leaders("warehouse", R, n=2, ascending=True)),
    Q("List the 3 largest product categories by total refund", "top_n", s.leaders("product_category", R, n=3)),
    Q("返金額の合計が多いカテゴリ上位2つ", "top_n", s.leaders("product_category", R, n=2)),
]
