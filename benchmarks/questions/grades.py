"""School grades (Japanese columns): 生徒ID, クラス, 性別, 部活 (はい/いいえ), 国語, 数学, 英語, 欠席日数."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, direction, name, number, percent

QUESTIONS = [
    Q("生徒は何人いますか？", "shape", count(len)),
    Q("このデータの列数は？", "shape", count(lambda d: d.shape[1])),
    Q("How many students are in the file?", "shape", count(len)),
    Q("クラスはいくつ？", "distinct", s.distinct("クラス")),
    Q("数学の点数は何種類の値がありますか", "distinct", s.distinct("数学")),
    Q("How many classes are there?", "distinct", s.distinct("クラス")),
    Q("部活に入っている生徒は何人？", "filter", count(lambda d: (d["部活"] == "はい").sum())),
    Q("数学が80点以上の生徒は何人いますか", "filter", count(lambda d: (d["数学"] >= 80).sum())),
    Q("2組の英語の平均点を教えて", "filter", number(lambda d: d.loc[d["クラス"] == "2組", "英語"].mean())),
    Q(
        "女子の中で数学の平均点が一番高いクラスは？",
        "subset_ranking",
        s.winner("クラス", "数学", "mean", rows=s.where("性別", "女")),
    ),
    Q(
        "部活に入っていない生徒で、国語の平均が最も低いクラスはどこ？",
        "subset_ranking",
        s.winner("クラス", "国語", "mean", ascending=True, rows=s.where("部活", "いいえ")),
    ),
    Q(
        "3組の中で数学の平均点が高いのは男女どちら？",
        "subset_ranking",
        s.winner("性別", "数学", "mean", rows=s.where("クラス", "3組")),
    ),
    Q("クラス別に数学の平均点を出して、一番高いクラスを教えて", "two_part", s.winner("クラス", "数学", "mean")),
    Q("クラスごとの欠席日数の合計をグラフにして、最も多いクラスは？", "two_part", s.winner("クラス", "欠席日数")),
    Q("性別ごとの英語の平均を集計し、高い方はどちら？", "two_part", s.winner("性別", "英語", "mean")),
    Q("部活に入っている生徒の割合は何%？", "share", s.row_share("部活", "はい")),
    Q("数学が60点未満の生徒は全体の何パーセント？", "share", percent(lambda d: 100 * (d["数学"] < 60).mean())),
    Q("1組の生徒は全体の何％を占めますか", "share", s.row_share("クラス", "1組")),
    Q("部活ありの生徒の数学平均は、部活なしより何%高い？", "growth", s.value_change("部活", "いいえ", "はい", "数学")),
    Q(
        "国語の平均点に比べて数学の平均点は何％低い？",
        "growth",
        percent(lambda d: 100 * (1 - d["数学"].mean() / d["国語"].mean()), magnitude=True),
    ),
    Q("1組から4組で英語の平均点は何％変わる？", "growth", s.value_change("クラス", "1組", "4組", "英語")),
    Q(
        "欠席日数が増えると数学の点数は下がりますか？欠席日数と数学の相関係数で答えて",
        "trend",
        s.correlation("欠席日数", "数学", 0.01),
    ),
    Q(
        "数学の点数が高い生徒ほど英語の点数は上がる？下がる？",
        "trend",
        direction(lambda d: d["数学"].corr(d["英語"])),
    ),
    Q("欠席日数が最も多い生徒の欠席日数は？", "trend", number(lambda d: d["欠席日数"].max())),
    Q("数学の外れ値（zスコアの絶対値3超）は何人？", "outliers", s.zscore_outliers("数学")),
    Q("英語の点数の外れ値をIQRで数えて", "outliers", s.iqr_outliers("英語")),
    Q("欠席日数の外れ値は？zスコア2.5超で件数を", "outliers", count(lambda d: c.zscore_count(d["欠席日数"], 2.5))),
    Q(
        "3教科の合計点（国語+数学+英語）の平均は？",
        "derived",
        number(lambda d: (d["国語"] + d["数学"] + d["英語"]).mean()),
    ),
    Q("数学と英語の差（数学−英語）の平均を出して", "derived", number(lambda d: (d["数学"] - d["英語"]).mean())),
    Q(
        "Compute the average of 国語, 数学 and 英語 per student; what is the highest?",
        "derived",
        number(lambda d: ((d["国語"] + d["数学"] + d["英語"]) / 3).max()),
    ),
    Q("数学と英語の相関係数は？", "correlation", s.correlation("数学", "英語", 0.01)),
    Q("国語と数学って関係ある？相関を見て", "correlation", s.correlation("国語", "数学", 0.01)),
    Q(
        "数学と相関が一番強い教科はどれ？",
        "correlation",
        name(lambda d: c.most_correlated(d, "数学", ["国語", "英語", "欠席日数"]), ("国語", "英語", "欠席日数")),
    ),
    Q("数学の平均点が高いクラストップ2", "top_n", s.leaders("クラス", "数学", "mean", n=2)),
    Q("欠席日数の合計が多いクラスを2つ挙げて", "top_n", s.leaders("クラス", "欠席日数", n=2)),
    Q("国語の平均が低いクラスを下から3つ", "top_n", s.leaders("クラス", "国語", "mean", n=3, ascending=True)),
]
