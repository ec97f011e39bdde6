"""From a `Plan` to readable pandas code that prints its findings and one machine-readable line.

The code is what a careful analyst would write by hand: it is shown to the person, run in the
sandbox and replayed in the report's notebook. Its last line prints ``BUNSEKI_RESULT {json}``:
the numbers the report quotes, as executed.
"""

from __future__ import annotations

import inspect
import re

from bunseki.brain.analyst.offline import bands, catalog, measures, registry, years
from bunseki.brain.analyst.offline.columns import row_label
from bunseki.brain.analyst.offline.filters import condition, rows
from bunseki.brain.analyst.offline.plan import Event, Filter, Plan, Span
from bunseki.brain.analyst.offline.quantiles import quantile_name
from bunseki.brain.analyst.offline.registry import writes
from bunseki.brain.analyst.offline.text import format_number
from bunseki.brain.lexicon import weekday_of
from bunseki.brain.results import RESULT_MARKER
from bunseki.data import periods
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language
from bunseki.report import ticks

STAT_CALL = {
    "sum": "sum",
    "mean": "mean",
    "median": "median",
    "quantile": "quantile",
    "std": "std",
    "var": "var",
    "min": "min",
    "max": "max",
    "count": "count",
    "nunique": "nunique",
}
STAT_NAMES = {
    "ja": {
        "sum": "合計",
        "mean": "平均",
        "median": "中央値",
        "std": "標準偏差",
        "var": "分散",
        "min": "最小値",
        "max": "最大値",
        "count": "件数",
        "nunique": "種類数",
    },
    "en": {
        "sum": "total",
        "mean": "mean",
        "median": "median",
        "std": "standard deviation",
        "var": "variance",
        "min": "minimum",
        "max": "maximum",
        "count": "count",
        "nunique": "distinct values",
    },
}
# Weeks run Monday to Sunday and are labelled by their Sunday (pandas' W-SUN bins end on it).
FREQ = {"D": "D", "W": "W-SUN", "M": "MS", "Q": "QS", "Y": "YS"}
LABEL_FORMAT = {"D": "%Y-%m-%d", "W": "%Y-%m-%d", "M": "%Y-%m", "Q": "%Y-Q%q", "Y": "%Y"}  # Q: a Period's format
GRAIN = {  # one period of each unit, as a trend's slope is "per" it
    "ja": {"D": "日", "W": "週", "M": "月", "Q": "四半期", "Y": "年"},
    "en": {"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"},
}
# Periods named by the day of the week: each day, or weekdays (Mon–Fri) against the weekend.
DAY_NAMES = {
    "weekday": {
        "ja": "['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日']",  # a lone 日 reads as "day"
        "en": "['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']",
    },
    "daytype": {"ja": "['平日', '週末']", "en": "['weekdays', 'weekend']"},
}
MAX_BARS = 30
MAX_PRINTED = 60  # periods printed and returned: a daily trend over years would fill the output limit
# Tick labels as 12,345,678 instead of 1.2 and a "1e7" offset.
_READABLE = "readable_axes(ax.figure, LANGUAGE)"  # 1.5億 / 150M on every numeric axis, never a 1e8 offset
MAX_LINES = 8
# The report's own number formatter, copied into the code (without its docstring) so that the
# printed output and the report write every number the same way.
FORMATTER = [
    line
    for line in re.sub(r'\n\s*""".*?"""', "", inspect.getsource(format_number), count=1, flags=re.DOTALL).splitlines()
    if line.strip()
]


def stat_call(plan: Plan) -> str:
    """The pandas call that computes the plan's statistic: mean(), quantile(0.9)."""
    if plan.stat == "quantile":
        return f"quantile({plan.quantile if plan.quantile is not None else 0.5!r})"
    return f"{STAT_CALL[plan.stat]}()"


def stat_name(plan: Plan, language: str) -> str:
    """The statistic as people name it: 平均, 90パーセンタイル, the 90th percentile."""
    if plan.stat == "quantile":
        return quantile_name(plan.quantile if plan.quantile is not None else 0.5, language)
    return STAT_NAMES["ja" if language == "ja" else "en"].get(plan.stat, plan.stat)


def generate(plan: Plan, info: DataFrameInfo) -> str:
    """Python for ``plan``, run with ``df`` (and pd, np, plt, sns) already defined."""
    if plan.year_column:  # a year column stands for the dates: read it as dates
        info = years.as_dates(info)[0]
    if plan.age_bands:  # 年代: a column of the age column's decades
        info = bands.add(info, plan.age_bands.column, plan.age_bands.age)
    lines = [f"# {describe(plan)}", "import json", "", *FORMATTER, "", *ticks.SOURCE.splitlines(), ""]
    lines += [f"LANGUAGE = {plan.language!r}", *_prepare(plan, info), ""]
    lines += registry.kind(plan.task).code(plan, info)
    lines.append(f'print("{RESULT_MARKER}" + json.dumps(result, ensure_ascii=False, default=str))')
    return "\n".join(lines) + "\n"


