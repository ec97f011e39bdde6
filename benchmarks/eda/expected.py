"""What a careful analyst would raise on each table of benchmarks/eda/tables.

Written from the tables alone (their statistics, computed with pandas), before any EDA run. Flags:

- ``partial_period``: a partial first/last period (week, month or year) exists; it must be said and
  left out of any first-to-last change. ``partial`` lists those periods as (grain, a date inside).
- ``skew_log``: a measure with skewness > 5 (or an obvious 1000× range) needs a log view or a note.
- ``pearson_spearman``: Pearson and Spearman disagree by > 0.3 on a pair; to be reconciled.
- ``outliers_with_without``: heavy outliers (a handful of values far beyond the rest) call for the
  statistic with and without them.
- ``boolean_labels``: boolean columns are present (あり/なし in a Japanese report, never bare True/False).
- ``missing_labels``: missing values are present (欠損 / missing shown).

``measures``: the columns the skew / outlier flags are about (their names should be near the note).
"""

from __future__ import annotations

from dataclasses import dataclass, field

FLAGS = (
    "partial_period",
    "skew_log",
    "pearson_spearman",
    "outliers_with_without",
    "boolean_labels",
    "missing_labels",
)


@dataclass(frozen=True)
class Expected:
    flags: tuple[str, ...]
    goal: str | None
    language: str  # "ja" or "en": the language of the table's columns and of its goal
    partial: tuple[tuple[str, str], ...] = ()  # (grain: week|month|year, an ISO date inside the period)
    # the table's first and last date and its step (day, business, hour, month): which period labels
    # are partial under each week convention (Monday or Sunday starts, weeks ending Sunday or Monday)
    span: tuple[str, str, str] | None = None
    measures: tuple[str, ...] = ()
    why: str = ""
    extra: dict[str, str] = field(default_factory=dict)


