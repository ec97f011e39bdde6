"""The code templates `code.write` fills in: one per kind of computation, tokens in capitals.

``__COLUMNS__`` and the like become Python literals (``repr``); ``__L_…__`` become labels in the
person's language. Every template leaves a ``result`` dict; `RESULT` prints it as JSON.
"""

from __future__ import annotations

from bunseki.domain import Language

PRELUDE = """import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

COLUMNS = [c for c in __COLUMNS__ if c in df.columns]
data = df[COLUMNS] if COLUMNS else df
CHART = __CHART__
TITLE = __TITLE__


__TICKS_SOURCE__

def labelled(series):
    \"\"\"Booleans as the report's language writes them (__L_YES__ / __L_NO__), never True / False.\"\"\"
    values = series.dropna()
    if pd.api.types.is_bool_dtype(series) or (
        len(values) and all(isinstance(v, (bool, np.bool_)) or v in ("True", "False") for v in values.unique())
    ):
        return series.map({True: "__L_YES__", False: "__L_NO__", "True": "__L_YES__", "False": "__L_NO__"})
    return series


def num(value):
    \"\"\"A JSON number: None for missing or infinite values.\"\"\"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if np.isfinite(value) else None

"""

HELPERS = """
def to_num(series):
    return pd.to_numeric(series, errors="coerce")


def chart(draw):
    draw()
    readable_axes(plt.gcf(), "__L_LANG__")  # 1.5億 / 150M, never a 1e8 offset
    plt.tight_layout()
    plt.savefig(CHART, dpi=110)
    plt.close("all")

"""

RETRY_HELPERS = """
def to_num(series):
    \"\"\"Numbers even from text such as "1,200円" or " 35% "; infinities count as missing.\"\"\"
    if not pd.api.types.is_numeric_dtype(series):
        series = series.astype("string").str.replace(r"[,\\s¥$€£円%]", "", regex=True)
    return pd.to_numeric(series, errors="coerce").replace([np.inf, -np.inf], np.nan)


def chart(draw):
    try:
        draw()
        readable_axes(plt.gcf(), "__L_LANG__")
        plt.tight_layout()
        plt.savefig(CHART, dpi=110)
    except Exception as exc:  # the numbers above stand without the chart
        print(f"chart skipped: {exc}")
    plt.close("all")

"""

RESULT = """
result.update({"step": __STEP__, "kind": __KIND__, "mode": __MODE__})
print(__MARKER__ + json.dumps(result, ensure_ascii=False, default=str))
"""

MISSING = """
rows = len(data)
counts = data.isna().sum().sort_values(ascending=False, kind="stable")
pct = counts / max(rows, 1) * 100
incomplete = int(data.isna().any(axis=1).sum())
print(f"__L_ROWS__: {rows:,}  __L_INCOMPLETE__: {incomplete:,}")
print(pd.DataFrame({"__L_MISSING__": counts, "%": pct.round(2)}).to_string())
result = {
    "rows": int(rows),
    "rows_with_missing": incomplete,
    "columns": [{"column": str(c), "missing": int(counts[c]), "pct": num(pct[c])} for c in counts.index],
}
shown = pct[pct > 0].head(30)


def draw():
    fig, ax = plt.subplots(figsize=(8, max(3, 0.4 * len(shown) + 1)))
    ax.barh([str(c) for c in shown.index], shown.to_numpy())
    ax.invert_yaxis()
    ax.set_xlabel("__L_MISSING_PCT__")
    ax.set_title(TITLE)


if len(shown):
    chart(draw)
"""

