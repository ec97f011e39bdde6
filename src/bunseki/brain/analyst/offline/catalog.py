"""The offline analyst's words, Japanese and English side by side, in one place.

Answers, reports and questions back take their sentences from here (``say``), so the two
languages cannot drift apart and a wording is changed once. Next steps (``suggestions``) are
built from the data itself: the categorical columns actually present, the measure that was
asked and whether the table has dates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bunseki.brain.analyst.offline.plan import Plan
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

MAX_SUGGESTIONS: Final = 3

TEXTS: Final[dict[str, dict[Language, str]]] = {
    # what each task computes, in a line (titles, the method section, the brain's instruction)
    "what_rows": {"ja": "行数", "en": "rows"},
    "what_stat": {"ja": "{target}の{stat}", "en": "{stat} of {target}"},
    "what_group": {"ja": "{group}別の{target}の{stat}", "en": "{stat} of {target} by {group}"},
    "what_top": {"ja": "{target}の{stat}が大きい {group} 上位{n}", "en": "top {n} {group} by {stat} of {target}"},
    "what_bottom": {"ja": "{target}の{stat}が小さい {group} 上位{n}", "en": "bottom {n} {group} by {stat} of {target}"},
    "what_trend": {"ja": "{target}の{stat}の推移", "en": "trend of the {stat} of {target}"},
    "what_trend_by": {"ja": "{group}別の{target}の{stat}の推移", "en": "trend of the {stat} of {target} by {group}"},
    "what_share": {"ja": "{group}別の{target}の構成比", "en": "share of {target} by {group}"},
    "what_share_mix": {"ja": "{group}ごとの{cross}の構成比", "en": "mix of {cross} within each {group}"},
    "what_share_within": {
        "ja": "{group}ごとの{target}に占める「{condition}」の割合",
        "en": "share of {target} where {condition}, within each {group}",
    },
    "what_growth": {"ja": "{target}の{stat}の期間比較", "en": "{stat} of {target} compared between periods"},
    "what_span": {"ja": "{start}から{end}までの{unit}", "en": "{unit} from {start} to {end}"},
    "event_first": {"ja": "最初の日付", "en": "the first date"},
    "event_last": {"ja": "最後の日付", "en": "the last date"},
    "event_max": {"ja": "{column}が最大の日", "en": "the date of the highest {column}"},
    "event_min": {"ja": "{column}が最小の日", "en": "the date of the lowest {column}"},
    "unit_days": {"ja": "日数", "en": "days"},
    "unit_weeks": {"ja": "週数", "en": "weeks"},
    "unit_months": {"ja": "月数", "en": "months"},
    "unit_years": {"ja": "年数", "en": "years"},
    "span": {
        "ja": "{what}は {value} です（{start} → {end}）{conditions}。",
        "en": "The {what} is {value} ({start} → {end}){conditions}.",
    },
    "what_count": {"ja": "条件に合う行数", "en": "number of matching rows"},
    "what_distinct": {"ja": "{target}の種類数", "en": "distinct values of {target}"},
    "what_missing": {"ja": "欠損値の数", "en": "missing values"},
    "what_duplicates": {"ja": "重複している行", "en": "duplicate rows"},
    "what_correlation": {"ja": "{target} と {second} の相関", "en": "correlation of {target} and {second}"},
    "what_correlation_matrix": {"ja": "数値列どうしの相関", "en": "correlations between numeric columns"},
    "what_outliers": {"ja": "{target}の外れ値", "en": "outliers in {target}"},
    "what_distribution": {"ja": "{target}の分布", "en": "distribution of {target}"},
    "what_describe": {"ja": "データの概要", "en": "overview of the data"},
    "what_answers": {"ja": "指定された形式の回答", "en": "answers in the requested format"},
    "what_ratio_share": {"ja": "{target}のうち {part} が占める割合", "en": "share of {target} from {part}"},
    "what_ratio_against": {
        "ja": "{base}に対する{part}の差（%）",
        "en": "{part} against {base}",
    },
    "what_ratio_change": {
        "ja": "{target}の{base}から{part}への変化率",
        "en": "change in {target} from {base} to {part}",
    },
    # conclusions shared by several tasks
    "no_rows": {"ja": "該当するデータがありません。", "en": "No rows match."},
    "output_heading": {"ja": "実行結果（抜粋）", "en": "Execution output (excerpt)"},
    "method": {
        "ja": "**計算内容**: {what}。",
        "en": "**What was computed**: {what}.",
    },
    "method_rows": {"ja": " 対象 {rows} 行。", "en": " {rows} rows used."},
    "method_source": {
        "ja": " 数値はすべてサンドボックスで実行したコードの出力です。",
        "en": " Every number comes from the code executed in the sandbox.",
    },
    "failed": {
        "ja": "計算を完了できませんでした（{reason}）。列名や条件を変えて、もう一度質問してください。",
        "en": "The computation did not complete ({reason}). Please rephrase the question or name the columns.",
    },
    "failed_reason": {"ja": "結果が得られませんでした", "en": "no result"},
    "failed_title": {"ja": "分析できませんでした", "en": "The analysis could not be completed"},
    # one conclusion per task
    "stat": {
        "ja": "{target} の{stat}は {value} です{conditions}。対象は {rows} 行です。",
        "en": "The {stat} of {target} is {value}{conditions}, over {rows} rows.",
    },
    "stat_where": {"ja": "該当する行: {place}。", "en": " It occurs at: {place}."},
    "shape": {
        "ja": "データは {rows} 行 × {columns} 列です（列数 {columns}、行数 {rows}）。",
        "en": "The data has {rows} rows and {columns} columns.",
    },
    "count": {
        "ja": "条件に合う行は {value} 件です{conditions}（全 {total} 件中）。",
        "en": "{value} rows match{conditions}, out of {total}.",
    },
    "growth_times": {
        "ja": "{second} の{target}の{stat}（{second_value}）は {first}（{first_value}）の {times} 倍です。",
        "en": "The {stat} of {target} in {second} ({second_value}) is {times} times that in {first} ({first_value}).",
    },
    "exists_yes": {
        "ja": "はい、あります。条件{conditions}に合う行は {value} 件です（全 {total} 件中）。",
        "en": "Yes: {value} of {total} rows match{conditions}.",
    },
    "exists_no": {
        "ja": "いいえ、ありません。条件{conditions}に合う行は 0 件です（全 {total} 件中）。",
        "en": "No: none of the {total} rows match{conditions}.",
    },
    "group_difference": {
        "ja": "{measure}の差は {difference} です（{first} の {first_value} が {second} の {second_value} を上回ります）"
        "{conditions}。",
        "en": "The difference in {measure} is {difference}: {first} ({first_value}) is above {second} "
        "({second_value}){conditions}.",
    },
    "compared_yes": {
        "ja": "はい。{first} の{measure}（{first_value}）は {second}（{second_value}）より高く、"
        "差は {difference} です{conditions}。",
        "en": "Yes: the {measure} of {first} ({first_value}) is higher than that of {second} ({second_value}), "
        "by {difference}{conditions}.",
    },
    "compared_no": {
        "ja": "いいえ。{first} の{measure}（{first_value}）は {second}（{second_value}）より"
        "高くありません（差 {difference}）{conditions}。",
        "en": "No: the {measure} of {first} ({first_value}) is not higher than that of {second} ({second_value}); "
        "the difference is {difference}{conditions}.",
    },
    "compared_yes_lower": {
        "ja": "はい。{first} の{measure}（{first_value}）は {second}（{second_value}）より低く、"
        "差は {difference} です{conditions}。",
        "en": "Yes: the {measure} of {first} ({first_value}) is lower than that of {second} ({second_value}), "
        "by {difference}{conditions}.",
    },
    "compared_no_lower": {
        "ja": "いいえ。{first} の{measure}（{first_value}）は {second}（{second_value}）より"
        "低くありません（差 {difference}）{conditions}。",
        "en": "No: the {measure} of {first} ({first_value}) is not lower than that of {second} ({second_value}); "
        "the difference is {difference}{conditions}.",
    },
    "group_times": {
        "ja": "{first} の{measure}は {second} の {times} 倍です（{first_value} ÷ {second_value}）{conditions}。",
        "en": "The {measure} of {first} is {times} times that of {second} "
        "({first_value} ÷ {second_value}){conditions}.",
    },
    "distinct": {
        "ja": "{target} は {value} 種類です{conditions}（{values}）。",
        "en": "{target} has {value} distinct values{conditions}: {values}.",
    },
    "no_missing": {"ja": "欠損値はありません。", "en": "There are no missing values."},
    "duplicates": {
        "ja": "{among}重複している行は {repeated} 行です（{rows} 行中。"
        "重複のある行は最初の出現も含めて {involved} 行）。",
        "en": "{repeated} of {rows} rows repeat an earlier row{among} ({involved} rows are involved, "
        "first occurrences included).",
    },
    "no_duplicates": {
        "ja": "{among}重複している行はありません（{rows} 行）。",
        "en": "No row repeats another{among} ({rows} rows).",
    },
    "duplicates_among": {"ja": "{columns} が同じ行として見ると、", "en": " in {columns}"},
    "missing_item": {"ja": "{column} が {count} 件（{percent}）", "en": "{column}: {count} ({percent})"},
    "missing": {"ja": "欠損値は合計 {total} 件です: {listed}。", "en": "There are {total} missing values: {listed}."},
    "correlation": {
        "ja": "{a} と {b} の{name}は {r} で、{strength}（p = {p}、n = {n}{pearson}）。",
        "en": "The {name} of {a} and {b} is {r}: {strength} (p = {p}, n = {n}{pearson}).",
    },
    "corr_also_pearson": {"ja": "。ピアソンの r は {r}", "en": "; Pearson r = {r}"},
    "no_pairs": {
        "ja": "相関を計算できる数値列が2つ以上ありません。",
        "en": "There are not two numeric columns to correlate.",
    },
    "pair_item": {"ja": "{a}×{b}（{r}）", "en": "{a}×{b} ({r})"},
    "strongest_pair": {
        "ja": "最も相関が強いのは {a} と {b}（r = {r}）です。相関の強い組み合わせ: {listed}。",
        "en": "The strongest correlation is between {a} and {b} (r = {r}). Strongest pairs: {listed}.",
    },
    "outlier_rule_zscore": {"ja": "Zスコアの絶対値が {threshold} を超える値", "en": "|z| > {threshold}"},
    "outlier_rule_iqr": {"ja": "IQR の {threshold} 倍を超えて外れる値", "en": "beyond {threshold} × IQR"},
    "outliers": {
        "ja": "{target} の外れ値（{rule}）は {rows} 件中 {count} 件です。正常範囲は {lower}〜{upper} です。",
        "en": "{target} has {count} outliers ({rule}) among {rows} values; the normal range is {lower} to {upper}.",
    },
    "growth": {
        "ja": "{target}の{stat}は {first} の {first_value} から {second} の {second_value} へ "
        "{change} 変化しました{rate}。",
        "en": "The {stat} of {target} went from {first_value} in {first} to {second_value} in {second}, "
        "a change of {change}{rate}.",
    },
    "growth_rate": {"ja": "（{rate}、{word}）", "en": " ({rate}, {word})"},
    "growth_difference": {"ja": "差は {difference} です。", "en": "The difference is {difference}. "},
    "growth_word": {"ja": "（{word}）", "en": " ({word})"},
    "value_count": {"ja": "{value}（{count}）", "en": "{value} ({count})"},
    "distribution_labels": {
        "ja": "{target} の分布: {listed} が多い順です。",
        "en": "Distribution of {target}: most frequent {listed}.",
    },
    "distribution_numbers": {
        "ja": "{target} は平均 {mean}、中央値 {median}、範囲 {low}〜{high} の{shape}分布です（歪度 {skew}）。",
        "en": "{target} has mean {mean}, median {median} and range {low} to {high}; "
        "the distribution is {shape} (skewness {skew}).",
    },
    "skew_right": {"ja": "右に裾が長い", "en": "right-skewed"},
    "skew_left": {"ja": "左に裾が長い", "en": "left-skewed"},
    "skew_none": {"ja": "おおむね左右対称な", "en": "roughly symmetric"},
    "column_summary": {"ja": "{column} の要約: {shown}。", "en": "Summary of {column}: {shown}."},
    "data_span": {"ja": "、期間 {first}〜{last}", "en": ", from {first} to {last}"},
    "data_overview": {
        "ja": "データは {rows} 行 × {columns} 列{span}、欠損値は {missing} 件です。数値列: {numeric}。",
        "en": "The data has {rows} rows × {columns} columns{span}, with {missing} missing values. "
        "Numeric columns: {numeric}.",
    },
    "row_count": {"ja": "件数", "en": "number of rows"},  # a measure of its own: not 件数の件数
    "rows_word": {"ja": "件数", "en": "rows"},
    "group_only": {
        "ja": "{group}は {first} だけで、{measure}は {first_value} です{conditions}。",
        "en": "Only {first} is left in {group}: the {measure} is {first_value}{conditions}.",
    },
    "group_highest": {
        "ja": "{group}別の{measure}が最も大きいのは {first}（{first_value}）です{conditions}。",
        "en": "{first} has the highest {measure} ({first_value}){conditions}.",
    },
    "group_lowest": {
        "ja": "{group}別の{measure}が最も小さいのは {first}（{first_value}）です{conditions}。",
        "en": "{first} has the lowest {measure} ({first_value}){conditions}.",
    },
    "group_top_n": {
        "ja": "{measure}が大きい順の上位{count}件: {listed}{conditions}。",
        "en": "The top {count} by {measure}: {listed}{conditions}.",
    },
    "group_bottom_n": {
        "ja": "{measure}が小さい順の上位{count}件: {listed}{conditions}。",
        "en": "The bottom {count} by {measure}: {listed}{conditions}.",
    },
    "group_range": {
        "ja": "{group}別の{measure}は {big} が最大（{big_value}）、{small} が最小（{small_value}）です"
        "{conditions}。{groups} グループの上位: {listed}。",
        "en": "By {group}, the {measure} is largest for {big} ({big_value}) and smallest for "
        "{small} ({small_value}){conditions}. Leading: {listed}.",
    },
    "trend": {
        "ja": "{measure}は {extremes}です{conditions}。",
        "en": "The {measure} {extremes}{conditions}.",
    },
    "cumulative": {"ja": "{measure}の累計", "en": "cumulative {measure}"},
    "rolling": {"ja": "{measure}の{window}{grain}移動平均", "en": "{window}-{grain} moving average of the {measure}"},
    "trend_peak": {"ja": "{period} に最大（{value}）", "en": "peaks in {period} ({value})"},
    "trend_low": {"ja": "{period} に最小（{value}）", "en": "is lowest in {period} ({value})"},
    "cycle_peak": {"ja": "{period} に最大（{value}）", "en": "is highest on {period} ({value})"},
    "cycle_low": {"ja": "{period} に最小（{value}）", "en": "is lowest on {period} ({value})"},
    "trend_change": {
        "ja": "{first} の {first_value} から {last} の {last_value} へ {change} 変化しました。",
        "en": " From {first} ({first_value}) to {last} ({last_value}) it changed by {change}.",
    },
    "trend_partial": {
        "ja": "{periods} はその{grain}の一部の期間しかデータがないため、最大・最小と変化・傾きの比較から除きました。",
        "en": " {periods} cover only part of their {grain}, so they are left out of the highest, the lowest, the "
        "change and the slope.",
    },
    "trend_direction": {
        "ja": "全体として{word}です（{grain}ごとの値に当てはめた直線の傾き {slope}/{grain}）。",
        "en": " Overall it is {word} (slope of a line fitted to the values per {grain}: {slope} per {grain}).",
    },
    "check_percent": {
        "ja": "割合（％）でのお答えをご希望のようですが、この質問からは"
        "{what}を何に対する割合として計算すればよいか読み取れませんでした。"
        "分子と分母（例: 「東京店の売上は全体の売上の何％？」）を教えてください。",
        "en": "You seem to want a percentage, but I could not tell what {what} should be a percentage of. "
        "Which part and which whole (e.g. 'what percent of all sales is the Tokyo store's')?",
    },
    "check_count": {
        "ja": "{count} 件をご希望のようですが、読み取れた計画では {planned} 件になります。"
        "何を基準に上位 {count} 件を並べますか？",
        "en": "You asked for {count} items, but the plan I read lists {planned}. "
        "By which measure should I rank the top {count}?",
    },
    "check_which": {
        "ja": "どれ（どの項目）かをお尋ねのようですが、この質問からは{what}を比べる単位（列）が読み取れませんでした。"
        "何別に比べますか（例: 「店舗別」）？",
        "en": "You asked which one, but I could not tell what to compare {what} across. "
        "By which column (e.g. 'by store')?",
    },
    "group_tied": {"ja": "（{names} も同じ値で並んでいます）", "en": " ({names} tie with the last one shown.)"},
    "trend_flat": {"ja": "横ばい", "en": "flat"},
    "trend_up": {"ja": "増加傾向", "en": "increasing"},
    "trend_down": {"ja": "減少傾向", "en": "decreasing"},
    "change_down": {"ja": "減少", "en": "a decrease"},
    "change_up": {"ja": "増加", "en": "an increase"},
    "change_none": {"ja": "変化なし", "en": "no change"},
    "trend_leader": {
        "ja": "{group}別では期間合計で {top}（{value}）が最も大きく、{groups} グループを示しています。",
        "en": " By {group}, {top} is largest over the period ({value}); {groups} groups are shown.",
    },
    "share_item": {"ja": "{value} {share}（{amount}）", "en": "{value} {share} ({amount})"},
    "share": {
        "ja": "{group}別の{what}の構成比: {listed}{conditions}。",
        "en": "Share of {what} by {group}: {listed}{conditions}.",
    },
    "share_within_item": {"ja": "{value} {share}（{part}/{whole}）", "en": "{value} {share} ({part} of {whole})"},
    "share_within": {
        "ja": "{group}ごとの{what}に占める「{condition}」の割合が最も{extreme}のは {top} です。{listed}{conditions}。",
        "en": "The share of {what} where {condition} is {extreme} in {top}. {listed}{conditions}.",
    },
    "share_mix_item": {"ja": "{group}（{listed}）", "en": "{group} ({listed})"},
    "share_mix": {
        "ja": "{group}ごとの{cross}の構成比: {listed}{conditions}。",
        "en": "Mix of {cross} within each {group}: {listed}{conditions}.",
    },
    "share_within_high": {"ja": "高い", "en": "highest"},
    "share_within_low": {"ja": "低い", "en": "lowest"},
    "ratio_measure": {"ja": "{target}の{stat}", "en": "the {stat} of {target}"},
    "ratio_share": {
        "ja": "{part_label} は{what}全体の {value} です（{part} / {base}）{conditions}。",
        "en": "{part_label} is {value} of {what} ({part} of {base}){conditions}.",
    },
    "ratio_change": {
        "ja": "{what}は {base_label} の {base} から {part_label} の {part} へ {value}（{direction}）です{conditions}。",
        "en": "{What} went from {base} ({base_label}) to {part} ({part_label}): {value}, {direction}{conditions}.",
    },
    "together_up": {"ja": "{a} が大きいほど {b} は増加する傾向です。", "en": " As {a} grows, {b} tends to increase."},
    "together_down": {"ja": "{a} が大きいほど {b} は減少する傾向です。", "en": " As {a} grows, {b} tends to decrease."},
    # answers in a requested format
    "answers_none": {
        "ja": "指定された形式の値を計算できませんでした。",
        "en": "None of the requested values could be computed.",
    },
    "answers_problems": {"ja": "計算できなかった値", "en": "Values that could not be computed"},
    "ask_same_slots": {
        "ja": "{names} は、読み取れた範囲では同じもの（{computed}）を計算することになり、"
        "それぞれがどの行（グループ・条件）を指すのか分かりません。各値の対象を教えてください。",
        "en": "As far as I can read them, {names} would all compute the same thing ({computed}); "
        "I cannot tell which rows (group or condition) each one covers. Which rows is each for?",
    },
    "ask_statistic": {
        "ja": "{names} に何を計算すればよいか、質問からも形式からも分かりません。"
        "どの統計量（{stats}）を、どの列（{columns}）について求めますか？",
        "en": "Neither the question nor its format says what to compute for {names}. "
        "Which statistic ({stats}) of which column ({columns})?",
    },
    # correlations
    "corr_pearson": {"ja": "相関係数（ピアソン）", "en": "Pearson correlation"},
    "corr_spearman": {"ja": "スピアマンの順位相関係数", "en": "Spearman rank correlation"},
    "corr_kendall": {"ja": "ケンドールの順位相関係数", "en": "Kendall rank correlation"},
    "corr_strong": {"ja": "強い", "en": "strong"},
    "corr_moderate": {"ja": "中程度の", "en": "moderate"},
    "corr_weak": {"ja": "弱い", "en": "weak"},
    "corr_none": {"ja": "相関はほとんどありません", "en": "there is almost no correlation"},
    "corr_positive": {"ja": "{level}正の相関があります", "en": "there is a {level} positive correlation"},
    "corr_negative": {"ja": "{level}負の相関があります", "en": "there is a {level} negative correlation"},
    # data steps
    "steps_heading": {"ja": "データへの操作", "en": "Steps applied to the data"},
    "first_rows": {"ja": "データの先頭", "en": "First rows"},
    "data_changed": {"ja": "データを変更しました", "en": "The data was changed"},
    "data_unchanged": {"ja": "データを変更できませんでした", "en": "The data could not be changed"},
    "step_failed": {
        "ja": "実行できなかった操作があります: {problem}",
        "en": "One step could not be applied: {problem}",
    },
    "active_data": {"ja": "現在のデータ: {state}。", "en": "Active data: {state}."},
    # next steps, filled with the table's own columns
    "next_by_group": {"ja": "{measure}を{column}別に分けて比較する", "en": "Compare {measure} by {column}"},
    "next_trend": {"ja": "{measure}の{unit}の推移を見る", "en": "Look at the {unit} trend of {measure}"},
    "next_breakdown": {
        "ja": "上位の{group}を{column}別に分解する",
        "en": "Break the leading {group} values down by {column}",
    },
    "next_share": {"ja": "{group}別の構成比（シェア）を確認する", "en": "Check each {group}'s share of the total"},
    "next_year_ago": {"ja": "前年同期と比較する", "en": "Compare with the same period a year earlier"},
    "next_drivers": {
        "ja": "増減に寄与した{column}を特定する",
        "en": "Find the {column} values that drove the change",
    },
    "next_corr_by_group": {
        "ja": "{column}別に相関を比べる",
        "en": "Compare the correlation within each {column}",
    },
    "next_scatter": {"ja": "散布図で外れ値を確認する", "en": "Check the scatter plot for outliers"},
    "next_outlier_rows": {"ja": "外れ値の行の内容を確認する", "en": "Inspect the outlying rows"},
    "next_without_outliers": {
        "ja": "外れ値を除いた{measure}の統計量と比較する",
        "en": "Compare statistics of {measure} with and without the outliers",
    },
    "next_fill": {"ja": "欠損の多い列の補完方法を検討する", "en": "Decide how to fill the columns with many gaps"},
    "next_drop_duplicates": {"ja": "重複行を除いて集計し直す", "en": "Drop the duplicate rows and analyse again"},
    "next_distribution_by": {
        "ja": "{measure}の分布を{column}別に比較する",
        "en": "Compare the distribution of {measure} across {column}",
    },
    "next_compute": {"ja": "このデータで合計や平均を計算する", "en": "Compute totals or means on this data"},
    "next_chart": {"ja": "{column}別に集計してグラフにする", "en": "Aggregate it by {column} as a chart"},
    "next_snapshot": {"ja": "スナップショットとして保存する", "en": "Save it as a snapshot"},
    "unit_M": {"ja": "月別", "en": "monthly"},
    "rows": {"ja": "件数", "en": "the row count"},
}


def say(key: str, language: Language, **values: object) -> str:
    """The catalog's sentence ``key`` in ``language``, with ``values`` filled in."""
    return TEXTS[key][language].format(**values)


