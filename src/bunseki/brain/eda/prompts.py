"""Prompts for the EDA pipeline's four judgements (plan, step code, findings, report), from an `EdaView`.

A model sees the table only as a compact JSON profile (columns, kinds, statistics, the strongest
correlations), so a prompt stays small however large the table. Instructions are in English;
the language rule makes every answer come back in the person's language.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from bunseki.brain.eda.contract import EdaView
from bunseki.brain.language import LANGUAGE_RULES
from bunseki.brain.results import RESULT_MARKER
from bunseki.data.profile import ColumnProfile, TableProfile
from bunseki.domain import Language, PlanStep, StepOutcome

OUTPUT_CHARS = 3000  # of a step's printed output, for its findings
ERROR_CHARS = 1200
CORRELATIONS = 10
TOP_VALUES = 3

SYSTEM_PROMPT = """\
You are Bunseki's exploratory data analyst. The table is loaded as the pandas DataFrame `df` in \
a sandbox where Python code runs; you see only its profile. Every number you state must come \
from the output of code that ran, never from guessing."""

PLAN_TASK = """\
Plan the exploratory analysis as 4 to 8 steps. Each step: `id` (1, 2, 3 … in order), `title`, \
`kind` (missing, distribution, categorical, correlation, outliers, trend, target, custom), \
`columns` (exact column names from the profile; never identifier columns) and `rationale` (why, \
for this table and goal). Include missing values only if there are any, correlations only with \
two or more numeric columns, a trend only with a date column, and a target step when the goal \
names a column. Set `understood` true and `new_analyses` false."""

REVISE_TASK = """\
Revise the current plan according to the feedback: add, remove, reorder or change steps as \
asked, keep the rest, and renumber the ids 1, 2, 3 …. Use exact column names from the profile. \
If the feedback cannot be applied (a column that does not exist, an unclear request), return the \
current plan unchanged with `understood` false and a `note` saying precisely what you could not \
understand and what you can do; never guess. Otherwise set `note` to a one-line summary of the \
change. Set `new_analyses` true only when the feedback came at the results review and adds steps."""

CODE_RULES = f"""\
- `df` is already loaded (a pandas DataFrame); do not read any file.
- Import what you use (pandas, numpy, matplotlib; seaborn if needed). Use matplotlib's Agg backend.
- Coerce what you read: pd.to_numeric(errors="coerce"), pd.to_datetime(errors="coerce"), then dropna.
- Never loop over rows in Python; use vectorised pandas.
- Save each chart in the current directory with plt.savefig("eda_<step id>_<slug>.png", dpi=110) \
and close it; never call plt.show(). List the file names in `charts`. A Japanese font is \
already the default, so Japanese labels need nothing more.
- print() the key numbers with labels, then one line: print("{RESULT_MARKER}" + json.dumps(result, \
ensure_ascii=False)) with the machine-readable numbers the findings will quote."""

FINDINGS_TASK = """\
Write the finding of this step: `title` (short) and `text` (a few sentences on what the output \
shows). Use only numbers that appear in the output above, exactly as printed; never compute, \
round differently or invent a number. If the step failed, set `success` false and say what failed."""

REPORT_TASK = """\
Write the EDA report from the findings above: `title`; `conclusion` (the main findings in two to \
four sentences, with their numbers as stated in the findings); `sections`: a "text" section per \
finding (Markdown) and an "image" section for each chart, `content` exactly the chart path listed; \
`suggestions`: up to three further analyses. Use no number that is not in the findings."""


def plan_messages(view: EdaView) -> list[BaseMessage]:
    revising = bool(view.feedback)
    parts = [
        _section("Data", f"Source: {view.source}\n{profile_json(view.profile)}"),
        _section("Validation problems", _bullets(view.problems)),
        _section("Goal", view.goal or "(none given: a general exploration)"),
    ]
    if revising:
        parts += [
            _section("Current plan", plan_json(view.plan)),
            _section(f"Feedback (at the {view.review or 'plan'} review)", view.feedback or ""),
            _section("Task", REVISE_TASK),
        ]
    else:
        parts.append(_section("Task", PLAN_TASK))
    return _messages(view.language, parts)