def describe(plan: Plan) -> str:
    """One line saying what the code computes, in the person's language (the catalog's words)."""
    language = plan.language
    key = {"top": "what_bottom" if plan.ascending else "what_top", "trend": "what_trend_by" if plan.group_by else ""}
    words = {
        "stat": stat_name(plan, language),
        "target": plan.target or catalog.say("what_rows", language),
        "group": group_label(plan),
        "second": plan.second,
        "n": plan.top_n,
    }
    if plan.task == "ratio":
        what = _describe_ratio(plan)
    elif plan.task == "span":
        span = plan.span or Span(start=Event(kind="first"), end=Event(kind="last"))
        what = catalog.say(
            "what_span",
            language,
            start=_event(span.start, language),
            end=_event(span.end, language),
            unit=catalog.say(f"unit_{span.unit}", language),
        )
    elif plan.task == "share" and plan.cross:
        what = catalog.say("what_share_mix", language, cross=plan.cross, **(words | {"group": plan.group_by}))
    elif plan.within:
        condition_words = "、".join(f.describe(language) for f in plan.within)
        what = catalog.say("what_share_within", language, condition=condition_words, **words)
    else:
        what = catalog.say(key.get(plan.task) or f"what_{plan.task}", language, **words)
    conditions = [f.describe(language) for f in plan.filters]
    if conditions:
        what += f"（{'、'.join(conditions)}）" if language == "ja" else f" ({'; '.join(conditions)})"
    return what


def _event(event: Event, language: Language) -> str:
    return catalog.say(f"event_{event.kind}", language, column=event.column or "")


# --- shared steps --------------------------------------------------------------------------


def _prepare(plan: Plan, info: DataFrameInfo) -> list[str]:
    """The rows and columns the analysis works on: derived column, coercion, filters."""
    lines = ["data = df"]
    if plan.year_column:
        lines.append(years.conversion(plan.year_column))
    if plan.age_bands:
        lines.append(bands.code(plan.age_bands.column, plan.age_bands.age))
    if plan.derived:
        d = plan.derived
        if d.expression:  # built by intent.expression from the table's own columns, numbers and + - * / ( )
            formula = f"({d.expression}).replace([np.inf, -np.inf], np.nan)"
        elif d.op == "/":
            formula = f"data[{d.left!r}] / data[{d.right!r}].replace(0, np.nan)"
        else:
            formula = f"data[{d.left!r}] {d.op} data[{d.right!r}]"
        lines.append(f"data = data.assign(**{{{d.name!r}: {formula}}})")
    if plan.robust:
        for column in _numeric_columns(plan):
            lines.append(f"data = data.assign(**{{{column!r}: pd.to_numeric(data[{column!r}], errors='coerce')}})")
    conditions = [condition(f, info) for f in plan.filters]
    if conditions:
        joined = "\n    & ".join(conditions)
        lines.append(f"data = data[\n    {joined}\n]")
    label = "対象の行数" if plan.language == "ja" else "rows used"
    lines.append(f'print(f"{label}: {{format_number(len(data))}} / {{format_number(len(df))}}")')
    return lines


def _numeric_columns(plan: Plan) -> list[str]:
    return [c for c in (plan.target, plan.second) if c and not (plan.derived and c == plan.derived.name)]


def _series(plan: Plan) -> str:
    return f"data[{plan.target!r}]"


def _chart_end(plan: Plan, title: str, xlabel: str | None, ylabel: str | None) -> list[str]:
    lines = [f"ax.set_title({title!r})"]
    if xlabel is not None:
        lines.append(f"ax.set_xlabel({xlabel!r})")
    if ylabel is not None:
        lines.append(f"ax.set_ylabel({ylabel!r})")
    name = _file_name(title)
    lines += ["plt.tight_layout()", f"plt.savefig({name!r}, dpi=110)", "plt.close('all')"]
    return lines


def _file_name(title: str) -> str:
    slug = re.sub(r"[^\w]+", "_", title).strip("_")[:60] or "chart"
    return f"{slug}.png"


def _stat_label(plan: Plan) -> str:
    return stat_name(plan, plan.language)


# --- tasks ---------------------------------------------------------------------------------


@writes("stat")
def _stat(plan: Plan, info: DataFrameInfo) -> list[str]:
    lines = [f"values = {_series(plan)}", f"value = values.{stat_call(plan)}"]
    label = f"{plan.target} の{_stat_label(plan)}" if plan.language == "ja" else f"{_stat_label(plan)} of {plan.target}"
    lines.append(f'print(f"{label}: {{format_number(value)}}")')
    lines.append(
        f"result = {{'task': 'stat', 'stat': {plan.stat!r}, 'q': {plan.quantile!r}, 'column': {plan.target!r}, "
        "'value': float(value), 'rows': int(len(data)), 'non_null': int(values.notna().sum())}"
    )
    if plan.stat in ("max", "min") and _context_columns(plan, info):
        context = _context_columns(plan, info)
        lines += [
            f"where = data.loc[values.idx{plan.stat}(), {context!r}] if values.notna().any() else None",
            "if where is not None:",
            "    print(where.to_string())",
            "    result['where'] = {str(k): str(v) for k, v in where.items()}",
        ]
    return lines