@dataclass(frozen=True)
class _Facts:
    """What the next steps may refer to: the table's own columns and what was just asked."""

    categories: list[str]
    dates: bool
    years: bool
    group: str | None


_When = Callable[[_Facts], bool]


def _always(facts: _Facts) -> bool:
    return True


def _has_categories(facts: _Facts) -> bool:
    return bool(facts.categories)


def _has_dates(facts: _Facts) -> bool:
    return facts.dates


def _grouped_and_categories(facts: _Facts) -> bool:
    return facts.group is not None and bool(facts.categories)


def _grouped(facts: _Facts) -> bool:
    return facts.group is not None


def _ungrouped_and_categories(facts: _Facts) -> bool:
    return facts.group is None and bool(facts.categories)


def _spans_a_year(facts: _Facts) -> bool:
    return facts.years


_BY_VALUE: list[tuple[str, _When]] = [("next_by_group", _has_categories), ("next_trend", _has_dates)]
_BY_GROUP: list[tuple[str, _When]] = [
    ("next_breakdown", _grouped_and_categories),
    ("next_trend", _has_dates),
    ("next_share", _grouped),
]
# Each task's possible next steps, each with the condition on the table that makes it possible.
_NEXT: dict[str, list[tuple[str, _When]]] = {
    "stat": _BY_VALUE,
    "ratio": _BY_VALUE,
    "count": _BY_VALUE,
    "group": _BY_GROUP,
    "top": _BY_GROUP,
    "share": _BY_GROUP[:2],
    "trend": [("next_by_group", _ungrouped_and_categories), ("next_year_ago", _spans_a_year)],
    "growth": [("next_drivers", _has_categories), ("next_trend", _has_dates)],
    "correlation": [("next_scatter", _always), ("next_corr_by_group", _has_categories)],
    "outliers": [("next_outlier_rows", _always), ("next_without_outliers", _always)],
    "missing": [("next_fill", _always)],
    "duplicates": [("next_drop_duplicates", _always)],
    "distribution": [("next_distribution_by", _has_categories)],
    "tools": [("next_compute", _always), ("next_chart", _has_categories), ("next_snapshot", _always)],
}


