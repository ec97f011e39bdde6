"""Restaurant bills: total_bill, tip, sex, smoker (Yes/No), day, time, size."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, name, number, percent

QUESTIONS = [
    Q("How many bills are in the dataset?", "shape", count(len)),
    Q("what's the number of rows?", "shape", count(len)),
    Q("伝票は何件ありますか？", "shape", count(len)),
    Q("How many different days are there in the data?", "distinct", s.distinct("day")),
    Q("How many distinct party sizes appear?", "distinct", s.distinct("size")),
    Q("dayの種類数は？", "distinct", s.distinct("day")),
    Q("How many customers were smokers?", "filter", count(lambda d: (d["smoker"] == "Yes").sum())),
    Q("What is the average tip for non-smokers?", "filter", number(lambda d: d.loc[d["smoker"] == "No", "tip"].mean())),
    Q("How many bills were over 30 dollars?", "filter", count(lambda d: (d["total_bill"] > 30).sum())),
    Q(
        "At dinner, which day had the highest total bill amount?",
        "subset_ranking",
        s.winner("day", "total_bill", rows=s.where("time", "Dinner")),
    ),
    Q(
        "Among smokers, which day brought in the most tips?",
        "subset_ranking",
        s.winner("day", "tip", rows=s.where("smoker", "Yes")),
    ),
    Q(
        "For lunch only, which sex left the larger average tip?",
        "subset_ranking",
        s.winner("sex", "tip", "mean", rows=s.where("time", "Lunch")),
    ),
    Q("Sum the tips by day and tell me which day had the most", "two_part", s.winner("day", "tip")),
    Q(
        "Group by time and compute the mean bill; which one is higher?",
        "two_part",
        s.winner("time", "total_bill", "mean"),
    ),
    Q("曜日(day)ごとの件数をグラフにして、一番少ない曜日はどれ？", "two_part", s.winner("day", ascending=True)),
    Q("What percentage of customers were smokers?", "share", s.row_share("smoker", "Yes")),
    Q("Saturday's share of total bills, as a percent?", "share", s.total_share("day", "Sat", "total_bill")),
    Q("What fraction of all tips (in %) came from dinner?", "share", s.total_share("time", "Dinner", "tip")),
    Q(
        "By what percent is the average tip of non-smokers higher than smokers?",
        "growth",
        s.value_change("smoker", "Yes", "No", "tip"),
    ),
    Q(
        "How many percent larger is the mean bill at dinner than at lunch?",
        "growth",
        s.value_change("time", "Lunch", "Dinner", "total_bill"),
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
        s.winner("size", "tip", "mean"),
    ),
    Q("Which party size has the highest mean total bill?", "trend", s.winner("size", "total_bill", "mean")),
    Q("How many outliers does total_bill have by z-score over 3?", "outliers", s.zscore_outliers("total_bill")),
    Q("Using the IQR method, how many tip values are outliers?", "outliers", s.iqr_outliers("tip")),
    Q("tipの外れ値の数を四分位範囲で求めて", "outliers", s.iqr_outliers("tip")),
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
    Q("What is the correlation between total_bill and tip?", "correlation", s.correlation("total_bill", "tip", 0.01)),
    Q("correlation of size with total bill", "correlation", s.correlation("size", "total_bill", 0.01)),
    Q(
        "Which numeric column is most correlated with tip?",
        "correlation",
        name(lambda d: c.most_correlated(d, "tip", ["total_bill", "size"]), ("total_bill", "size")),
    ),
    Q("Top 2 days by total tips", "top_n", s.leaders("day", "tip", n=2)),
    Q("List the three days with the highest average bill", "top_n", s.leaders("day", "total_bill", "mean", n=3)),
    Q("平均チップ(tip)が高い曜日を上位2つ教えてください", "top_n", s.leaders("day", "tip", "mean", n=2)),
]
