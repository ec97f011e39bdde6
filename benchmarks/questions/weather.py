"""Daily weather of four Japanese cities, 2023–2024: 日付, 都市, 最高気温, 最低気温, 降水量, 天気."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, direction, name, number, percent, period

D = "日付"
QUESTIONS = [
    Q("気象データは全部で何件？", "shape", count(len)),
    Q("行数を教えてください。", "shape", count(len)),
    Q("How many columns are in the weather data?", "shape", count(lambda d: d.shape[1])),
    Q("都市はいくつ含まれていますか", "distinct", s.distinct("都市")),
    Q("天気の種類は何種類？", "distinct", s.distinct("天気")),
    Q("How many different cities are there?", "distinct", s.distinct("都市")),
    Q(
        "東京で雨だった日は何日ありますか",
        "filter",
        count(lambda d: ((d["都市"] == "東京") & (d["天気"] == "雨")).sum()),
    ),
    Q("那覇の最高気温の平均は？", "filter", number(lambda d: d.loc[d["都市"] == "那覇", "最高気温"].mean())),
    Q("最高気温が30度以上の日は何件？", "filter", count(lambda d: (d["最高気温"] >= 30).sum())),
    Q(
        "2024年に降水量の合計が一番多かった都市は？",
        "subset_ranking",
        name(lambda d: c.first(c.year(d, D, 2024), "都市", "降水量"), "都市"),
    ),
    Q(
        "2023年8月に平均最高気温が最も高かった都市はどこですか",
        "subset_ranking",
        name(lambda d: c.first(c.window(d, D, "2023-08-01", "2023-09-01"), "都市", "最高気温", "mean"), "都市"),
    ),
    Q(
        "晴れの日に限ると、最低気温の平均が一番低い都市は？",
        "subset_ranking",
        s.winner("都市", "最低気温", "mean", ascending=True, rows=s.where("天気", "晴れ")),
    ),
    Q("都市別の降水量を合計して、最も少ない都市を教えて", "two_part", s.winner("都市", "降水量", ascending=True)),
    Q("月別の降水量をグラフにして、一番雨が多かった月は？", "two_part", s.peak(D, "降水量", "M")),
    Q("天気ごとの件数を集計して、一番多い天気は何ですか", "two_part", s.winner("天気")),
    Q("雨の日は全体の何％？", "share", s.row_share("天気", "雨")),
    Q("札幌の降水量は4都市合計の何パーセント？", "share", s.total_share("都市", "札幌", "降水量")),
    Q("What percentage of days were sunny (晴れ)?", "share", s.row_share("天気", "晴れ")),
    Q(
        "2023年から2024年で降水量の合計は何％変わった？",
        "growth",
        percent(lambda d: c.growth(c.year(d, D, 2023)["降水量"], c.year(d, D, 2024)["降水量"])),
    ),
    Q(
        "東京の降水量は2023年上期から2024年上期で何%増えた？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d[d["都市"] == "東京"], D, "2023-01-01", "2023-07-01")["降水量"],
                c.window(d[d["都市"] == "東京"], D, "2024-01-01", "2024-07-01")["降水量"],
            )
        ),
    ),
    Q("那覇の降水量合計は東京より何％多い？", "growth", s.value_change("都市", "東京", "那覇", "降水量", "sum")),
    Q("月別の平均最高気温の推移で、一番暑い月は？", "trend", s.peak(D, "最高気温", "M", "mean")),
    Q(
        "月ごとの最低気温の平均で一番寒かった月はいつ？",
        "trend",
        period(lambda d: c.peak(d, D, "最低気温", "M", "mean", low=True), "M", D),
    ),
    Q(
        "2024年の上期（1〜6月）、最高気温は上がっていった？下がっていった？",
        "trend",
        direction(lambda d: c.slope(c.window(d, D, "2024-01-01", "2024-07-01"), D, "最高気温", "M", "mean")),
    ),
    Q("降水量の外れ値はzスコア3超で何件？", "outliers", s.zscore_outliers("降水量")),
    Q("最高気温の外れ値をIQR法で求めて、件数を教えて", "outliers", s.iqr_outliers("最高気温")),
    Q("How many outliers in 降水量 by the IQR method?", "outliers", s.iqr_outliers("降水量")),
    Q("日較差（最高気温−最低気温）の平均は？", "derived", number(lambda d: (d["最高気温"] - d["最低気温"]).mean())),
    Q(
        "最高気温と最低気温の平均（(最高気温+最低気温)/2）の平均値を出して",
        "derived",
        number(lambda d: ((d["最高気温"] + d["最低気温"]) / 2).mean()),
    ),
    Q(
        "Daily range = 最高気温 - 最低気温: what's the max?",
        "derived",
        number(lambda d: (d["最高気温"] - d["最低気温"]).max()),
    ),
    Q("最高気温と最低気温の相関係数は？", "correlation", s.correlation("最高気温", "最低気温", 0.01)),
    Q("降水量と最高気温に相関はありますか", "correlation", s.correlation("降水量", "最高気温", 0.01)),
    Q(
        "最低気温と降水量の順位相関（スピアマン）",
        "correlation",
        s.correlation("最低気温", "降水量", 0.01, method="spearman"),
    ),
    Q("平均最高気温の高い都市トップ3", "top_n", s.leaders("都市", "最高気温", "mean", n=3)),
    Q("降水量の合計が多い都市を2つ教えて", "top_n", s.leaders("都市", "降水量", n=2)),
    Q(
        "Which two cities are the coldest on average (最低気温)?",
        "top_n",
        s.leaders("都市", "最低気温", "mean", n=2, ascending=True),
    ),
]
