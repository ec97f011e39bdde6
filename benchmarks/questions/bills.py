"""Restaurant bills: total_bill, tip, sex, smoker (Yes/No), day, time, size."""

from questions import compute as c
from questions.expect import Question as Q
from questions.expect import count, name, names, number, percent

QUESTIONS = [
    Q("How many bills are in the dataset?", "shape", count(len)),
    Q("what's the number of rows?", "shape", count(len)),
    Q("伝票は何件ありますか？", "shape", count(len)),
    Q("How many different days are there in the data?", "distinct", count(lambda d: d["day"].nunique())),
    Q("How many distinct party sizes appear?", "distinct", count(lambda d: d["size"].nunique())),
    Q("dayの種類数は？", "distinct", count(lambda d: d["day"].nunique())),
    Q("How many customers were smokers?", "filter", count(lambda d: (d["smoker"] == "Yes").sum())),
    Q("What is the average tip for non-smokers?", "filter", number(lambda d: d.loc[d["smoker"] == "No", "tip"].mean())),
    Q("How many bills were over 30 dollars?", "filter", count(lambda d: (d["total_bill"] > 30).sum())),
    Q(
        "At dinner, which day had the highest total bill amount?",
        "subset_ranking",
        name(lambda d: c.first(d[d["time"] == "Dinner"], "day", "total_bill"), "day"),
    ),
    Q(
        "Among smokers, which day brought in the most tips?",
        "subset_ranking",
        name(lambda d: c.first(d[d["smoker"] == "Yes"], "day", "tip"), "day"),
    ),
    Q(
        "For lunch only, which sex left the larger average tip?",
        "subset_ranking",
        name(lambda d: c.first(d[d["time"] == "Lunch"], "sex", "tip", "mean"), "sex"),
    ),
    Q(
        "Sum the tips by day and tell me which day had the most",
        "two_part",
        name(lambda d: c.first(d, "day", "tip"), "day"),
    ),
    Q(
        "Group by time and compute the mean bill; which one is higher?",
        "two_part",
        name(lambda d: c.first(d, "time", "total_bill", "mean"), "time"),
    ),
    Q(
        "曜日(day)ごとの件数をグラフにして、一番少ない曜日はどれ？",
        "two_part",
        name(lambda d: c.first(d, "day", ascending=True), "day"),
    ),
    Q("What percentage of customers were smokers?", "share", percent(lambda d: 100 * (d["smoker"] == "Yes").mean())),
    Q(
        "Saturday's share of total bills, as a percent?",
        "share",
        percent(lambda d: c.share(d.loc[d["day"] == "Sat", "total_bill"], d["total_bill"])),
    ),
    Q(
        "What fraction of all tips (in %) came from dinner?",
        "share",
        percent(lambda d: c.share(d.loc[d["time"] == "Dinner", "tip"], d["tip"])),
    ),
    Q(
        "By what percent is the average tip of non-smokers higher than smokers?",
        "growth",
        percent(
            lambda d: 100 * (d.loc[d["smoker"] == "No", "tip"].mean() / d.loc[d["smoker"] == "Yes", "tip"].mean() - 1)
        ),
    ),
    Q(
        "How many percent larger is the mean bill at dinner than at lunch?",
        "growth",
        percent(
            lambda d: (
                100
                * (
                    d.loc[d["time"] == "Dinner", "total_bill"].mean() / d.loc[d["time"] == "Lunch", "total_bill"].mean()
                    - 1
                )
            )
        ),
    ),
    Q(
        "Thurから Sunで合計のtipは何%増えた？",
        "growth",
        percent(lambda d: c.growth(d.loc[d["day"] == "Thur", "tip"], d.loc[d["day"] == "Sun", "tip"])),
    ),
    Q(
        "Does the tip go up or down as the party size grows? Give the average tip for the largest size",
        "trend",
        number(lambda d: d.loc[d["size"] == d["size"].max(), "tip"].mean()),
    ),
    Q(
        "How does the average tip change with party size? Which size has the highest average tip?",
        "trend",
        name(lambda d: c.first(d, "size", "tip", "mean"), "size"),
    ),
    Q(
        "Which party size has the highest mean total bill?",
        "trend",
        name(lambda d: c.first(d, "size", "total_bill", "mean"), "size"),
    ),
    Q(
        "How many outliers does total_bill have by z-score over 3?",
        "outliers",
        count(lambda d: c.zscore_count(d["total_bill"])),
    ),
    Q("Using the IQR method, how many tip values are outliers?", "outliers", count(lambda d: c.iqr_count(d["tip"]))),
    Q("tipの外れ値の数を四分位範囲で求めて", "outliers", count(lambda d: c.iqr_count(d["tip"]))),
    Q(
        "Compute the tip rate as tip divided by total_bill and give its average",
        "derived",
        number(lambda d: (d["tip"] / d["total_bill"]).mean()),
    ),
    Q(
        "What's the average bill per person (total_bill / size)?",
        "derived",
        number(lambda d: (d["total_bill"] / d["size"]).mean()),
    ),
    Q("チップ率（tip÷total_bill）の中央値は？", "derived", number(lambda d: (d["tip"] / d["total_bill"]).median())),
    Q(
        "What is the correlation between total_bill and tip?",
        "correlation",
        number(lambda d: d["total_bill"].corr(d["tip"]), 0.01, absolute=True),
    ),
    Q(
        "correlation of size with total bill",
        "correlation",
        number(lambda d: d["size"].corr(d["total_bill"]), 0.01, absolute=True),
    ),
    Q(
        "Which numeric column is most correlated with tip?",
        "correlation",
        name(lambda d: c.most_correlated(d, "tip", ["total_bill", "size"]), ("total_bill", "size")),
    ),
    Q("Top 2 days by total tips", "top_n", names(lambda d: c.top(d, "day", "tip", n=2), "day")),
    Q(
        "List the three days with the highest average bill",
        "top_n",
        names(lambda d: c.top(d, "day", "total_bill", "mean", n=3), "day"),
    ),
    Q(
        "平均チップ(tip)が高い曜日を上位2つ教えてください",
        "top_n",
        names(lambda d: c.top(d, "day", "tip", "mean", n=2), "day"),
    ),
]