EXPECTED: dict[str, Expected] = {
    "animals_brain_ja": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without"),
        goal="体重と脳重の関係を知りたい",
        language="ja",
        measures=("体重_kg", "脳重_g"),
        why="体重 skew 7.7; Pearson 0.05 vs Spearman 0.92 (three dinosaurs hide the monotone relation)",
    ),
    "animals_mass": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without"),
        goal=None,
        language="en",
        measures=("body_kg", "brain_g"),
        why="body skew 5.0 over 6 orders of magnitude; Pearson -0.01 vs Spearman 0.72 (dinosaurs)",
    ),
    "breast_cancer": Expected(
        flags=("skew_log", "outliers_with_without", "boolean_labels"),
        goal="Which measurements separate malignant from benign tumours?",
        language="en",
        measures=("area_error",),
        why="area_error skew 5.4, max z 11; malignant is boolean",
    ),
    "cars": Expected(
        flags=("missing_labels",),
        goal="How did fuel economy change over the model years?",
        language="en",
        why="Miles_per_Gallon (8) and Horsepower (6) missing; Year is whole model years",
    ),
    "ceo_salary_ja": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without", "boolean_labels"),
        goal="売上高と役員報酬の関係を知りたい",
        language="ja",
        measures=("報酬_千ドル", "売上高_百万ドル"),
        why="報酬 skew 6.9 (max z 10), 売上高 skew 5.0; Pearson 0.12 vs Spearman 0.53; 4 industry booleans",
    ),
    "credit_card_ja": Expected(
        flags=("outliers_with_without", "boolean_labels"),
        goal="カードが承認される人の特徴を知りたい",
        language="ja",
        measures=("月間支出_ドル", "信用事故件数"),
        why="月間支出 max z 11, 信用事故件数 max z 10 (skews 3.7 and 4.9, under 5); 3 booleans",
    ),
    "diabetes_ja": Expected(
        flags=(),
        goal="一年後の進行度と関係の強い項目を知りたい",
        language="ja",
        why="a clean control: no skew > 2, no missing values, no booleans, no dates",
    ),
    "economics_ja": Expected(
        flags=("partial_period",),
        goal="失業者数の推移を知りたい",
        language="ja",
        span=("1967-07-01", "2015-04-01", "month"),
        partial=(("year", "1967-07-01"), ("year", "2015-01-01")),
        why="monthly 1967-07..2015-04: the years 1967 (6 months) and 2015 (4 months) are partial",
    ),
    "flights_daily": Expected(
        flags=("partial_period", "boolean_labels"),
        goal="How did the number of flights change over the summer?",
        language="en",
        span=("2013-07-01", "2013-09-02", "day"),
        partial=(("week", "2013-09-02"), ("month", "2013-09-02")),
        why="daily 2013-07-01 (Mon)..2013-09-02 (Mon): the last week has one day, September two; weekend is boolean",
    ),
    "flights_ja": Expected(
        flags=("partial_period", "skew_log", "pearson_spearman", "outliers_with_without", "missing_labels"),
        goal="月ごとの出発遅延の変化を知りたい",
        language="ja",
        span=("2013-01-01", "2013-03-04", "day"),
        partial=(("week", "2013-01-01"), ("week", "2013-03-04"), ("month", "2013-03-01")),
        measures=("出発遅延_分", "到着遅延_分"),
        why=(
            "2013-01-01 (Tue)..2013-03-04 (Mon): March has 4 days, the last week one; 出発遅延 skew 9.4 "
            "(max z 27); 出発/到着遅延 Pearson 0.93 vs Spearman 0.59; cancelled flights leave delays missing"
        ),
    ),
    "gapminder": Expected(
        flags=("skew_log", "outliers_with_without"),
        goal="How does life expectancy relate to GDP per capita?",
        language="en",
        measures=("pop", "gdpPercap"),
        why="pop skew 8.3 (China, India; max z 12); gdpPercap max z 11 (Kuwait)",
    ),
    "hmda": Expected(
        flags=("skew_log", "outliers_with_without", "boolean_labels"),
        goal="What predicts a denied mortgage application?",
        language="en",
        measures=("pirat", "hirat"),
        why="pirat skew 8.1, hirat 10.3 (max z 25-28); 8 booleans",
    ),
    "house_prices": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without", "boolean_labels"),
        goal=None,
        language="en",
        measures=("lot_sqft",),
        why="lot_sqft skew 6.7 (max z 8); assessed_k vs lot_sqft Pearson 0.33 vs Spearman 0.68; colonial",
    ),
    "iris_ja": Expected(
        flags=(),
        goal=None,
        language="ja",
        why="a clean control",
    ),
    "loans": Expected(
        flags=("skew_log", "outliers_with_without", "missing_labels", "boolean_labels"),
        goal="What drives the interest rate?",
        language="en",
        measures=("annual_income", "debt_to_income", "total_collection_amount_ever"),
        why="annual_income skew 5.1 (max z 16), debt_to_income 11.4; emp_length missing 256; joint_application",
    ),
    "movies": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without", "missing_labels", "boolean_labels"),
        goal=None,
        language="en",
        measures=("votes",),
        why="votes skew 14.5 (max z 25); budget vs votes Pearson 0.47 vs Spearman 0.83; budget missing 92%",
    ),
    "msft_ja": Expected(
        flags=("partial_period",),
        goal="月ごとの出来高の変化を知りたい",
        language="ja",
        span=("2003-06-19", "2003-09-19", "business"),
        partial=(("week", "2003-06-19"), ("month", "2003-06-19"), ("month", "2003-09-19")),
        why=(
            "trading days 2003-06-19 (Thu)..2003-09-19: June and September are partial months, "
            "the first week has 2 days"
        ),
    ),
    "msleep_ja": Expected(
        flags=("skew_log", "pearson_spearman", "outliers_with_without", "missing_labels"),
        goal=None,
        language="ja",
        measures=("体重_kg", "脳重_kg"),
        why="体重 skew 7.4 (elephants); 睡眠周期 vs 体重 Pearson 0.42 vs Spearman 0.85; many missing values",
    ),
    "nyc_weather_ja": Expected(
        flags=("partial_period", "skew_log", "outliers_with_without", "missing_labels"),
        goal="月ごとの降水量の変化を知りたい",
        language="ja",
        span=("2013-01-01", "2013-05-06", "hour"),
        partial=(("week", "2013-01-01"), ("week", "2013-05-06"), ("month", "2013-05-06")),
        measures=("降水量_inch", "風速_mph"),
        why="hourly 2013-01-01..2013-05-06 05:00: May has 6 days; 降水量 skew 8.3; one 風速 of 1048 mph; 突風 missing",
    ),
    "penguins_ja": Expected(
        flags=("missing_labels",),
        goal="種ごとの体重の違いを知りたい",
        language="ja",
        why="性別 missing 11, measurements missing 2",
    ),
    "seattle_weather_ja": Expected(
        flags=("partial_period", "boolean_labels"),
        goal="週ごとの降水量の変化を知りたい",
        language="ja",
        span=("2012-01-01", "2012-12-31", "day"),
        partial=(("week", "2012-01-01"), ("week", "2012-12-31")),
        why="2012-01-01 is a Sunday and 2012-12-31 a Monday: the first and last weeks have one day; 雨 is boolean",
    ),
    "txhousing_ja": Expected(
        flags=("partial_period", "pearson_spearman", "missing_labels"),
        goal="年ごとの販売件数の推移を知りたい",
        language="ja",
        span=("2000-01-01", "2015-07-01", "month"),
        partial=(("year", "2015-01-01"),),
        why="monthly 2000-01..2015-07: 2015 has 7 months; 価格中央値 vs 在庫件数 Pearson 0.29 vs Spearman 0.65",
    ),
    "wine": Expected(
        flags=(),
        goal="Which measurements separate the cultivars?",
        language="en",
        why="a clean control",
    ),
}
