"""シアトルの天気.csv (vega_datasets seattle-weather, translated, CP932): 日付 (YYYY-MM-DD, 2012-01-01〜2015-12-31, 毎日),
降水量 (mm), 最高気温, 最低気温 (℃), 風速 (m/s), 天気 (霧雨/雨/晴れ/雪/霧)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _day(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_day(d).dt.year == year]


def _month_mean(d: pd.DataFrame, month: int) -> float:
    return d.loc[_day(d).dt.month == month, "最高気温"].mean()


QUESTIONS = [
    Q(1, "雨の日の平均風速は？", "condition_stat", number(lambda d: d.loc[d["天気"] == "雨", "風速"].mean())),
    Q(
        2,
        "降水量が10mm以上あった日の最高気温の平均を教えてください",
        "condition_stat",
        number(lambda d: d.loc[d["降水量"] >= 10, "最高気温"].mean()),
    ),
    Q(
        3,
        "一番雨が多く降った日（降水量が最大の日）はいつ？",
        "extreme_date",
        date(lambda d: d.loc[d["降水量"].idxmax(), "日付"], "日付"),
    ),
    Q(
        4,
        "On which date was the lowest minimum temperature recorded?",
        "extreme_date",
        date(lambda d: d.loc[d["最低気温"].idxmin(), "日付"], "日付"),
    ),
    Q(5, "最高気温の90パーセンタイルはいくつ？", "percentile", number(lambda d: d["最高気温"].quantile(0.9))),
    Q(6, "2014年の風速の中央値は？", "percentile", number(lambda d: _year(d, 2014)["風速"].median())),
    Q(
        7,
        "7月と1月で、最高気温の平均は何度違う？（全年まとめて）",
        "difference",
        number(lambda d: _month_mean(d, 7) - _month_mean(d, 1)),
    ),
    Q(
        8,
        "2015年の最高気温の平均は、2012年と比べて何度高いですか",
        "difference",
        number(lambda d: _year(d, 2015)["最高気温"].mean() - _year(d, 2012)["最高気温"].mean(), 0.05, absolute=True),
    ),
    Q(9, "晴れの日って全体の何％くらい？", "ratio", percent(lambda d: (d["天気"] == "晴れ").mean() * 100)),
    Q(
        10,
        "2014年の年間降水量は2013年の何倍でしょうか",
        "ratio",
        number(lambda d: _year(d, 2014)["降水量"].sum() / _year(d, 2013)["降水量"].sum()),
    ),
    Q(
        11,
        "Which single month (year and month) had the highest total precipitation?",
        "by_period",
        period(lambda d: d.groupby(_day(d).dt.to_period("M"))["降水量"].sum().idxmax(), "M", "日付"),
    ),
    Q(
        12,
        "2012年の中で、月の降水量の合計が一番多かったのは何月？",
        "by_period",
        period(lambda d: _year(d, 2012).groupby(_day(d).dt.to_period("M"))["降水量"].sum().idxmax(), "M", "日付"),
    ),
    Q(
        13,
        "2015年に最高気温が30度以上になった最初の日と最後の日は、何日離れていますか",
        "duration",
        number(
            lambda d: (
                (
                    _day(d)[(_day(d).dt.year == 2015) & (d["最高気温"] >= 30)].max()
                    - _day(d)[(_day(d).dt.year == 2015) & (d["最高気温"] >= 30)].min()
                ).days
            ),
            1.0,
            absolute=True,
        ),
    ),
    Q(
        14,
        "2015年12月31日の時点で、最後に雪が降った日から何日経ってる？",
        "duration",
        number(lambda d: (pd.Timestamp("2015-12-31") - _day(d)[d["天気"] == "雪"].max()).days),
    ),
    Q(
        15,
        "What was the total precipitation in 2014, in mm?",
        "period_total",
        number(lambda d: _year(d, 2014)["降水量"].sum()),
    ),
    Q(
        16,
        "2013年に晴れだった日は何日ありましたか",
        "period_total",
        count(lambda d: (_year(d, 2013)["天気"] == "晴れ").sum()),
    ),
    Q(
        17,
        "2015年、天気の種類ごとに平均風速を出すと一番強いのはどれ？",
        "group_in_period",
        name(lambda d: _year(d, 2015).groupby("天気")["風速"].mean().idxmax(), "天気"),
    ),
    Q(
        18,
        "2012年に一番多かった天気は？",
        "group_in_period",
        name(lambda d: _year(d, 2012)["天気"].value_counts().idxmax(), "天気"),
    ),
    Q(
        19,
        "2013年に多かった天気を上位3つ教えて",
        "ranking_within",
        names(lambda d: _year(d, 2013)["天気"].value_counts().nlargest(3).index, "天気"),
    ),
    Q(
        20,
        "2012年で、平均風速が強い天気のトップ3は？",
        "ranking_within",
        names(lambda d: _year(d, 2012).groupby("天気")["風速"].mean().nlargest(3).index, "天気"),
    ),
    Q(21, "最高気温が35度を超えた日はありますか", "yes_no_answer", yesno(lambda d: (d["最高気温"] > 35).any())),
    Q(22, "2014年に雪の日ってあった？", "yes_no_answer", yesno(lambda d: (_year(d, 2014)["天気"] == "雪").any())),
]