def suggestions(
    plan: Plan | None, info: DataFrameInfo | None, language: Language, task: str | None = None
) -> list[str]:
    """Next steps that this table allows: only columns it has, only a trend when it has dates."""
    kind = task or (plan.task if plan else "")
    used = {plan.group_by, plan.target, plan.second, *(f.column for f in plan.filters)} if plan else set()
    facts = _Facts(
        categories=_categories(info, used),
        dates=info is not None and any(c.kind == "datetime" for c in info.column_info),
        years=_spans_years(info),
        group=plan.group_by if plan else None,
    )
    values = {
        "measure": (plan.target if plan else None) or say("rows", language),
        "column": facts.categories[0] if facts.categories else "",
        "group": facts.group or "",
        "unit": say("unit_M", language),
    }
    found = [say(key, language, **values) for key, when in _NEXT.get(kind, []) if when(facts)]
    return found[:MAX_SUGGESTIONS]


def _categories(info: DataFrameInfo | None, used: set[str | None]) -> list[str]:
    """Categorical columns worth a breakdown: a few groups, not one per row, not already used."""
    if info is None:
        return []
    rows = max(info.shape[0], 1)
    return [
        c.name
        for c in info.column_info
        if c.kind in ("category", "boolean") and c.name not in used and 1 < c.unique <= max(2, rows // 2)
    ]


def _spans_years(info: DataFrameInfo | None) -> bool:
    """Whether a date column covers more than a year, so a year-ago comparison exists."""
    if info is None:
        return False
    for column in info.column_info:
        if column.kind == "datetime" and column.minimum is not None and column.maximum is not None:
            first, last = str(column.minimum)[:10], str(column.maximum)[:10]
            if (
                len(first) == 10
                and len(last) == 10
                and int(last[:4]) * 12 + int(last[5:7]) - (int(first[:4]) * 12 + int(first[5:7])) >= 12
            ):
                return True
    return False
