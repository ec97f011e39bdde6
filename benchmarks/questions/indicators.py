"""World development indicators by country and year, 2010–2020 (English columns)."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, direction, name, names, number, percent

Y = "year"


def _in(d, year):
    return d[d[Y] == year]


QUESTIONS = [
    Q("How many rows does the table have?", "shape", count(len)),
    Q("How many columns are there?", "shape", count(lambda d: d.shape[1])),
    Q("データは何件？", "shape", count(len)),
    Q("How many countries are covered?", "distinct", s.distinct("country")),
    Q("How many different regions are in the data?", "distinct", s.distinct("region")),
    Q("国の数を教えて", "distinct", s.distinct("country")),
    Q("How many rows are from Africa?", "filter", count(lambda d: (d["region"] == "Africa").sum())),
    Q(
        "What was Japan's life expectancy in 2015?",
        "filter",
        number(lambda d: d.loc[(d["country"] == "Japan") & (d[Y] == 2015), "life_expectancy"].mean()),
    ),
    Q("2020年に人口が1億人以上の国はいくつ？", "filter", count(lambda d: (_in(d, 2020)["population"] >= 1e8).sum())),
    Q(
        "In 2020, which country had the highest GDP per capita?",
        "subset_ranking",
        name(lambda d: c.first(_in(d, 2020), "country", "gdp_per_capita"), "country"),
    ),
    Q(
        "List the 3 largest countries by population in 2010.",
        "subset_ranking",
        names(lambda d: c.top(_in(d, 2010), "country", "population", n=3), "country"),
    ),
    Q(
        "Within Europe, which country had the higher average life expectancy?",
        "subset_ranking",
        s.winner("country", "life_expectancy", "mean", rows=s.where("region", "Europe")),
    ),
    Q(
        "Compute the average life expectancy by region and tell me which region is highest",
        "two_part",
        s.winner("region", "life_expectancy", "mean"),
    ),
    Q(
        "地域別のCO2排出量(co2_per_capita)の平均を出して、一番少ない地域は？",
        "two_part",
        s.winner("region", "co2_per_capita", "mean", ascending=True),
    ),
    Q("Total gdp_usd by year as a chart, and which year was the largest?", "two_part", s.winner(Y, "gdp_usd")),
    Q(
        "What share of total 2020 population lives in Asia?",
        "share",
        percent(
            lambda d: c.share(
                _in(d, 2020).loc[lambda x: x["region"] == "Asia", "population"], _in(d, 2020)["population"]
            )
        ),
    ),
    Q(
        "In 2020, what percentage of world GDP (gdp_usd) did the United States produce?",
        "share",
        percent(
            lambda d: c.share(
                _in(d, 2020).loc[lambda x: x["country"] == "United States", "gdp_usd"], _in(d, 2020)["gdp_usd"]
            )
        ),
    ),
    Q(
        "2015年のgdp_usdに占めるEuropeの割合は何％？",
        "share",
        percent(
            lambda d: c.share(_in(d, 2015).loc[lambda x: x["region"] == "Europe", "gdp_usd"], _in(d, 2015)["gdp_usd"])
        ),
    ),
    Q(
        "By what percent did total population grow from 2010 to 2020?",
        "growth",
        percent(lambda d: c.growth(_in(d, 2010)["population"], _in(d, 2020)["population"])),
    ),
    Q(
        "How much did India's GDP grow (in %) between 2010 and 2020?",
        "growth",
        percent(
            lambda d: c.growth(
                _in(d[d["country"] == "India"], 2010)["gdp_usd"], _in(d[d["country"] == "India"], 2020)["gdp_usd"]
            )
        ),
    ),
    Q(
        "2015年から2020年でgdp_usdの合計は何%増えた？",
        "growth",
        percent(lambda d: c.growth(_in(d, 2015)["gdp_usd"], _in(d, 2020)["gdp_usd"])),
    ),
    Q(
        "Is average life expectancy rising or falling over the years?",
        "trend",
        direction(lambda d: d.groupby(Y)["life_expectancy"].mean().diff().mean()),
    ),
    Q(
        "What was the average life expectancy in 2020?",
        "trend",
        number(lambda d: _in(d, 2020)["life_expectancy"].mean()),
    ),
    Q("年ごとのco2_per_capitaの平均の推移で、一番高かった年は？", "trend", s.winner(Y, "co2_per_capita", "mean")),
    Q("How many outliers are there in gdp_usd using z-scores above 3?", "outliers", s.zscore_outliers("gdp_usd")),
    Q("Count population outliers with the IQR rule (1.5 × IQR)", "outliers", s.iqr_outliers("population")),
    Q(
        "life_expectancyの外れ値（Zスコアの絶対値が2を超える）は何件？",
        "outliers",
        count(lambda d: c.zscore_count(d["life_expectancy"], 2.0)),
    ),
    Q(
        "Compute GDP per person as gdp_usd divided by population and give its average",
        "derived",
        number(lambda d: (d["gdp_usd"] / d["population"]).mean()),
    ),
    Q(
        "Total CO2 = co2_per_capita * population. What is its mean?",
        "derived",
        number(lambda d: (d["co2_per_capita"] * d["population"]).mean()),
    ),
    Q(
        "What is the median of gdp_per_capita divided by life_expectancy?",
        "derived",
        number(lambda d: (d["gdp_per_capita"] / d["life_expectancy"]).median()),
    ),
    Q(
        "What is the correlation between GDP per capita and life expectancy?",
        "correlation",
        s.correlation("gdp_per_capita", "life_expectancy", 0.01),
    ),
    Q(
        "Pearson correlation of co2_per_capita and gdp_per_capita?",
        "correlation",
        s.correlation("co2_per_capita", "gdp_per_capita", 0.01),
    ),
    Q("population と life_expectancy の相関は？", "correlation", s.correlation("population", "life_expectancy", 0.01)),
    Q("Top 5 countries by average GDP per capita", "top_n", s.leaders("country", "gdp_per_capita", "mean", n=5)),
    Q(
        "Which 3 countries had the lowest life expectancy on average?",
        "top_n",
        s.leaders("country", "life_expectancy", "mean", n=3, ascending=True),
    ),
    Q("人口の平均が大きい国トップ3", "top_n", s.leaders("country", "population", "mean", n=3)),
]
