"""E-commerce returns, 2024-01 to 2025-06 (English headers): return_id, return_date, product_category, reason,
refund_usd, restocking_fee, days_since_purchase, customer_tier, resellable (Y/N), warehouse.

Written before the brain was changed for them (held out): paraphrases, typos, H1/H2, quarters, month over month.
"""

from questions import compute as c
from questions.expect import Question as Q
from questions.expect import count, direction, name, names, number, percent, period

D = "return_date"
R = "refund_usd"


def _n(d, start, end):
    return len(c.window(d, D, start, end))


QUESTIONS = [
    Q("How many returns are in this file?", "shape", count(len)),
    Q("how many colums does it have", "shape", count(lambda d: d.shape[1])),
    Q("返品データは何行ありますか", "shape", count(len)),
    Q("How many different return reasons are there?", "distinct", count(lambda d: d["reason"].nunique())),
    Q("How many warehouses handle returns?", "distinct", count(lambda d: d["warehouse"].nunique())),
    Q("商品カテゴリは何種類？", "distinct", count(lambda d: d["product_category"].nunique())),
    Q("How many returns were resellable?", "filter", count(lambda d: (d["resellable"] == "Y").sum())),
    Q("How many refunds were above $200?", "filter", count(lambda d: (d[R] > 200).sum())),
    Q("How many Gold customers returned something?", "filter", count(lambda d: (d["customer_tier"] == "Gold").sum())),
    Q("返金額が100ドル以上の返品は何件？", "filter", count(lambda d: (d[R] >= 100).sum())),
    Q(
        "In 2025, which warehouse processed the most returns?",
        "subset_ranking",
        name(lambda d: c.first(c.year(d, D, 2025), "warehouse"), "warehouse"),
    ),
    Q(
        "For Electronics, what was the most common return reason?",
        "subset_ranking",
        name(lambda d: c.first(d[d["product_category"] == "Electronics"], "reason"), "reason"),
    ),
    Q(
        "Among Gold customers, which category had the highest total refunds?",
        "subset_ranking",
        name(lambda d: c.first(d[d["customer_tier"] == "Gold"], "product_category", R), "product_category"),
    ),
    Q(
        "Chart returns by reason and tell me which reason is most frequent",
        "two_part",
        name(lambda d: c.first(d, "reason"), "reason"),
    ),
    Q(
        "Plot monthly refund totals; which month was highest?",
        "two_part",
        period(lambda d: c.peak(d, D, R, "M"), "M", D),
    ),
    Q(
        "Break down the average refund by customer tier - which tier is highest?",
        "two_part",
        name(lambda d: c.first(d, "customer_tier", R, "mean"), "customer_tier"),
    ),
    Q("What share of returns were Damaged?", "share", percent(lambda d: 100 * (d["reason"] == "Damaged").mean())),
    Q(
        "What percent of total refunds came from Electronics?",
        "share",
        percent(lambda d: c.share(d.loc[d["product_category"] == "Electronics", R], d[R])),
    ),
    Q("返品のうちNewark倉庫の割合は何％？", "share", percent(lambda d: 100 * (d["warehouse"] == "Newark").mean())),
    Q(
        "By what percent did total refunds change from Q1 2024 to Q1 2025?",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-04-01")[R], c.window(d, D, "2025-01-01", "2025-04-01")[R]
            )
        ),
    ),
    Q(
        "How much did the number of returns grow from H1 2024 to H2 2024, in percent?",
        "growth",
        percent(lambda d: 100 * (_n(d, "2024-07-01", "2025-01-01") / _n(d, "2024-01-01", "2024-07-01") - 1)),
    ),
    Q(
        "2024年上期と下期で返金額の合計は何％変わった？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-07-01")[R], c.window(d, D, "2024-07-01", "2025-01-01")[R]
            )
        ),
    ),
    Q(
        "Compared with the previous month, by how many percent did returns change in June 2025?",
        "growth",
        percent(lambda d: 100 * (_n(d, "2025-06-01", "2025-07-01") / _n(d, "2025-05-01", "2025-06-01") - 1)),
    ),
    Q("Are refunds trending up or down month over month?", "trend", direction(lambda d: c.slope(d, D, R, "M"))),
    Q("Which quarter had the most returns?", "trend", period(lambda d: c.peak(d, D, None, "Q"), "Q", D)),
    Q("週別の返品件数の推移で一番多かった週は？", "trend", period(lambda d: c.peak(d, D, None, "W"), "W", D)),
    Q("How many refund outliers are there using a z-score above 3?", "outliers", count(lambda d: c.zscore_count(d[R]))),
    Q(
        "Count outliers in days_since_purchase with the IQR rule",
        "outliers",
        count(lambda d: c.iqr_count(d["days_since_purchase"])),
    ),
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
        number(lambda d: d["days_since_purchase"].corr(d[R]), 0.02, absolute=True),
    ),
    Q("top 3 return reasons by count", "top_n", names(lambda d: c.top(d, "reason", n=3), "reason")),
    Q(
        "Which 2 warehouses had the lowest total refunds?",
        "top_n",
        names(lambda d: c.top(d, "warehouse", R, n=2, ascending=True), "warehouse"),
    ),
    Q(
        "List the 3 largest product categories by total refund",
        "top_n",
        names(lambda d: c.top(d, "product_category", R, n=3), "product_category"),
    ),
    Q(
        "返金額の合計が多いカテゴリ上位2つ",
        "top_n",
        names(lambda d: c.top(d, "product_category", R, n=2), "product_category"),
    ),
]