def _context_columns(plan: Plan, info: DataFrameInfo) -> list[str]:
    """Columns that say where a maximum or minimum happened: the row's name when a column names the
    rows (a product, a person), then its date, store, region…"""
    kinds = ("datetime", "category")
    label = row_label(info, repeated=True)
    named = [label] if label is not None and label != plan.target else []
    return (named + [c.name for c in info.column_info if c.kind in kinds and c.name not in (plan.target, label)])[:3]


def _describe_ratio(plan: Plan) -> str:
    ratio = plan.ratio
    target = plan.target or catalog.say("rows_word", plan.language)
    if ratio is None:
        return target
    labels = {"part": ratio.part_label, "base": ratio.base_label, "target": target}
    kind = "against" if ratio.kind != "share" and ratio.base_column and ratio.part_column else ratio.kind
    return catalog.say(f"what_ratio_{kind}", plan.language, **labels)


@writes("ratio")
def _ratio(plan: Plan, info: DataFrameInfo) -> list[str]:
    """A share of the whole, or the percent change from a base subset to another, of a measure or of rows."""
    ratio = plan.ratio
    assert ratio is not None
    measure = f"[{plan.target!r}].{stat_call(plan)}" if plan.target else None

    def amount(frame: str) -> str:
        return f"float({frame}{measure})" if measure else f"float(len({frame}))"

    def subset(filters: list[Filter]) -> str:
        conditions = [condition(f, info) for f in filters]
        return f"data[{' & '.join(conditions)}]" if conditions else "data"

    if ratio.kind == "share":
        lines = [f"part = {subset(ratio.part)}", f"part_value = {amount('part')}", f"whole_value = {amount('data')}"]
        lines.append("value = 100 * part_value / whole_value if whole_value else float('nan')")
        lines.append("base_value = whole_value")
    elif ratio.base_column and ratio.part_column:  # one measure against another over the same rows
        call = stat_call(plan)
        lines = ["base = part = data", f"base_value = float(data[{ratio.base_column!r}].{call})"]
        lines.append(f"part_value = float(data[{ratio.part_column!r}].{call})")
        lines.append("value = 100 * (part_value - base_value) / abs(base_value) if base_value else float('nan')")
    else:
        lines = [f"base = {subset(ratio.base)}", f"part = {subset(ratio.part)}"]
        lines += [f"base_value = {amount('base')}", f"part_value = {amount('part')}"]
        lines.append("value = 100 * (part_value - base_value) / abs(base_value) if base_value else float('nan')")
    lines.append(
        'print(f"{format_number(part_value)} / {format_number(base_value)} -> '
        "{'+' if value > 0 else ''}{format_number(value, 2)}%\")"
    )
    lines.append(
        f"result = {{'task': 'ratio', 'kind': {ratio.kind!r}, 'value': value, 'part': part_value, "
        f"'base': base_value, 'part_rows': int(len(part)), 'rows': int(len(data)), 'column': {plan.target!r}}}"
    )
    return lines


@writes("count")
def _count(plan: Plan, info: DataFrameInfo) -> list[str]:
    label = catalog.say("rows_word", plan.language)
    return [
        "count = len(data)",
        f'print(f"{label}: {{format_number(count)}}")',
        "result = {'task': 'count', 'value': int(count), 'total': int(len(df)), 'columns': int(data.shape[1])}",
    ]


def _grouped(plan: Plan) -> list[str]:
    keys = [plan.group_by, plan.cross] if plan.cross else plan.group_by
    value = ".size()" if plan.target is None else f"[{plan.target!r}].{stat_call(plan)}"
    lines = [f"grouped = data.groupby({keys!r}, observed=True){value}"]
    if plan.cross:  # the cross table is shown whole; its cells are then ranked as one list
        joiner = "・" if plan.language == "ja" else " / "
        lines += [
            f"print(grouped.unstack({plan.cross!r}).to_string())",
            f"grouped.index = [f'{{a}}{joiner}{{b}}' for a, b in grouped.index]",
        ]
    return lines


def smoothed_name(plan: Plan, measure: str) -> str:
    """累計 or N-period moving average of ``measure``, as the answer and the chart name it."""
    if plan.cumulative:
        return catalog.say("cumulative", plan.language, measure=measure)
    grain = GRAIN[plan.language].get(plan.time_unit or "M", "")
    return catalog.say("rolling", plan.language, measure=measure, window=plan.rolling, grain=grain)


def group_label(plan: Plan) -> str | None:
    """What the rows are grouped by, as the text and the chart name it: 店舗, or 店舗×カテゴリ."""
    return f"{plan.group_by}×{plan.cross}" if plan.cross else plan.group_by


