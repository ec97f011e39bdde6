"""Japanese sales ledger (CP932): 日付, 店舗, 商品, カテゴリ, 数量, 金額 over 2023–2024."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, name, number, percent, period

D = "日付"
QUESTIONS = [
    Q("全部で何件のデータがありますか？", "shape", count(len)),
    Q("このデータの行数を教えてください", "shape", count(len)),
    Q("列はいくつありますか", "shape", count(lambda d: d.shape[1])),
    Q("商品は何種類ありますか？", "distinct", s.distinct("商品")),
    Q("店舗の数は？", "distinct", s.distinct("店舗")),
    Q("How many different products are there?", "distinct", s.distinct("商品")),
    Q("東京店の取引は何件ありますか", "filter", count(lambda d: (d["店舗"] == "東京店").sum())),
    Q("金額が5千円以上のデータは何件？", "filter", count(lambda d: (d["金額"] >= 5000).sum())),
    Q("飲料の数量の合計は？", "filter", number(lambda d: d.loc[d["カテゴリ"] == "飲料", "数量"].sum())),
    Q(
        "2024年に売上金額が一番多かった店舗はどこ？",
        "subset_ranking",
        name(lambda d: c.first(c.year(d, D, 2024), "店舗", "金額"), "店舗"),
    ),
    Q(
        "大阪店で一番売れた商品（数量）は何ですか",
        "subset_ranking",
        s.winner("商品", "数量", rows=s.where("店舗", "大阪店")),
    ),
    Q(
        "2023年度に金額が最も少なかったカテゴリは？",
        "subset_ranking",
        name(lambda d: c.first(c.fiscal_year(d, D, 2023), "カテゴリ", "金額", ascending=True), "カテゴリ"),
    ),
    Q("カテゴリ別の数量を集計して、一番多いカテゴリを教えて", "two_part", s.winner("カテゴリ", "数量")),
    Q("週別の取引件数をグラフにして、最も多かった週は？", "two_part", s.peak(D, None, "W")),
    Q(
        "店舗ごとに金額を合計して、いちばん少ない店舗はどこか教えてください",
        "two_part",
        s.winner("店舗", "金額", ascending=True),
    ),
    Q("東京店の売上は全体の何％？", "share", s.total_share("店舗", "東京店", "金額")),
    Q("食品カテゴリの金額は全体の何パーセントを占めていますか", "share", s.total_share("カテゴリ", "食品", "金額")),
    Q("福岡店の売上構成比を教えて", "share", s.total_share("店舗", "福岡店", "金額")),
    Q(
        "2023年から2024年で売上は何％伸びた？",
        "growth",
        percent(lambda d: c.growth(c.year(d, D, 2023)["金額"], c.year(d, D, 2024)["金額"])),
    ),
    Q(
        "2024年度上期の金額は2023年度上期と比べて何%増えましたか",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2023-04-01", "2023-10-01")["金額"], c.window(d, D, "2024-04-01", "2024-10-01")["金額"]
            )
        ),
    ),
    Q(
        "数量は2023年→2024年で何パーセント増減した？",
        "growth",
        percent(lambda d: c.growth(c.year(d, D, 2023)["数量"], c.year(d, D, 2024)["数量"])),
    ),
    Q("月別の売上推移で、売上が一番多かった月はいつ？", "trend", s.peak(D, "金額", "M")),
    Q("売上は増加傾向ですか、減少傾向ですか？", "trend", s.trend(D, "金額")),
    Q(
        "月ごとの数量の推移を見て、最も少なかった月を教えて",
        "trend",
        period(lambda d: c.peak(d, D, "数量", "M", low=True), "M", D),
    ),
    Q("金額の外れ値（zスコア3超）は何件ありますか", "outliers", s.zscore_outliers("金額")),
    Q("金額についてIQR法で外れ値を数えて", "outliers", s.iqr_outliers("金額")),
    Q("数量の外れ値はいくつ？zスコアが3を超えるものを外れ値とします", "outliers", s.zscore_outliers("数量")),
    Q("単価を金額÷数量で計算して、その平均を教えて", "derived", number(lambda d: (d["金額"] / d["数量"]).mean())),
    Q("金額を数量で割った値の中央値は？", "derived", number(lambda d: (d["金額"] / d["数量"]).median())),
    Q("1個あたりの金額（金額/数量）の平均はいくら？", "derived", number(lambda d: (d["金額"] / d["数量"]).mean())),
    Q("数量と金額の相関係数は？", "correlation", s.correlation("数量", "金額", 0.01)),
    Q("数量と金額のスピアマン相関を求めて", "correlation", s.correlation("数量", "金額", 0.01, method="spearman")),
    Q("金額と数量って相関ある？係数で教えて", "correlation", s.correlation("数量", "金額", 0.01)),
    Q("金額が1万円を超える取引は何件？", "filter", count(lambda d: (d["金額"] > 10000).sum())),
    Q("商品別の数量を合計して、最も売れた商品は？", "two_part", s.winner("商品", "数量")),
    Q("数量が10個以上の取引は全体の何%?", "share", percent(lambda d: 100 * (d["数量"] >= 10).mean())),
    Q(
        "2023年12月から2024年12月で数量は何％増えた？",
        "growth",
        percent(
            lambda d: c.growth(
                c.window(d, D, "2023-12-01", "2024-01-01")["数量"], c.window(d, D, "2024-12-01", "2025-01-01")["数量"]
            )
        ),
    ),
    Q("売上上位3店舗は？", "top_n", s.leaders("店舗", "金額", n=3)),
    Q("数量の多い商品トップ5を教えてください", "top_n", s.leaders("商品", "数量", n=5)),
    Q("Top 3 products by total amount", "top_n", s.leaders("商品", "金額", n=3)),
    Q("売上が少ない店舗を下から2つ", "top_n", s.leaders("店舗", "金額", n=2, ascending=True)),
]
