"""HR roster (UTF-8 with BOM): 部署, 年齢, 勤続年数, 年収, 残業時間, 在宅勤務 (有/無), 評価, 入社日."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, number, percent

QUESTIONS = [
    Q("社員は全部で何人いますか？", "shape", count(len)),
    Q("このデータ、何行何列？列数だけでいいです", "shape", count(lambda d: d.shape[1])),
    Q("How many employees are listed?", "shape", count(len)),
    Q("部署はいくつありますか", "distinct", s.distinct("部署")),
    Q("評価の種類は何種類？", "distinct", s.distinct("評価")),
    Q("How many distinct departments are there?", "distinct", s.distinct("部署")),
    Q("在宅勤務をしている社員は何人？", "filter", count(lambda d: (d["在宅勤務"] == "有").sum())),
    Q("開発部の平均年収はいくらですか", "filter", number(lambda d: d.loc[d["部署"] == "開発部", "年収"].mean())),
    Q("年収が600万円以上の社員は何人いますか", "filter", count(lambda d: (d["年収"] >= 6_000_000).sum())),
    Q(
        "在宅勤務の社員の中で、平均残業時間が一番長い部署は？",
        "subset_ranking",
        s.winner("部署", "残業時間", "mean", rows=s.where("在宅勤務", "有")),
    ),
    Q("評価がSの社員が最も多い部署はどこですか", "subset_ranking", s.winner("部署", rows=s.where("評価", "S"))),
    Q(
        "40歳以上の社員で平均年収が最も高い部署は？",
        "subset_ranking",
        s.winner("部署", "年収", "mean", rows=lambda d: d[d["年齢"] >= 40]),
    ),
    Q("部署別の平均年収を計算して、いちばん高い部署を教えて", "two_part", s.winner("部署", "年収", "mean")),
    Q("部署ごとの人数をグラフにして、最も人数が少ない部署は？", "two_part", s.winner("部署", ascending=True)),
    Q("評価別に残業時間の平均を集計し、最大の評価はどれか答えて", "two_part", s.winner("評価", "残業時間", "mean")),
    Q("営業部の人数は全体の何％ですか", "share", s.row_share("部署", "営業部")),
    Q("在宅勤務者の割合は？", "share", s.row_share("在宅勤務", "有")),
    Q("開発部の年収総額は全社の何パーセント？", "share", s.total_share("部署", "開発部", "年収")),
    Q("開発部の平均年収は人事部より何％高い？", "growth", s.value_change("部署", "人事部", "開発部", "年収")),
    Q(
        "2020年入社と2022年入社で人数は何%変わった？",
        "growth",
        percent(lambda d: c.change(c.year(d, "入社日", 2020).shape[0], c.year(d, "入社日", 2022).shape[0])),
    ),
    Q(
        "在宅勤務ありの平均残業時間は、なしと比べて何%違いますか",
        "growth",
        s.value_change("在宅勤務", "無", "有", "残業時間"),
    ),
    Q("入社日の四半期ごとの人数の推移で、最も入社が多かった四半期は？", "trend", s.peak("入社日", None, "Q")),
    Q(
        "勤続年数が長いほど年収は上がっていますか？勤続年数と年収の相関係数で教えて",
        "trend",
        s.correlation("勤続年数", "年収", 0.01),
    ),
    Q("年齢が上がると残業時間は増える？年齢と残業時間の相関は", "trend", s.correlation("年齢", "残業時間", 0.01)),
    Q("残業時間の外れ値は何件？（zスコア3以上）", "outliers", s.zscore_outliers("残業時間")),
    Q("残業時間の外れ値をIQRで数えてください", "outliers", s.iqr_outliers("残業時間")),
    Q("How many overtime outliers (|z| > 3) are there?", "outliers", s.zscore_outliers("残業時間")),
    Q("年収を万円単位にした値（年収÷10000）の平均は？", "derived", number(lambda d: (d["年収"] / 10000).mean())),
    Q(
        "勤続年数1年あたりの年収（年収/勤続年数）の中央値を出して",
        "derived",
        number(lambda d: (d["年収"] / d["勤続年数"]).replace(float("inf"), float("nan")).median()),
    ),
    Q("入社時の年齢（年齢−勤続年数）の平均は何歳？", "derived", number(lambda d: (d["年齢"] - d["勤続年数"]).mean())),
    Q("年齢と年収の相関係数は？", "correlation", s.correlation("年齢", "年収", 0.01)),
    Q(
        "残業時間と年収のスピアマンの順位相関は？",
        "correlation",
        s.correlation("残業時間", "年収", 0.01, method="spearman"),
    ),
    Q(
        "What's the correlation between tenure (勤続年数) and salary (年収)?",
        "correlation",
        s.correlation("勤続年数", "年収", 0.01),
    ),
    Q("平均年収が高い部署トップ3は？", "top_n", s.leaders("部署", "年収", "mean", n=3)),
    Q("残業時間の合計が多い部署を上位2つ挙げてください", "top_n", s.leaders("部署", "残業時間", n=2)),
    Q("人数の多い部署ベスト3", "top_n", s.leaders("部署", n=3)),
]
