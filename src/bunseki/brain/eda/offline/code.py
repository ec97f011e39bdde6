"""pandas and matplotlib code for one plan step, run in the sandbox with ``df`` already defined.

Each step's code coerces what it reads (numbers with ``pd.to_numeric(errors="coerce")``, dates
with ``pd.to_datetime``), drops what cannot be read, prints its numbers for a person and one
``BUNSEKI_RESULT {json}`` line for the findings, and saves at most one chart,
``eda_<id>_<kind>.png``, in the current directory. A retry after an error is more defensive:
stricter coercion (thousands separators, currency signs, infinities), at most three columns,
and a chart that may fail without losing the numbers.
"""

from __future__ import annotations

from bunseki.brain.eda.contract import EdaView, StepCode
from bunseki.brain.eda.offline import templates
from bunseki.brain.eda.offline.columns import ADDITIVE, MAX_LISTED, Kinds
from bunseki.brain.eda.offline.plan import trend_rule
from bunseki.brain.results import RESULT_MARKER
from bunseki.data import periods
from bunseki.domain import PlanStep
from bunseki.report import ticks

RETRY_COLUMNS = 3
ERROR_CHARS = 160


def chart_name(step: PlanStep) -> str:
    return f"eda_{step.id}_{step.kind}.png"


def write(view: EdaView, step: PlanStep, error: str | None = None) -> StepCode:
    retry = error is not None
    limit = RETRY_COLUMNS if retry else MAX_LISTED
    columns = step.columns if step.kind in ("missing", "trend") else step.columns[: limit + (step.kind == "target")]
    body, mode = _body(view, step, columns)
    header = [f"# {step.id}. {step.title}"]
    if error is not None:
        first = (error.strip().splitlines() or [""])[-1][:ERROR_CHARS]
        header.append(f"# retry: stricter coercion, at most {RETRY_COLUMNS} columns, chart optional ({first})")
    substitutions = {
        "__COLUMNS__": repr(columns),
        "__CHART__": repr(chart_name(step)),
        "__TITLE__": repr(step.title),
        "__MODE__": repr(mode),
        "__STEP__": repr(step.id),
        "__KIND__": repr(step.kind),
    }
    prelude = templates.PRELUDE.replace("__TICKS_SOURCE__", ticks.SOURCE)
    prelude += templates.RETRY_HELPERS if retry else templates.HELPERS
    code = "\n".join(header) + "\n" + prelude + body + templates.RESULT.replace("__MARKER__", repr(RESULT_MARKER))
    for token, value in substitutions.items():
        code = code.replace(token, value)
    for token, value in templates.labels(view.language).items():
        code = code.replace(token, value)
    return StepCode(code=code, charts=[] if mode == "overview" else [chart_name(step)])


def _body(view: EdaView, step: PlanStep, columns: list[str]) -> tuple[str, str]:
    """The template for the step's kind, with its columns' roles filled in, and its mode."""
    kinds = Kinds.of(view.profile)
    numeric = [c for c in columns if c in kinds.numeric]
    categorical = [c for c in columns if c in kinds.categorical]
    dates = [c for c in columns if c in kinds.datetime]
    if step.kind == "missing":
        return templates.MISSING, "missing"
    if step.kind == "distribution":
        return templates.DISTRIBUTION.replace("__NUMERIC__", repr(numeric or columns)), "distribution"
    if step.kind == "correlation":
        return templates.CORRELATION.replace("__NUMERIC__", repr(numeric or columns)), "correlation"
    if step.kind == "outliers":
        return templates.OUTLIERS.replace("__NUMERIC__", repr(numeric or columns)), "outliers"
    if step.kind == "trend" or (step.kind == "custom" and dates and (numeric or len(columns) == 1)):
        date = (dates or columns)[0]
        measure = next((c for c in columns if c != date and c in kinds.numeric), None)
        stat = "sum" if measure is None or ADDITIVE.search(measure) else "mean"
        body = templates.TREND.replace("__DATE__", repr(date)).replace("__MEASURE__", repr(measure))
        body = body.replace("__PERIODS_SOURCE__", periods.SOURCE)
        return body.replace("__RULE__", repr(trend_rule(view.profile, date))).replace("__STAT__", repr(stat)), "trend"
    if step.kind == "target" and columns:
        target, others = columns[0], columns[1:]
        body = templates.TARGET.replace("__TARGET__", repr(target)).replace(
            "__TARGET_NUMERIC__", repr(target in kinds.numeric)
        )
        body = body.replace("__OTHER_NUMERIC__", repr([c for c in others if c in kinds.numeric]))
        return body.replace("__OTHER_CATEGORICAL__", repr([c for c in others if c in kinds.categorical])), "target"
    if numeric and categorical:
        body = templates.BREAKDOWN.replace("__BY__", repr(categorical[0])).replace("__MEASURE__", repr(numeric[0]))
        return body, "breakdown"
    if step.kind == "custom" and len(numeric) >= 2:
        return templates.PAIR.replace("__A__", repr(numeric[0])).replace("__B__", repr(numeric[1])), "pair"
    if step.kind == "custom" and len(categorical) >= 2:
        body = templates.CROSSTAB.replace("__A__", repr(categorical[0])).replace("__B__", repr(categorical[1]))
        return body, "crosstab"
    if step.kind == "categorical":
        return templates.FREQUENCY.replace("__CATEGORICAL__", repr(categorical or columns)), "frequency"
    return templates.OVERVIEW, "overview"