DISTRIBUTION = """
values = pd.DataFrame({c: to_num(data[c]) for c in __NUMERIC__ if c in data.columns})
stats = []
for column in values.columns:
    s = values[column].dropna()
    stats.append(
        {
            "column": str(column),
            "count": int(s.count()),
            "mean": num(s.mean()),
            "median": num(s.median()),
            "std": num(s.std()),
            "min": num(s.min()),
            "max": num(s.max()),
            "skew": num(s.skew()),
            # strongly right-skewed and positive: drawn on a log axis, where its spread can be seen
            "log_view": bool(len(s) > 2 and s.min() > 0 and (s.skew() or 0) >= 2),
        }
    )
print(pd.DataFrame(stats).set_index("column").round(3).to_string() if stats else "__L_NOTHING__")
result = {"columns": stats}
filled = [c for c in values.columns if values[c].notna().any()]
logged = {item["column"] for item in stats if item["log_view"]}


def draw():
    width = min(3, len(filled))
    height = -(-len(filled) // width)
    fig, axes = plt.subplots(height, width, figsize=(4 * width, 3 * height), squeeze=False)
    for ax, column in zip(axes.flat, filled):
        column_values = values[column].dropna()
        if str(column) in logged:
            ax.hist(column_values, bins=np.geomspace(column_values.min(), column_values.max(), 31), color="#4C72B0")
            ax.set_xscale("log")
            ax.set_title(f"{column} (__L_LOG__)")
        else:
            ax.hist(column_values, bins=30, color="#4C72B0")
            ax.set_title(str(column))
    for ax in list(axes.flat)[len(filled):]:
        ax.set_visible(False)
    fig.suptitle(TITLE)


if filled:
    chart(draw)
"""

FREQUENCY = """
TOP = 10
frequencies = []
for column in [c for c in __CATEGORICAL__ if c in data.columns]:
    counts = labelled(data[column]).dropna().astype(str).value_counts()
    missing = int(data[column].isna().sum())
    print(f"--- {column} (__L_DISTINCT__: {counts.size:,}, __L_MISSING__: {missing:,})")
    print(counts.head(TOP).to_string())
    frequencies.append(
        {
            "column": str(column),
            "distinct": int(counts.size),
            "missing": missing,
            "rows": int(len(data)),
            "top": [[str(k), int(v), num(v / max(len(data), 1) * 100)] for k, v in counts.head(TOP).items()],
        }
    )
result = {"columns": frequencies}


def draw():
    width = min(2, len(frequencies))
    height = -(-len(frequencies) // width)
    fig, axes = plt.subplots(height, width, figsize=(6 * width, 3.5 * height), squeeze=False)
    for ax, item in zip(axes.flat, frequencies):
        ax.barh([k for k, _, _ in item["top"]], [v for _, v, _ in item["top"]])
        ax.invert_yaxis()
        ax.set_title(item["column"])
    for ax in list(axes.flat)[len(frequencies):]:
        ax.set_visible(False)
    fig.suptitle(TITLE)


if frequencies:
    chart(draw)
"""

BREAKDOWN = """
BY, MEASURE = __BY__, __MEASURE__
frame = pd.DataFrame({"group": labelled(data[BY]), "value": to_num(data[MEASURE])}).dropna()
frame["group"] = frame["group"].astype(str)
table = frame.groupby("group")["value"].agg(["count", "sum", "mean", "median"])
table = table.sort_values("mean", ascending=False, kind="stable")
print(f"{MEASURE} / {BY}")
print(table.head(30).round(3).to_string())
records = table.head(30).reset_index().to_dict("records")
result = {
    "by": str(BY),
    "measure": str(MEASURE),
    "rows": int(len(frame)),
    "groups": int(len(table)),
    "total": num(frame["value"].sum()),
    "values": [
        {"group": str(r["group"]), "count": int(r["count"]), "sum": num(r["sum"]), "mean": num(r["mean"]),
         "median": num(r["median"])}
        for r in records
    ],
}


def draw():
    shown = table["mean"].head(30)
    fig, ax = plt.subplots(figsize=(8, max(3, 0.4 * len(shown) + 1)))
    ax.barh(list(shown.index), shown.to_numpy())
    ax.invert_yaxis()
    ax.set_xlabel(f"{MEASURE} (__L_MEAN__)")
    ax.set_title(TITLE)


if len(table):
    chart(draw)
"""

