"""Web traffic by day and page, January–June 2024: date, page, source, sessions, pageviews, bounce_rate, conversions."""

from questions import compute as c
from questions.expect import Question as Q
from questions.expect import count, direction, name, names, number, percent, period

D = "date"
QUESTIONS = [
    Q("How many rows are in this traffic log?", "shape", count(len)),
    Q("how many columns?", "shape", count(lambda d: d.shape[1])),
    Q("アクセスログの件数は？", "shape", count(len)),
    Q("How many distinct pages are tracked?", "distinct", count(lambda d: d["page"].nunique())),
    Q("How many traffic sources are there?", "distinct", count(lambda d: d["source"].nunique())),
    Q("ページは何種類ありますか", "distinct", count(lambda d: d["page"].nunique())),
    Q(
        "How many sessions came from ads in total?",
        "filter",
        number(lambda d: d.loc[d["source"] == "ads", "sessions"].sum()),
    ),
    Q(
        "What is the average bounce rate of the /pricing page?",
        "filter",
        number(lambda d: d.loc[d["page"] == "/pricing", "bounce_rate"].mean()),
    ),
    Q("On how many rows were there more than 1000 sessions?", "filter", count(lambda d: (d["sessions"] > 1000).sum())),
    Q(
        "In March 2024, which page had the most sessions?",
        "subset_ranking",
        name(lambda d: c.first(c.window(d, D, "2024-03-01", "2024-04-01"), "page", "sessions"), "page"),
    ),
    Q(
        "For organic traffic, which page converted the most?",
        "subset_ranking",
        name(lambda d: c.first(d[d["source"] == "organic"], "page", "conversions"), "page"),
    ),
    Q(
        "Among /blog visits, which source brought the most sessions?",
        "subset_ranking",
        name(lambda d: c.first(d[d["page"] == "/blog"], "source", "sessions"), "source"),
    ),
    Q(
        "Total sessions per source, then tell me which source is the biggest",
        "two_part",
        name(lambda d: c.first(d, "source", "sessions"), "source"),
    ),
    Q(
        "週別のsessionsをグラフにして、最も多かった週は？",
        "two_part",
        period(lambda d: c.peak(d, D, "sessions", "W"), "W", D),
    ),
    Q(
        "Aggregate conversions by page and name the page with the fewest",
        "two_part",
        name(lambda d: c.first(d, "page", "conversions", ascending=True), "page"),
    ),
    Q(
        "What percentage of all sessions went to /home?",
        "share",
        percent(lambda d: c.share(d.loc[d["page"] == "/home", "sessions"], d["sessions"])),
    ),
    Q(
        "What share of conversions came from email?",
        "share",
        percent(lambda d: c.share(d.loc[d["source"] == "email", "conversions"], d["conversions"])),
    ),
    Q(
        "/signupのconversionsは全体の何％？",
        "share",
        percent(lambda d: c.share(d.loc[d["page"] == "/signup", "conversions"], d["conversions"])),
    ),
    Q(
        "By what percent did sessions grow from January to June 2024?",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-02-01")["sessions"],
                c.window(d, D, "2024-06-01", "2024-07-01")["sessions"],
            )
        ),
    ),
    Q(
        "第1四半期から第2四半期でpageviewsは何％伸びましたか",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-01-01", "2024-04-01")["pageviews"],
                c.window(d, D, "2024-04-01", "2024-07-01")["pageviews"],
            )
        ),
    ),
    Q(
        "How much did conversions change in percent from February to March?",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2024-02-01", "2024-03-01")["conversions"],
                c.window(d, D, "2024-03-01", "2024-04-01")["conversions"],
            )
        ),
    ),
    Q("Are sessions trending upward or downward?", "trend", direction(lambda d: c.slope(d, D, "sessions"))),
    Q("Which month had the most pageviews?", "trend", period(lambda d: c.peak(d, D, "pageviews", "M"), "M", D)),
    Q(
        "月別のconversionsの推移で最も少ない月は？",
        "trend",
        period(lambda d: c.peak(d, D, "conversions", "M", low=True), "M", D),
    ),
    Q("How many session outliers are there (z-score > 3)?", "outliers", count(lambda d: c.zscore_count(d["sessions"]))),
    Q("sessionsの外れ値をIQR法で数えて", "outliers", count(lambda d: c.iqr_count(d["sessions"]))),
    Q("count outliers in pageviews by z score above 3", "outliers", count(lambda d: c.zscore_count(d["pageviews"]))),
    Q(
        "Compute the conversion rate as conversions divided by sessions and give its average",
        "derived",
        number(lambda d: (d["conversions"] / d["sessions"]).mean()),
    ),
    Q(
        "What are pages per session (pageviews / sessions) on average?",
        "derived",
        number(lambda d: (d["pageviews"] / d["sessions"]).mean()),
    ),
    Q(
        "1セッションあたりのページビュー（pageviews÷sessions）の中央値は？",
        "derived",
        number(lambda d: (d["pageviews"] / d["sessions"]).median()),
    ),
    Q(
        "What is the correlation between sessions and conversions?",
        "correlation",
        number(lambda d: d["sessions"].corr(d["conversions"]), 0.01, absolute=True),
    ),
    Q(
        "correlation between bounce_rate and conversions?",
        "correlation",
        number(lambda d: d["bounce_rate"].corr(d["conversions"]), 0.01, absolute=True),
    ),
    Q(
        "sessionsとpageviewsの相関係数を教えて",
        "correlation",
        number(lambda d: d["sessions"].corr(d["pageviews"]), 0.01, absolute=True),
    ),
    Q("Top 3 pages by total sessions", "top_n", names(lambda d: c.top(d, "page", "sessions", n=3), "page")),
    Q(
        "What are the two sources with the highest conversions?",
        "top_n",
        names(lambda d: c.top(d, "source", "conversions", n=2), "source"),
    ),
    Q(
        "bounce_rateの平均が低いページを3つ",
        "top_n",
        names(lambda d: c.top(d, "page", "bounce_rate", "mean", n=3, ascending=True), "page"),
    ),
]