def code_messages(view: EdaView, step: PlanStep, error: str | None) -> list[BaseMessage]:
    parts = [
        _section("Data (`df`)", profile_json(view.profile)),
        _section("Step", plan_json([step])),
        _section("Goal", view.goal or "(none)"),
    ]
    if error:
        parts.append(_section("The previous attempt failed with", _clip(error, ERROR_CHARS)))
        parts.append("Write a more defensive version that avoids this error.")
    parts.append(_section("Rules", CODE_RULES))
    return _messages(view.language, parts)


def finding_messages(view: EdaView, step: PlanStep, outcome: StepOutcome) -> list[BaseMessage]:
    lines = [f"Succeeded: {outcome.success} (attempts: {outcome.attempts})"]
    if outcome.stdout.strip():
        lines.append(f"Output:\n```\n{_clip(outcome.stdout.strip(), OUTPUT_CHARS)}\n```")
    if outcome.error:
        lines.append(f"Error: {_clip(outcome.error, ERROR_CHARS)}")
    if outcome.artifacts:
        lines.append("Charts: " + ", ".join(outcome.artifacts))
    parts = [
        _section("Step", plan_json([step])),
        _section("What running its code gave", "\n".join(lines)),
        _section("Task", FINDINGS_TASK),
    ]
    return _messages(view.language, parts)


def report_messages(view: EdaView) -> list[BaseMessage]:
    findings = [
        f"### {f.step_id}. {f.title} ({'ok' if f.success else 'failed'})\n{f.text}"
        + (f"\nCharts: {', '.join(f.artifacts)}" if f.artifacts else "")
        for f in view.findings
    ]
    parts = [
        _section("Data", f"Source: {view.source}, {view.profile.rows:,} rows, {len(view.profile.columns)} columns"),
        _section("Goal", view.goal or "(none)"),
        _section("Validation problems", _bullets(view.problems)),
        _section("Findings", "\n\n".join(findings)),
        _section("Task", REPORT_TASK),
    ]
    return _messages(view.language, parts)


def profile_json(profile: TableProfile) -> str:
    """The profile as compact JSON: per column only the facts that are set."""
    data: dict[str, Any] = {
        "rows": profile.rows,
        "duplicates": profile.duplicates,
        "columns": [_column(c) for c in profile.columns],
        "correlations": [
            {"a": c.a, "b": c.b, "pearson": round(c.pearson, 3), "spearman": round(c.spearman, 3)}
            for c in profile.correlations[:CORRELATIONS]
        ],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def plan_json(plan: list[PlanStep]) -> str:
    return json.dumps([s.model_dump() for s in plan], ensure_ascii=False, indent=1) if plan else "(empty)"


def _column(column: ColumnProfile) -> dict[str, Any]:
    facts = column.model_dump(exclude_none=True, exclude={"top_values", "dtype"})
    facts = {k: round(v, 4) if isinstance(v, float) else v for k, v in facts.items()}
    if column.top_values and column.kind in ("categorical", "boolean", "text"):
        facts["top"] = [[t.value, t.count] for t in column.top_values[:TOP_VALUES]]
    return facts


def _messages(language: Language, parts: list[str]) -> list[BaseMessage]:
    rule = LANGUAGE_RULES[language]
    return [SystemMessage(f"{SYSTEM_PROMPT}\n\n{rule}"), HumanMessage("\n\n".join([*parts, rule]))]


def _section(title: str, body: str) -> str:
    return f"## {title}\n{body.strip() or '(none)'}"


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]}\n… ({len(text) - head - tail:,} characters omitted) …\n{text[-tail:]}"
