"""Hotel bookings for 2024: booking_id, arrival_date, room_type, nights, nightly_rate, revenue, canceled (Yes/No)..."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, direction, name, number, percent, period

D = "arrival_date"
QUESTIONS = [
    Q("How many bookings are there?", "shape", count(len)),
    Q("How many columns does the bookings table have?", "shape", count(lambda d: d.shape[1])),
    Q("予約は全部で何件？", "shape", count(len)),
    Q("How many room types are there?", "distinct", s.distinct("room_type")),
    Q("how many booking channels?", "distinct", s.distinct("channel")),
    Q("nightsの異なる値はいくつ？", "distinct", s.distinct("nights")),
    Q("How many bookings were canceled?", "filter", count(lambda d: (d["canceled"] == "Yes").sum())),
    Q(
        "What is the average nightly rate of Suite bookings?",
        "filter",
        number(lambda d: d.loc[d["room_type"] == "Suite", "nightly_rate"].mean()),
    ),
    Q("How many bookings stayed 5 nights or more?", "filter", count(lambda d: (d["nights"] >= 5).sum())),
    Q(
        "In August 2024, which room type earned the most revenue?",
        "subset_ranking",
        name(lambda d: c.first(c.window(d, D, "2024-08-01", "2024-09-01"), "room_type", "revenue"), "room_type"),
    ),
    Q(
        "Among canceled bookings, which channel had the most?",
        "subset_ranking",
        s.winner("channel", rows=s.where("canceled", "Yes")),
    ),
    Q(
        "For Double rooms, which channel brought the highest total revenue?",
        "subset_ranking",
        s.winner("channel", "revenue", rows=s.where("room_type", "Double")),
    ),
    Q("Sum revenue by channel and tell me which channel is largest", "two_part", s.winner("channel", "revenue")),
    Q("Chart monthly bookings and tell me the busiest month", "two_part", s.peak(D, None, "M")),
    Q("room_type別の平均nightsを集計して、一番長いのは？", "two_part", s.winner("room_type", "nights", "mean")),
    Q("What percentage of bookings were canceled?", "share", s.row_share("canceled", "Yes")),
    Q("What share of revenue comes from Suites?", "share", s.total_share("room_type", "Suite", "revenue")),
    Q("OTA経由の予約は全体の何%？", "share", s.row_share("channel", "OTA")),
    Q(
        "By what percent did revenue grow from Q1 to Q3 2024?",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-04-01")["revenue"],
                c.window(d, D, "2024-07-01", "2024-10-01")["revenue"],
            )
        ),
    ),
    Q(
        "上期（1〜6月）から下期（7〜12月）でrevenueは何%増えた？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-07-01")["revenue"],
                c.window(d, D, "2024-07-01", "2025-01-01")["revenue"],
            )
        ),
    ),
    Q(
        "How much higher, in percent, is the Suite nightly rate than the Double rate on average?",
        "growth",
        s.value_change("room_type", "Double", "Suite", "nightly_rate"),
    ),
    Q("Which month had the highest total revenue?", "trend", s.peak(D, "revenue", "M")),
    Q(
        "月別の平均nightly_rateの推移で、最も安かった月は？",
        "trend",
        period(lambda d: c.peak(d, D, "nightly_rate", "M", "mean", low=True), "M", D),
    ),
    Q(
        "Is the average nightly rate rising or falling from January to August?",
        "trend",
        direction(lambda d: c.slope(c.window(d, D, "2024-01-01", "2024-09-01"), D, "nightly_rate", "M", "mean")),
    ),
    Q("How many revenue outliers are there with z-score above 3?", "outliers", s.zscore_outliers("revenue")),
    Q("Count nightly_rate outliers using the IQR method", "outliers", s.iqr_outliers("nightly_rate")),
    Q("revenueの外れ値はIQR法で何件？", "outliers", s.iqr_outliers("revenue")),
    Q(
        "Compute revenue per guest as revenue divided by guests and give its average",
        "derived",
        number(lambda d: (d["revenue"] / d["guests"]).mean()),
    ),
    Q("What is the average of revenue / nights?", "derived", number(lambda d: (d["revenue"] / d["nights"]).mean())),
    Q(
        "1人1泊あたりの料金（nightly_rate÷guests）の中央値は？",
        "derived",
        number(lambda d: (d["nightly_rate"] / d["guests"]).median()),
    ),
    Q("What is the correlation between nights and revenue?", "correlation", s.correlation("nights", "revenue", 0.01)),
    Q("correlation of guests and nightly_rate", "correlation", s.correlation("guests", "nightly_rate", 0.01)),
    Q("nightly_rateとrevenueの相関係数は？", "correlation", s.correlation("nightly_rate", "revenue", 0.01)),
    Q("Top 2 channels by revenue", "top_n", s.leaders("channel", "revenue", n=2)),
    Q("List the 2 room types with the most bookings", "top_n", s.leaders("room_type", n=2)),
    Q("平均revenueが高いroom_typeを上位2つ", "top_n", s.leaders("room_type", "revenue", "mean", n=2)),
]