@writes("group", "top")
def _group(plan: Plan, info: DataFrameInfo) -> list[str]:
    lines = _grouped(plan)
    # stable: groups with equal values keep their name order, so a tie is cut the same way every time
    lines.append(f"grouped = grouped.sort_values(ascending={plan.ascending!r}, kind='stable')")
    shown = "grouped"
    if plan.top_n:
        lines.append(f"shown = grouped.head({plan.top_n})")
        # groups level with the last one shown are named too: a cut through a tie is arbitrary
        lines.append(
            "tied = [str(k) for k, v in grouped.iloc[len(shown):].items() if len(shown) and v == shown.iloc[-1]]"
        )
        shown = "shown"
    lines.append(f"print({shown}.to_string())")
    lines += [
        "total = grouped.sum()",
        "result = {",
        f"    'task': {plan.task!r}, 'stat': {plan.stat!r}, 'column': {plan.target!r}, 'by': {group_label(plan)!r},",
        "    'values': [[str(k), float(v)] for k, v in grouped.head(50).items()],",
        "    'groups': int(len(grouped)), 'total': float(total), 'rows': int(len(data)),",
        f"    'top_n': {plan.top_n!r}, 'ascending': {plan.ascending!r},",
        "}",
    ]
    if plan.top_n:
        lines.append("result['tied'] = tied")
    lines += _bar_chart(plan, "grouped")
    return lines


def _bar_chart(plan: Plan, name: str) -> list[str]:
    count = min(plan.top_n or MAX_BARS, MAX_BARS)
    what = plan.target or catalog.say("rows_word", plan.language)
    group = group_label(plan)
    title = (
        f"{group}別の{what}の{_stat_label(plan)}"
        if plan.language == "ja"
        else f"{_stat_label(plan).capitalize()} of {what} by {group}"
    )
    if plan.target is None:
        title = f"{group}別の件数" if plan.language == "ja" else f"Rows by {group}"
    return [
        f"plotted = {name}.head({count})",
        "ax = plotted.plot.barh(figsize=(8, max(3, 0.4 * len(plotted) + 1)))",
        "ax.invert_yaxis()",
        _READABLE.format(axis="xaxis"),
        *_chart_end(plan, title, None, None),
    ]


def _periods(unit: str) -> str:
    """Quarters are labelled as periods (2024-Q1): a timestamp's format has no quarter."""
    return ".to_period('Q')" if unit == "Q" else ""


def _smoothing(plan: Plan) -> str:
    """A running total (累計) or a moving average over the periods, as a pandas call on them."""
    if plan.cumulative:
        return ".cumsum()"
    window = plan.rolling
    return f".rolling({int(window)}).mean().dropna(how='all')" if window else ""


