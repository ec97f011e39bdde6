"""The questions asked back when a plan cannot be filled: which column to group by, which two
periods to compare, which column holds the dates, that the table has nothing numeric, or, when no
analysis was recognised at all, what the offline analyst can answer; and, when a plan leaves an
element of the question out (``accounting``), the one precise question that names it.
"""

from __future__ import annotations

from typing import Final

from bunseki.brain.analyst.offline.accounting import Unaccounted
from bunseki.brain.analyst.offline.plan import Clarification, Plan, Task
from bunseki.brain.analyst.offline.reading import Reading
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language


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


def ask_back(missing: list[Unaccounted], language: Language, what: str) -> Clarification:
    """One precise question naming the first element the plan leaves out."""
    first = missing[0]
    words = {"text": first.text, "detail": first.detail, "what": what}
    if first.kind == "form":
        words["words"] = FORM_WORDS[language][first.text]
    elif first.kind == "ambiguous":
        words["detail"] = first.detail if language == "ja" else first.detail.replace("、", ", ")
    elif first.kind == "direction":
        words["detail"] = first.detail or ("その値" if language == "ja" else "the value")
    question = ASK_BACK[first.kind][language].format(**words)
    return Clarification(question=question, reason=f"{first.kind} not used by the plan: {first.text}")


def no_rows(plan: Plan, info: DataFrameInfo | None, language: Language) -> Clarification:
    """The conditions matched no row: a statistic of nothing answers nothing, so ask how the data writes
    what was meant, with the values the conditioned columns hold."""
    conditions = [f for f in plan.filters if f.op not in ("missing", "present")]
    shown = ("、" if language == "ja" else "; ").join(f.describe(language) for f in conditions)
    held = []
    for name in dict.fromkeys(f.column for f in conditions):
        column = info.column(name) if info is not None else None
        if column is not None and column.values:
            values = ", ".join(map(str, column.values[:6]))
            held.append(f"{name}: {values}")
    values = ("、" if language == "ja" else "; ").join(held)
    key = "no_rows_values" if held else "no_rows"
    return Clarification(
        question=NO_ROWS[key][language].format(conditions=shown, values=values), reason="no rows match"
    )


NO_ROWS: Final[dict[str, dict[Language, str]]] = {
    "no_rows": {
        "ja": "条件（{conditions}）に合う行が 1 件もありませんでした。"
        "条件の値や範囲を、データの書き方で教えてください。",
        "en": "No row matches the conditions ({conditions}). Which values or ranges did you mean, as the data "
        "writes them?",
    },
    "no_rows_values": {
        "ja": "条件（{conditions}）に合う行が 1 件もありませんでした。データにある値は {values} などです。"
        "どの値のことですか？",
        "en": "No row matches the conditions ({conditions}). The data holds values such as {values}. Which "
        "did you mean?",
    },
}


# The question back for each kind of element left out: {text} the element as written, {detail} its
# column (or columns), {what} what the reading understood, {words} the form asked for.
ASK_BACK: Final[dict[str, dict[Language, str]]] = {
    "column": {
        "ja": "「{text}」（列 {detail}）を質問のどこに使うのか読み取れませんでした。いま読めたのは「{what}」です。"
        "{detail} は条件（例:「{detail}が…の行」）、集計する値（「{detail}の平均」）、分ける単位（「{detail}別」）の"
        "どれですか？",
        "en": "I could not tell how '{text}' (column {detail}) is meant: what I read is '{what}'. Is {detail} a "
        "condition ('rows where {detail} is …'), the value to compute ('mean {detail}'), or a grouping "
        "('by {detail}')?",
    },
    "value": {
        "ja": "「{text}」（列 {detail} の値）をどう使うのか読み取れませんでした。いま読めたのは「{what}」です。"
        "{detail}が{text}の行だけで計算しますか？",
        "en": "I could not tell how '{text}' (a value of {detail}) is meant: what I read is '{what}'. Should only "
        "the rows where {detail} is {text} be used?",
    },
    "term": {
        "ja": "「{text}」がデータのどの列・どの値を指すのか分かりませんでした。いま読めたのは「{what}」で、{text} は"
        "使われていません。{text} に当たる列と値を、データの書き方で教えてください（例:「列名が 値 の行」）。",
        "en": "I could not find what '{text}' refers to in the data: what I read is '{what}', which leaves {text} "
        "out. Which column and value is it, as the data writes them (e.g. 'rows where <column> is <value>')?",
    },
    "negation": {
        "ja": "「{text}」の否定（{detail}）を条件に反映できていません。いま読めたのは「{what}」で、"
        "{text} に当てはまる行を使っています。当てはまらない行のことなら、列と値をデータの書き方で教えてください。",
        "en": "I could not apply the negation of '{text}' ({detail}): what I read is '{what}', which uses the rows "
        "where it holds. If you mean the rows where it does not, which column and value, as the data writes them?",
    },
    "ambiguous": {
        "ja": "「{text}」に当たる列が複数あります（{detail}）。どの列のことですか？いま読めたのは「{what}」です。"
        "列名で指定してください。",
        "en": "'{text}' could be any of the columns {detail}. Which one do you mean? What I read is '{what}'; "
        "please name the column.",
    },
    "statistic": {
        "ja": "「{text}」は、読み取れた計算「{what}」には含まれていません。統計量は一つずつ、合計・平均・中央値・"
        "標準偏差・最大・最小・分位点などで聞いてください（例:「…の{text}は？」を分けて聞く）。",
        "en": "The {text} is not part of what I read ('{what}'). Please ask for one statistic at a time, such as a "
        "total, mean, median, standard deviation, maximum, minimum or percentile.",
    },
    "direction": {
        "ja": "「{text}」は {detail} が大きい方と小さい方のどちらのことですか？（例:「{detail}が一番小さい」）"
        "いま読めたのは「{what}」です。",
        "en": "Does '{text}' mean the highest or the lowest {detail}? (e.g. 'the lowest {detail}') What I read "
        "is '{what}'.",
    },
    "number": {
        "ja": "質問の「{text}」を何に使うのか読み取れませんでした。いま読めたのは「{what}」です。"
        "{text} はどの列の条件（例:「…が{text}以上」）や期間ですか？",
        "en": "I could not tell what '{text}' in the question refers to: what I read is '{what}'. Which column's "
        "condition (e.g. '… at least {text}') or which period is it?",
    },
    "form": {
        "ja": "{words}をお尋ねのようですが、読み取れた計算「{what}」ではそれを求められません。"
        "何と何の{words}か、列と条件を添えてもう一度教えてください。",
        "en": "You seem to ask for {words}, but what I read ('{what}') does not give one. Which columns and "
        "conditions should it be computed from?",
    },
}


FORM_WORDS: Final[dict[Language, dict[str, str]]] = {
    "ja": {
        "name": "名前",
        "date": "日付",
        "difference": "差",
        "times": "倍率",
        "percentile": "パーセンタイル（分位点）",
        "duration": "期間（日数・月数・年数）",
        "extreme": "最大・最小（一番〜のもの）",
        "change": "増減（伸び・減り）",
        "yesno": "有無",
    },
    "en": {
        "name": "a name",
        "date": "a date",
        "difference": "a difference",
        "times": "a ratio",
        "percentile": "a percentile",
        "duration": "a duration (days, months or years)",
        "extreme": "the largest or smallest",
        "change": "a change (how much it grew or fell)",
        "yesno": "yes or no",
    },
}
