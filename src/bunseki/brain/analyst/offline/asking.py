"""The questions asked back when a plan cannot be filled: which column to group by, which two
periods to compare, which column holds the dates, that the table has nothing numeric, or, when no
analysis was recognised at all, what the offline analyst can answer.
"""

from __future__ import annotations

from bunseki.brain.analyst.offline.plan import Clarification, Task
from bunseki.brain.analyst.offline.reading import Reading
from bunseki.data.summary import DataFrameInfo


def capabilities(r: Reading, info: DataFrameInfo) -> Clarification:
    numeric = [c.name for c in info.column_info if c.kind == "number"][:6]
    category = [c.name for c in info.column_info if c.kind == "category"][:4]
    if r.language == "ja":
        example_n = numeric[0] if numeric else "数値の列"
        example_c = category[0] if category else "カテゴリの列"
        question = (
            "質問の意図を読み取れませんでした。オフラインの分析エンジンは、合計・平均・中央値・標準偏差・件数、"
            "条件での絞り込み、グループ別の集計、構成比、期間の比較、相関、月別・日別の推移、上位N件、欠損値、"
            f"種類数、外れ値などに答えられます。例:「{example_c}別の{example_n}の合計をグラフにして」"
            f"「{example_n}の月別推移」。列: {'、'.join(numeric + category)}"
        )
    else:
        example_n = numeric[0] if numeric else "a numeric column"
        example_c = category[0] if category else "a category column"
        question = (
            "I could not tell what to compute. Offline, I can answer totals, means, medians, standard "
            "deviations, counts with conditions, group-by aggregations, shares, comparisons between periods, "
            "correlations, monthly or daily trends, top-N lists, missing values, distinct counts and outliers. "
            f"For example: 'total {example_n} by {example_c} as a chart' or 'monthly trend of {example_n}'. "
            f"Columns: {', '.join(numeric + category)}"
        )
    return Clarification(question=question, reason="no analysis recognised")


def no_numeric(r: Reading, info: DataFrameInfo) -> Clarification:
    columns = ("、" if r.language == "ja" else ", ").join(info.columns[:20])
    if r.language == "ja":
        question = f"このデータには計算できる数値の列がありません（列: {columns}）。件数や種類数なら数えられます。"
    else:
        question = f"This data has no numeric column to compute with (columns: {columns}); I can count rows or values."
    return Clarification(question=question, reason="no numeric column")


def ask_group(r: Reading, info: DataFrameInfo, task: Task) -> Clarification:
    options = [c.name for c in info.column_info if c.kind in ("category", "boolean")][:10]
    if not options:
        options = [c.name for c in info.column_info if c.kind == "text"][:10] or info.columns[:10]
    if r.language == "ja":
        return Clarification(question=f"どの列ごとに集計しますか？ 候補: {'、'.join(options)}", reason="no group")
    return Clarification(
        question=f"Which column should I group by? Candidates: {', '.join(options)}", reason="no group"
    )


def ask_periods(r: Reading) -> Clarification:
    if r.language == "ja":
        return Clarification(
            question="比較する2つの期間を教えてください（例:「2024年1月と2月の売上を比較」）。",
            reason="growth needs two periods",
        )
    return Clarification(
        question="Which two periods should I compare (e.g. 'sales in January vs February 2024')?",
        reason="growth needs two periods",
    )


def ask_date(r: Reading) -> Clarification:
    if r.language == "ja":
        return Clarification(
            question="推移を見るには日付の列が必要ですが、見つかりませんでした。どの列が日付ですか？",
            reason="no date column",
        )
    return Clarification(
        question="A trend needs a date column and I found none. Which column holds the dates?",
        reason="no date column",
    )