@writes("trend")
def _trend(plan: Plan, info: DataFrameInfo) -> list[str]:
    date, unit = plan.date_column, plan.time_unit or "M"
    value = f"[{plan.target!r}].{stat_call(plan)}" if plan.target else ".size()"
    if unit in DAY_NAMES:
        names = DAY_NAMES[unit]["ja" if plan.language == "ja" else "en"]
        column = info.column(date or "")
        if column is not None and column.kind != "datetime":  # day names (Sat, 日曜): the weekend by name
            weekend = [v for v in column.values or () if (weekday_of(str(v)) or 0) >= 5]
            key, day = f"data[{date!r}].isin({weekend!r})", "int(day)"
        elif unit == "weekday":
            key, day = f"data[{date!r}].dt.day_of_week", "day"
        else:
            key, day = f"data[{date!r}].dt.day_of_week >= 5", "int(day)"
        lines = [
            f"series = data.groupby({key}){value}",
            f"series.index = [{names}[{day}] for day in series.index]",
        ]
    elif plan.group_by:
        lines = [
            f"keys = [pd.Grouper(key={date!r}, freq={FREQ[unit]!r}), {plan.group_by!r}]",
            f"table = data.groupby(keys, observed=True){value}",
            f"table = table.unstack({plan.group_by!r})",
            f"table = table[table.sum().sort_values(ascending=False).index[:{MAX_LINES}]]",
            f"table.index = table.index{_periods(unit)}.strftime({LABEL_FORMAT[unit]!r})",
            "group_totals = table.sum().sort_values(ascending=False)",
            *([f"table = table{_smoothing(plan)}"] if _smoothing(plan) else []),
            "series = table.sum(axis=1)",
            f"print(table.to_string(max_rows={MAX_PRINTED}))",
        ]
    elif unit == "D":  # the days the rows hold: a day without rows (closed, a weekend) is not a day of 0
        lines = [
            f"series = data.groupby(data[{date!r}].dt.normalize()){value}",
            f"series.index = series.index.strftime({LABEL_FORMAT[unit]!r})",
            *([f"series = series{_smoothing(plan)}"] if _smoothing(plan) else []),
        ]
    else:
        lines = [
            f"series = data.set_index({date!r}).resample({FREQ[unit]!r}){value}",
            f"series.index = series.index{_periods(unit)}.strftime({LABEL_FORMAT[unit]!r})",
            *([f"series = series{_smoothing(plan)}"] if _smoothing(plan) else []),
        ]
    if not plan.group_by:
        lines.append(f"print(series.to_string(max_rows={MAX_PRINTED}))")
    if unit in ("W", "M", "Q", "Y") and not _smoothing(plan):  # calendar periods the data may cover in part
        lines += [
            *periods.SOURCE.splitlines(),
            "# A first or last period the data cover only in part: left out of the extremes, the change, the slope.",
            f"head, tail = partial_ends(data[{date!r}], {FREQ[unit]!r}, len(series))",
            "labels = [str(k) for k in series.index]",
            "partial = labels[:1][: int(head)] + labels[-1:][: int(tail)]",
            "whole = series.iloc[int(head) : len(series) - int(tail)]",
        ]
    else:
        lines += ["partial, whole = [], series"]
    lines += [
        "result = {",
        f"    'task': 'trend', 'stat': {plan.stat!r}, 'column': {plan.target!r}, 'unit': {unit!r},",
        # the first periods only: a result line must fit in the cell's output, years of days do not
        f"    'values': [[str(k), float(v)] for k, v in series.head({MAX_PRINTED}).items()],",
        "    'periods': int(whole.notna().sum()), 'level': float(whole.mean()) if len(whole) else None,",
        "    'peak': [str(whole.idxmax()), float(whole.max())] if len(whole) else None,",
        "    'low': [str(whole.idxmin()), float(whole.min())] if len(whole) else None,",
        "    'first': [str(whole.index[0]), float(whole.iloc[0])] if len(whole) else None,",
        "    'last': [str(whole.index[-1]), float(whole.iloc[-1])] if len(whole) else None,",
        f"    'by': {plan.group_by!r}, 'rows': int(len(data)), 'partial': partial,",
        "}",
        "# The direction over the whole span: the slope of a straight line through the whole periods.",
        "points = whole.dropna()",
        "result['slope'] = float(np.polyfit(np.arange(len(points)), points.to_numpy(float), 1)[0]) "
        "if len(points) >= 2 else None",
    ]
    if plan.group_by:
        lines.append("result['group_totals'] = [[str(k), float(v)] for k, v in group_totals.items()]")
    what = plan.target or catalog.say("rows_word", plan.language)
    measure = f"{what}の{_stat_label(plan)}" if plan.language == "ja" else f"{_stat_label(plan)} of {what}"
    if _smoothing(plan):
        measure = smoothed_name(plan, measure)
    title = f"{measure}の推移" if plan.language == "ja" else f"Trend of the {measure}"
    if plan.group_by:
        title = f"{plan.group_by}別 " + title if plan.language == "ja" else title + f" by {plan.group_by}"
        lines.append("ax = table.plot(figsize=(10, 5), marker='o')")
        lines.append(f"ax.legend(title={plan.group_by!r}, loc='upper left', bbox_to_anchor=(1.01, 1))")
    else:
        lines.append("ax = series.plot(figsize=(9, 5), marker='o')")
    lines.append(_READABLE.format(axis="yaxis"))
    lines += _chart_end(plan, title, None, None)
    return lines


@writes("share")
def _share(plan: Plan, info: DataFrameInfo) -> list[str]:
    if plan.within:
        return _share_within(plan, info)
    if plan.cross:
        return _share_mix(plan)
    lines = _grouped(plan)
    lines += [
        "grouped = grouped.sort_values(ascending=False)",
        "share = grouped / grouped.sum() * 100",
        "print(pd.DataFrame({'value': grouped, 'share_%': share.round(2)}).to_string())",
        "result = {",
        f"    'task': 'share', 'stat': {plan.stat!r}, 'column': {plan.target!r}, 'by': {plan.group_by!r},",
        "    'values': [[str(k), float(v), float(share[k])] for k, v in grouped.head(50).items()],",
        f"    'focus': {plan.focus!r}, 'total': float(grouped.sum()), 'rows': int(len(data)),",
        "}",
    ]
    title = f"{plan.group_by}別の構成比（%）" if plan.language == "ja" else f"Share by {plan.group_by} (%)"
    lines += [
        "ax = share.head(12).plot.pie(figsize=(6, 6), autopct='%.1f%%', ylabel='')",
        *_chart_end(plan, title, None, None),
    ]
    return lines