CORRELATION = """
values = pd.DataFrame({c: to_num(data[c]) for c in __NUMERIC__ if c in data.columns})
values = values.loc[:, (values.notna().sum() >= 3) & (values.nunique() > 1)]
pearson = values.corr(method="pearson")
spearman = values.corr(method="spearman")
names = [str(c) for c in values.columns]
first, second = np.triu_indices(len(names), k=1)
pairs = [
    {
        "a": names[i],
        "b": names[j],
        "pearson": num(pearson.iloc[i, j]),
        "spearman": num(spearman.iloc[i, j]),
        "n": int(values.iloc[:, [i, j]].dropna().shape[0]),
    }
    for i, j in zip(first.tolist(), second.tolist())
]
pairs = sorted([p for p in pairs if p["pearson"] is not None], key=lambda p: -abs(p["pearson"]))
print("Pearson")
print(pearson.round(3).to_string())
print("Spearman")
print(spearman.round(3).to_string())
result = {"columns": names, "pairs": pairs}


def draw():
    fig, ax = plt.subplots(figsize=(1.2 * len(names) + 3, 1.0 * len(names) + 2))
    image = ax.imshow(pearson.to_numpy(), vmin=-1, vmax=1, cmap="coolwarm")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    for (i, j), value in np.ndenumerate(pearson.to_numpy()):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=9)
    fig.colorbar(image, ax=ax)
    ax.set_title(TITLE)


if len(names) >= 2:
    chart(draw)
"""

OUTLIERS = """
values = pd.DataFrame({c: to_num(data[c]) for c in __NUMERIC__ if c in data.columns})
found = []
for column in values.columns:
    s = values[column].dropna()
    if s.empty:
        continue
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    outside = s[(s < low) | (s > high)]
    extreme = outside.loc[(outside - s.median()).abs().sort_values(ascending=False, kind="stable").index].head(5)
    print(f"{column}: __L_OUTLIERS__ {outside.size:,} / {s.size:,} (< {low:,.3f} | > {high:,.3f})")
    inside = s[(s >= low) & (s <= high)]
    found.append(
        {
            "column": str(column),
            "count": int(s.size),
            "outliers": int(outside.size),
            "mean": num(s.mean()),
            "mean_without": num(inside.mean()) if len(inside) else None,  # the statistic with and without them
            "pct": num(outside.size / s.size * 100),
            "low": num(low),
            "high": num(high),
            "examples": [num(v) for v in extreme.tolist()],
        }
    )
found.sort(key=lambda item: -item["outliers"])
result = {"columns": found}
shown = [item["column"] for item in found]


def draw():
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(shown) + 2), 4))
    ax.boxplot([values[c].dropna().to_numpy() for c in shown], whis=1.5)
    ax.set_xticks(range(1, len(shown) + 1))
    ax.set_xticklabels(shown)
    ax.set_title(TITLE)


if shown:
    chart(draw)
"""

TREND = """
DATE, MEASURE, RULE, STAT = __DATE__, __MEASURE__, __RULE__, __STAT__
FORMAT = {"h": "%Y-%m-%d %H:00", "D": "%Y-%m-%d", "W-MON": "%Y-%m-%d", "MS": "%Y-%m", "QS": "%Y-%m", "YS": "%Y"}[RULE]
dates = pd.to_datetime(data[DATE], errors="coerce")
if MEASURE is None:
    series = pd.Series(1, index=dates[dates.notna()]).resample(RULE).sum()
    series = series[series > 0]  # periods without rows are gaps, not zeros
    covered = dates[dates.notna()]
else:
    frame = pd.DataFrame({"date": dates, "value": to_num(data[MEASURE])}).dropna()
    periods = frame.set_index("date")["value"].resample(RULE)
    series = periods.agg(STAT)[periods.size() > 0]  # a sum over no rows is a gap, not a zero
    covered = frame["date"]
series = series.dropna()
labels = list(series.index.strftime(FORMAT))
__PERIODS_SOURCE__
# A first or last period the data cover only in part is marked, and left out of the change and the extremes.
head, tail = partial_ends(covered, RULE, len(series))
shares = period_coverage(covered, RULE)
partial = [labels[0]] * head + [labels[-1]] * tail
whole = series.iloc[int(head) : len(series) - int(tail)]
whole_labels = labels[int(head) : len(labels) - int(tail)]
print(f"{MEASURE or '__L_COUNT__'} ({STAT}, {RULE})")
print(pd.Series(series.to_numpy(), index=[l + (" *" if l in partial else "") for l in labels]).round(3).to_string())
if partial:
    print("* __L_PARTIAL__")
result = {"date": str(DATE), "measure": MEASURE, "rule": RULE, "stat": STAT, "periods": int(len(series))}
if partial:
    result["partial"] = [[labels[0], num(shares[0])]] * head + [[labels[-1], num(shares[1])]] * tail
if len(whole):
    first, last = float(whole.iloc[0]), float(whole.iloc[-1])
    result.update(
        {
            "first": [whole_labels[0], num(first)],
            "last": [whole_labels[-1], num(last)],
            "max": [whole.idxmax().strftime(FORMAT), num(whole.max())],
            "min": [whole.idxmin().strftime(FORMAT), num(whole.min())],
            "change_pct": num((last - first) / abs(first) * 100) if first and len(whole) > 1 else None,
            "points": [[label, num(value)] for label, value in zip(labels[-60:], series.to_numpy()[-60:])],
        }
    )


def draw():
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.plot(whole.index, whole.to_numpy(), marker="o", markersize=3)
    ends = series[[label in partial for label in labels]]
    if len(ends):  # drawn apart, hollow: a short period is not a fall or a rise
        ax.plot(ends.index, ends.to_numpy(), "o", markersize=6, markerfacecolor="white", label="__L_PARTIAL__")
        ax.legend(loc="best")
    ax.set_ylabel(MEASURE or "__L_COUNT__")
    ax.set_title(TITLE)
    fig.autofmt_xdate()


if len(series):
    chart(draw)
"""

