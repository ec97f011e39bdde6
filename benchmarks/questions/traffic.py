"""Web traffic by day and page, January–June 2024: date, page, source, sessions, pageviews, bounce_rate, conversions."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, name, number, percent, period

D = "date"
QUESTIONS = [
    Q("How many rows are in this traffic log?", "shape", count(len)),
    Q("how many columns?", "shape", count(lambda d: d.shape[1])),
    Q("アクセスログの件数は？", "shape", count(len)),
    Q("How many distinct pages are tracked?", "distinct", s.distinct("page")),
    Q("How many traffic sources are there?", "distinct", s.distinct("source")),
    Q("ページは何種類ありますか", "distinct", s.distinct("page")),
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
        s.winner("page", "conversions", rows=s.where("source", "organic")),
    ),
    Q(
        "Among /blog visits, which source brought the most sessions?",
        "subset_ranking",
        s.winner("source", "sessions", rows=s.where("page", "/blog")),
    ),
    Q(
        "Total sessions per source, then tell me which source is the biggest",
        "two_part",
        s.winner("source", "sessions"),
    ),
    Q("週別のsessionsをグラフにして、最も多かった週は？", "two_part", s.peak(D, "sessions", "W")),
    Q(
        "Aggregate conversions by page and name the page with the fewest",
        "two_part",
        s.winner("page", "conversions", ascending=True),
    ),
    Q("What percentage of all sessions went to /home?", "share", s.total_share("page", "/home", "sessions")),
    Q("What share of conversions came from email?", "share", s.total_share("source", "email", "conversions")),
    Q("/signupのconversionsは全体の何％？", "share", s.total_share("page", "/signup", "conversions")),
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
    Q("Are sessions trending upward or downward?", "trend", s.trend(D, "sessions")),
    Q("Which month had the most pageviews?", "trend", s.peak(D, "pageviews", "M")),
    Q(
        "月別のconversionsの推移で最も少ない月は？",
        "trend",
        period(lambda d: c.peak(d, D, "conversions", "M", low=True), "M", D),
    ),
    Q("How many session outliers are there (z-score > 3)?", "outliers", s.zscore_outliers("sessions")),
    Q("sessionsの外れ値をIQR法で数えて", "outliers", s.iqr_outliers("sessions")),
    Q("count outliers in pageviews by z score above 3", "outliers", s.zscore_outliers("pageviews")),
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
        s.correlation("sessions", "conversions", 0.01),
    ),
    Q(
        "correlation between bounce_rate and conversions?",
        "correlation",
        s.correlation("bounce_rate", "conversions", 0.01),
    ),
    Q("sessionsとpageviewsの相関係数を教えて", "correlation", s.correlation("sessions", "pageviews", 0.01)),
    Q("Top 3 pages by total sessions", "top_n", s.leaders("page", "sessions", n=3)),
    Q("What are the two sources with the highest conversions?", "top_n", s.leaders("source", "conversions", n=2)),
    Q("bounce_rateの平均が低いページを3つ", "top_n", s.leaders("page", "bounce_rate", "mean", n=3, ascending=True)),
]