def _share_mix(plan: Plan) -> list[str]:
    """Each group's own mix of the values of ``cross`` (rows, or the measure summed), in percent."""
    group, cross = plan.group_by, plan.cross
    value = ".size()" if plan.target is None else f"[{plan.target!r}].sum()"  # shares of a sum, never of a mean
    lines = [
        f"table = data.groupby([{group!r}, {cross!r}], observed=True){value}.unstack({cross!r}, fill_value=0)",
        "table = table.loc[table.sum(axis=1).sort_values(ascending=False).index]",
        "share = table.div(table.sum(axis=1).replace(0, np.nan), axis=0).mul(100).fillna(0)",
        "print(share.round(1).to_string())",
        "groups = []",
        "for name in share.index[:50]:",
        "    ordered = share.loc[name].sort_values(ascending=False)",
        "    groups.append([str(name), [[str(k), float(p), float(table.loc[name, k])] for k, p in ordered.items()]])",
        "result = {",
        f"    'task': 'share', 'mix': True, 'column': {plan.target!r}, 'by': {group!r}, 'cross': {cross!r},",
        "    'groups': groups, 'rows': int(len(data)),",
        "}",
    ]
    title = describe(plan) + "（%）" if plan.language == "ja" else describe(plan) + " (%)"
    lines += [
        "ax = share.head(20).plot.bar(stacked=True, figsize=(10, 5))",
        f"ax.legend(title={cross!r}, loc='upper left', bbox_to_anchor=(1.01, 1))",
        *_chart_end(plan, title, group, "%"),
    ]
    return lines


def _share_within(plan: Plan, info: DataFrameInfo) -> list[str]:
    """Each group's own share of rows (or of the measure) meeting the condition, ranked."""
    hit = " & ".join(f"({condition(f, info)})" for f in plan.within)
    weight = f"data[{plan.target!r}]" if plan.target else "pd.Series(1.0, index=data.index)"
    group = plan.group_by
    lines = [
        f"hit = {hit}",
        f"weight = {weight}",
        f"part = weight.where(hit, 0).groupby(data[{group!r}], observed=True).sum()",
        f"whole = weight.groupby(data[{group!r}], observed=True).sum()",
        f"share = (part / whole.replace(0, np.nan) * 100).dropna().sort_values(ascending={plan.ascending})",
        "print(pd.DataFrame({'matching': part, 'all': whole, 'share_%': share.round(2)}).loc[share.index].to_string())",
        "result = {",
        f"    'task': 'share', 'within': True, 'column': {plan.target!r}, 'by': {group!r},",
        "    'values': [[str(k), float(part[k]), float(share[k])] for k in share.index[:50]],",
        "    'whole': {str(k): float(whole[k]) for k in share.index[:50]}, 'rows': int(len(data)),",
        "}",
    ]
    title = describe(plan) + "（%）" if plan.language == "ja" else describe(plan) + " (%)"
    lines += ["ax = share.head(20).plot.bar(figsize=(9, 5))", *_chart_end(plan, title, group, "%")]
    return lines


@writes("growth")
def _growth(plan: Plan, info: DataFrameInfo) -> list[str]:
    first, second = plan.periods[:2]
    date = str(plan.date_column)
    measured = "len(rows)" if plan.target is None else f"rows[{plan.target!r}].{stat_call(plan)}"  # rows counted
    windows = [Filter(column=date, op="between", value=[p.start, p.end], text=p.label) for p in (first, second)]
    lines = [
        "periods = {",
        *(f"    {p.label!r}: {rows([w], info)}," for p, w in zip((first, second), windows, strict=True)),
        "}",
        f"values = pd.Series({{label: {measured} for label, rows in periods.items()}})",
        "print(values.to_string())",
        "before, after = float(values.iloc[0]), float(values.iloc[1])",
        "change = after - before",
        "rate = change / before * 100 if before else None",
        "result = {",
        f"    'task': 'growth', 'stat': {plan.stat!r}, 'column': {plan.target!r},",
        "    'periods': [[str(k), float(v)] for k, v in values.items()], 'change': change, 'rate': rate,",
        "    'rows': [int(len(rows)) for rows in periods.values()],",
        "}",
    ]
    title = (
        f"{plan.target or catalog.say('rows_word', plan.language)}の{_stat_label(plan)}の比較"
        if plan.language == "ja"
        else f"{_stat_label(plan).capitalize()} of {plan.target} by period"
    )
    lines += [
        "ax = values.plot.bar(figsize=(6, 4), rot=0)",
        _READABLE.format(axis="yaxis"),
        *_chart_end(plan, title, None, None),
    ]
    return lines


@writes("span")
def _span(plan: Plan, info: DataFrameInfo) -> list[str]:
    """The time between two moments of the rows: the first or last date, a measure's extreme row."""
    assert plan.span is not None and plan.date_column is not None
    span = plan.span
    column = info.column(plan.date_column)
    if column is not None and column.kind == "number":  # a year column: 1 January of each year
        years = f"data[{plan.date_column!r}].astype('Int64').astype(str)"
        lines = [f"dates = pd.to_datetime({years}, format='%Y', errors='coerce')"]
    else:
        lines = [f"dates = pd.to_datetime(data[{plan.date_column!r}], errors='coerce')"]
    for name, event in (("start", span.start), ("end", span.end)):
        if event.kind in ("first", "last"):
            lines.append(f"{name} = dates.{'min' if event.kind == 'first' else 'max'}()")
        else:
            lines.append(f"{name}_values = pd.to_numeric(data[{event.column!r}], errors='coerce')")
            lines.append(f"{name} = dates[{name}_values.idx{event.kind}()] if {name}_values.notna().any() else pd.NaT")
    lines += [
        "days = (end - start).days",
        "units = {'days': days, 'weeks': days / 7, 'months': (end.year - start.year) * 12 + end.month - start.month,"
        " 'years': end.year - start.year}",
        f"value = units[{span.unit!r}]",
        'print(f"{start} → {end}: {value}")',
        "result = {",
        f"    'task': 'span', 'value': float(value), 'unit': {span.unit!r}, 'start': str(start.date()),",
        "    'end': str(end.date()), 'rows': int(len(data)),",
        "}",
    ]
    return lines