TARGET = """
TARGET, TARGET_NUMERIC = __TARGET__, __TARGET_NUMERIC__
OTHER_NUMERIC = [c for c in __OTHER_NUMERIC__ if c in data.columns]
OTHER_CATEGORICAL = [c for c in __OTHER_CATEGORICAL__ if c in data.columns]
numeric, groups = [], []


def group_means(group, value, column):
    frame = pd.DataFrame({"group": group, "value": value}).dropna()
    frame["group"] = frame["group"].astype(str)
    means = frame.groupby("group")["value"].mean().sort_values(ascending=False, kind="stable")
    if len(means) >= 2:
        groups.append(
            {
                "column": str(column),
                "groups": int(len(means)),
                "top": [str(means.index[0]), num(means.iloc[0])],
                "bottom": [str(means.index[-1]), num(means.iloc[-1])],
                "gap": num(means.iloc[0] - means.iloc[-1]),
                "means": [[str(k), num(v)] for k, v in means.head(15).items()],
            }
        )


if TARGET_NUMERIC:
    y = to_num(data[TARGET])
    for column in OTHER_NUMERIC:
        pair = pd.DataFrame({"x": to_num(data[column]), "y": y}).dropna()
        if len(pair) >= 3 and pair["x"].nunique() > 1 and pair["y"].nunique() > 1:
            numeric.append(
                {
                    "column": str(column),
                    "pearson": num(pair["x"].corr(pair["y"])),
                    "spearman": num(pair["x"].corr(pair["y"], method="spearman")),
                    "n": int(len(pair)),
                }
            )
    for column in OTHER_CATEGORICAL:
        group_means(labelled(data[column]), y, column)
else:
    for column in OTHER_NUMERIC:
        group_means(labelled(data[TARGET]), to_num(data[column]), column)
numeric.sort(key=lambda item: -abs(item["pearson"] or 0))
if TARGET_NUMERIC:
    groups.sort(key=lambda item: -(item["gap"] or 0))
for item in numeric:
    print(f"{TARGET} ~ {item['column']}: r = {item['pearson']:.3f}, rho = {item['spearman']:.3f} (n = {item['n']:,})")
for item in groups:
    (top, high), (bottom, low) = item["top"], item["bottom"]
    print(f"{item['column']}: {top} = {high:,.3f} / {bottom} = {low:,.3f}")
result = {"target": str(TARGET), "target_numeric": TARGET_NUMERIC, "numeric": numeric, "categorical": groups}


def draw():
    fig, ax = plt.subplots(figsize=(8, 4))
    if numeric:
        ax.barh([item["column"] for item in numeric], [item["pearson"] for item in numeric])
        ax.set_xlim(-1, 1)
        ax.set_xlabel(f"__L_CORR__ ({TARGET})")
    else:
        means = groups[0]["means"]
        ax.barh([k for k, _ in means], [v for _, v in means])
        ax.set_xlabel(f"{TARGET if TARGET_NUMERIC else groups[0]['column']} (__L_MEAN__)")
    ax.invert_yaxis()
    ax.set_title(TITLE)


if numeric or groups:
    chart(draw)
"""