@writes("distinct")
def _distinct(plan: Plan, info: DataFrameInfo) -> list[str]:
    return [
        f"values = data[{plan.target!r}].dropna()",
        "counts = values.value_counts()",
        "print(counts.head(20).to_string())",
        "result = {'task': 'distinct', 'column': " + repr(plan.target) + ", 'value': int(values.nunique()),",
        "          'top': [[str(k), int(v)] for k, v in counts.head(20).items()], 'rows': int(len(data))}",
    ]


@writes("duplicates")
def _duplicates(plan: Plan, info: DataFrameInfo) -> list[str]:
    columns = plan.columns or None
    return [
        f"subset = {columns!r}",
        "repeated = data.duplicated(subset=subset, keep='first')  # each copy after the first",
        "involved = data.duplicated(subset=subset, keep=False)  # every row that has a twin",
        "print(data[involved].sort_values(subset or list(data.columns)).head(20).to_string() or 'no duplicates')",
        "result = {'task': 'duplicates', 'rows': int(len(data)), 'repeated': int(repeated.sum()),",
        "          'involved': int(involved.sum()), 'columns': subset}",
    ]


@writes("missing")
def _missing(plan: Plan, info: DataFrameInfo) -> list[str]:
    columns = f"[{plan.target!r}]" if plan.target else "list(data.columns)"
    return [
        f"missing = data[{columns}].isna().sum()",
        "percent = missing / max(len(data), 1) * 100",
        "table = pd.DataFrame({'missing': missing, 'percent': percent.round(2)})",
        "missing = missing.sort_values(ascending=False)",
        "print(table.loc[missing[missing > 0].index].to_string() or 'no missing values')",
        "result = {'task': 'missing', 'rows': int(len(data)), 'total': int(missing.sum()),",
        "          'columns': [[str(k), int(v), float(percent[k])] for k, v in missing.items()]}",
    ]


@writes("correlation")
def _correlation(plan: Plan, info: DataFrameInfo) -> list[str]:
    """The coefficient the question asks for (Pearson unless it names Spearman or Kendall), with its own test."""
    a, b = plan.target, plan.second
    method = plan.method.corr
    test = measures.CORRELATION_TESTS.get(method, "pearsonr")
    lines = [
        "from scipy import stats",
        f"pair = data[[{a!r}, {b!r}]].apply(pd.to_numeric, errors='coerce').dropna()",
        f"r, p = stats.{test}(pair[{a!r}], pair[{b!r}])[:2]",
        f"pearson = pair[{a!r}].corr(pair[{b!r}])",
        f'print(f"{method} = {{format_number(r, 4)}} (p = {{format_number(p)}}), '
        f'pearson r = {{format_number(pearson, 4)}}, n = {{format_number(len(pair))}}")',
        f"result = {{'task': 'correlation', 'columns': [{a!r}, {b!r}], 'method': {method!r}, 'r': float(r),",
        "          'p': float(p), 'pearson': float(pearson), 'n': int(len(pair))}",
        "shown = pair.sample(min(len(pair), 5000), random_state=0)",
        f"ax = shown.plot.scatter(x={a!r}, y={b!r}, alpha=0.4, figsize=(6, 5))",
    ]
    title = f"{a} と {b} の関係" if plan.language == "ja" else f"{a} vs {b}"
    return lines + _chart_end(plan, title, a, b)


@writes("correlation_matrix")
def _correlation_matrix(plan: Plan, info: DataFrameInfo) -> list[str]:
    lines = [
        "numeric = data.select_dtypes('number')",
        "numeric = numeric.loc[:, numeric.nunique() > 1].iloc[:, :15]",
        "matrix = numeric.corr()",
        "columns = list(matrix.columns)",
        "pairs = [(a, b, float(matrix.loc[a, b])) for i, a in enumerate(columns) for b in columns[i + 1:]]",
        "pairs.sort(key=lambda item: -abs(item[2]))",
        "print(matrix.round(3).to_string())",
        "result = {'task': 'correlation_matrix', 'pairs': [[a, b, r] for a, b, r in pairs[:10]],",
        "          'columns': list(map(str, columns))}",
        "ax = sns.heatmap(matrix, annot=len(matrix) <= 10, fmt='.2f', cmap='coolwarm', vmin=-1, vmax=1)",
    ]
    title = "数値列の相関係数" if plan.language == "ja" else "Correlation between numeric columns"
    return lines + _chart_end(plan, title, None, None)


@writes("outliers")
def _outliers(plan: Plan, info: DataFrameInfo) -> list[str]:
    lines = [f"values = pd.to_numeric({_series(plan)}, errors='coerce').dropna()"]
    if plan.outlier_method == "iqr":
        lines += [
            "q1, q3 = values.quantile(0.25), values.quantile(0.75)",
            "iqr = q3 - q1",
            f"lower, upper = q1 - {plan.threshold!r} * iqr, q3 + {plan.threshold!r} * iqr",
            "outliers = values[(values < lower) | (values > upper)]",
        ]
    else:
        lines += [
            "z = (values - values.mean()) / values.std()",
            f"outliers = values[z.abs() > {plan.threshold!r}]",
            f"spread = {plan.threshold!r} * values.std()",
            "lower, upper = values.mean() - spread, values.mean() + spread",
        ]
    lines += [
        "print(f'outliers: {format_number(len(outliers))} of {format_number(len(values))}')",
        "print(outliers.sort_values(ascending=False).head(20).to_string())",
        f"result = {{'task': 'outliers', 'column': {plan.target!r}, 'method': {plan.outlier_method!r},",
        f"          'threshold': {plan.threshold!r}, 'count': int(len(outliers)), 'rows': int(len(values)),",
        "          'lower': float(lower), 'upper': float(upper),",
        "          'values': [float(v) for v in outliers.sort_values(ascending=False).head(20)]}",
        "ax = values.plot.hist(bins=50, figsize=(8, 4))",
        "ax.axvline(lower, color='red', linestyle='--')",
        "ax.axvline(upper, color='red', linestyle='--')",
    ]
    title = (
        f"{plan.target} の分布と外れ値の境界"
        if plan.language == "ja"
        else f"Distribution of {plan.target} and outlier bounds"
    )
    return lines + _chart_end(plan, title, plan.target, None)


@writes("distribution")
def _distribution(plan: Plan, info: DataFrameInfo) -> list[str]:
    if plan.chart == "bar":
        lines = [
            f"counts = data[{plan.target!r}].value_counts()",
            "print(counts.head(30).to_string())",
            f"result = {{'task': 'distribution', 'column': {plan.target!r}, 'kind': 'category',",
            "          'values': [[str(k), int(v)] for k, v in counts.head(30).items()], 'rows': int(len(data))}",
            "ax = counts.head(30).plot.barh(figsize=(8, 5))",
            "ax.invert_yaxis()",
        ]
    else:
        lines = [
            f"values = pd.to_numeric({_series(plan)}, errors='coerce').dropna()",
            "summary = values.describe()",
            "print(summary.to_string())",
            "print(f'skewness: {format_number(values.skew(), 3)}')",
            f"result = {{'task': 'distribution', 'column': {plan.target!r}, 'kind': 'number',",
            "          'summary': {k: float(v) for k, v in summary.items()}, 'skew': float(values.skew()),",
            "          'rows': int(len(values))}",
            "ax = values.plot.hist(bins=40, figsize=(8, 4))",
        ]
    title = f"{plan.target} の分布" if plan.language == "ja" else f"Distribution of {plan.target}"
    return lines + _chart_end(plan, title, plan.target if plan.chart != "bar" else None, None)


@writes("describe")
def _describe(plan: Plan, info: DataFrameInfo) -> list[str]:
    if plan.target:
        return [
            f"column = data[{plan.target!r}]",
            "summary = column.describe()",
            "print(summary.to_string())",
            f"result = {{'task': 'describe', 'column': {plan.target!r}, 'rows': int(len(data)),",
            "          'missing': int(column.isna().sum()), 'summary': {str(k): str(v) for k, v in summary.items()}}",
        ]
    return [
        "print(f'{format_number(data.shape[0])} rows x {data.shape[1]} columns')",
        "numeric = data.select_dtypes('number')",
        "if not numeric.empty:",
        "    print(numeric.describe().T.round(2).to_string())",
        "labels = data.select_dtypes(exclude=['number', 'datetime']).columns[:8]",
        "categories = {c: data[c].value_counts().head(3) for c in labels}",
        "for name, counts in categories.items():",
        "    print(f'{name}: ' + ', '.join(f'{k} ({format_number(v)})' for k, v in counts.items()))",
        "dates = data.select_dtypes('datetime')",
        "result = {",
        "    'task': 'describe', 'rows': int(data.shape[0]), 'columns': int(data.shape[1]),",
        "    'numeric': {",
        "        c: {'mean': float(numeric[c].mean()), 'min': float(numeric[c].min()), 'max': float(numeric[c].max())}",
        "        for c in numeric.columns[:10]",
        "    },",
        "    'categories': {c: [[str(k), int(v)] for k, v in counts.items()] for c, counts in categories.items()},",
        "    'dates': {c: [str(dates[c].min()), str(dates[c].max())] for c in dates.columns},",
        "    'missing': int(data.isna().sum().sum()),",
        "}",
    ]