PAIR = """
A, B = __A__, __B__
pair = pd.DataFrame({"a": to_num(data[A]), "b": to_num(data[B])}).dropna()
pearson = pair["a"].corr(pair["b"]) if len(pair) >= 3 else float("nan")
spearman = pair["a"].corr(pair["b"], method="spearman") if len(pair) >= 3 else float("nan")
print(f"{A} ~ {B}: r = {pearson:.3f}, rho = {spearman:.3f} (n = {len(pair):,})")
result = {"a": str(A), "b": str(B), "n": int(len(pair)), "pearson": num(pearson), "spearman": num(spearman)}


def draw():
    shown = pair.sample(min(len(pair), 5000), random_state=0)
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.scatter(shown["a"], shown["b"], s=10, alpha=0.6)
    ax.set_xlabel(str(A))
    ax.set_ylabel(str(B))
    ax.set_title(TITLE)


if len(pair):
    chart(draw)
"""

CROSSTAB = """
A, B = __A__, __B__
frame = pd.DataFrame({A: labelled(data[A]), B: labelled(data[B])}).dropna().astype(str)
table = pd.crosstab(frame[A], frame[B])
cells = table.stack().sort_values(ascending=False, kind="stable")
print(table.iloc[:20, :20].to_string())
result = {
    "a": str(A),
    "b": str(B),
    "rows": int(len(frame)),
    "shape": [int(table.shape[0]), int(table.shape[1])],
    "cells": [[str(a), str(b), int(v)] for (a, b), v in cells.head(10).items()],
}


def draw():
    shown = table.iloc[:20, :20]
    fig, ax = plt.subplots(figsize=(0.6 * shown.shape[1] + 4, 0.4 * shown.shape[0] + 2))
    image = ax.imshow(shown.to_numpy(), cmap="Blues")
    ax.set_xticks(range(shown.shape[1]))
    ax.set_xticklabels([str(c) for c in shown.columns], rotation=45, ha="right")
    ax.set_yticks(range(shown.shape[0]))
    ax.set_yticklabels([str(r) for r in shown.index])
    fig.colorbar(image, ax=ax)
    ax.set_title(TITLE)


if table.size:
    chart(draw)
"""

OVERVIEW = """
summary = pd.DataFrame({"dtype": data.dtypes.astype(str), "non_null": data.notna().sum(), "distinct": data.nunique()})
print(f"__L_ROWS__: {len(data):,}")
print(summary.to_string())
result = {
    "rows": int(len(data)),
    "columns": [
        {"column": str(c), "dtype": str(summary.loc[c, "dtype"]), "non_null": int(summary.loc[c, "non_null"]),
         "distinct": int(summary.loc[c, "distinct"])}
        for c in summary.index
    ],
}
"""

LABELS: dict[Language, dict[str, str]] = {
    "ja": {
        "__L_ROWS__": "行数",
        "__L_INCOMPLETE__": "欠損を含む行",
        "__L_MISSING_PCT__": "欠損率 (%)",
        "__L_MISSING__": "欠損数",
        "__L_NOTHING__": "数値として読める列がありません",
        "__L_DISTINCT__": "種類数",
        "__L_OUTLIERS__": "外れ値",
        "__L_MEAN__": "平均",
        "__L_CORR__": "相関係数",
        "__L_COUNT__": "件数",
        "__L_PARTIAL__": "一部の期間だけのデータ（変化の比較から除外）",
        "__L_LANG__": "ja",
        "__L_YES__": "あり",
        "__L_LOG__": "対数軸",
        "__L_NO__": "なし",
    },
    "en": {
        "__L_ROWS__": "rows",
        "__L_INCOMPLETE__": "rows with missing values",
        "__L_MISSING_PCT__": "missing (%)",
        "__L_MISSING__": "missing",
        "__L_NOTHING__": "no column could be read as numbers",
        "__L_DISTINCT__": "distinct",
        "__L_OUTLIERS__": "outliers",
        "__L_MEAN__": "mean",
        "__L_CORR__": "correlation",
        "__L_COUNT__": "rows",
        "__L_PARTIAL__": "partial period (left out of the change)",
        "__L_LANG__": "en",
        "__L_YES__": "yes",
        "__L_LOG__": "log scale",
        "__L_NO__": "no",
    },
}


def labels(language: Language) -> dict[str, str]:
    return LABELS[language]
