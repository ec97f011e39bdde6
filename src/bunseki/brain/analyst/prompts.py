"""The analyst's prompts for the three roles (reason, code generation, report), built from a view.

A model sees the table only through `DataFrameInfo.to_prompt` (bounded, at most three sample
rows) and earlier runs only as compact summaries, so a prompt stays small however large the
data or long the analysis. The instructions are in English, which models follow best; the
language rule makes every answer come back in the person's language.
"""

from __future__ import annotations

import json
import re

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from bunseki.brain.analyst.contract import AnalystView, ExecutionRecord
from bunseki.brain.language import LANGUAGE_RULES, OTHER_LATIN, foreign_language
from bunseki.domain import TableResult
from bunseki.tools import describe_tools

OUTPUT_CHARS = 600  # of a run's printed output, for deciding and for writing code
REPORT_OUTPUT_CHARS = 2000  # the report quotes numbers, so it sees more of each output
ERROR_CHARS = 400
TURN_CHARS = 600
TABLE_ROWS = 20
TABLE_CHARS = 1500
ANSWER_FORMAT = re.compile(r"@([A-Za-z_]\w*)\[[^\]\n]*\]")

SYSTEM_PROMPT = """\
You are Bunseki, a careful data analyst working with a person on one table. The table is \
loaded as the pandas DataFrame `df` in a sandbox where Python code runs. You see only a \
summary of it: facts about the data come from running code, never from guessing. Every \
number you state must come from the output of code that ran."""

REASON_TASK = """\
Choose the next action:
- "ask": information the analysis needs is missing (which column, granularity, metric) and \
cannot reasonably be assumed. Write `question`: one short question that proposes the most \
likely answer, so the person can simply confirm it.
- "act": write `instruction`: one concrete analysis step (columns, grouping, statistic, chart) \
that can be done in a single run of code. After a failed run, change the instruction to fix \
or avoid the error (check column names, convert types, filter, sample).
- "finalize": the results above answer the request; the report is written from them next.
Prefer stating an `assumption` over asking when the request is only slightly ambiguous. Do not \
repeat a step that already succeeded. Give a one- or two-sentence `rationale`."""

TOOL_TASK = """When the person asks to change the data itself (keep only some rows, sort, aggregate, pivot, \
transform or add a column, go back to the original data), act with a data tool instead of code: \
set `tool` to its name and `tool_arguments` to a JSON object of its arguments. The change is \
recorded as a step and every later step sees the changed data. `reset_data` (no arguments) \
returns to the original data. Code only reads the data; it cannot change the active data."""

CODE_RULES = """\
- `df` is already loaded (a pandas DataFrame); do not read the data file again.
- Use only pandas, numpy, scipy, scikit-learn (sklearn), matplotlib and seaborn.
- No network access and no subprocesses. Read and write files only in the current directory \
(the workspace), with relative paths.
- Save each chart with plt.savefig("descriptive_name.png", dpi=150, bbox_inches="tight") \
(a relative file name, no directories), then plt.close(). Never call plt.show().
- Japanese text renders correctly in charts; do not change the font.
- print() every number the answer needs, with a label (e.g. print(f"mean sales: {value:.2f}")): \
the report may only use numbers that were printed.
- Write self-contained code that starts from `df`; do not rely on variables from earlier runs.
- List in `expected_outputs` each file the code saves: file_name exactly as saved, a \
description, and output_type "figure" or "table"."""

REPORT_TASK = """\
Write the report from the results above:
- `title`: short.
- `conclusion`: answer the request directly in one to three sentences, with its key numbers. \
Use only numbers that appear in the outputs above, as printed; never invent or estimate one. \
If the results do not answer the request, say so plainly and what is missing.
- `sections`: the evidence, in a sensible order. "text": Markdown explaining a result. \
"image": `content` is a file path exactly as listed under Files. "table": `content` is a \
JSON array of records taken from the outputs, e.g. [{"region": "Tokyo", "sales": 1200}].
- `suggestions`: up to three further analyses worth doing, or null.
- `assumptions`: the assumptions the analysis made (listed above), if any."""


def reason_messages(view: AnalystView) -> list[BaseMessage]:
    """``reason``: interpret the request and the results so far; ask, act or finalize."""
    tools = view.tools
    parts = [
        _section("Data", _data(view)),
        _section("Active data", view.data_state or "") if view.data_state else "",
        _section("Data tools", describe_tools(view.language) + "\n- reset_data: back to the original data.")
        if tools
        else "",
        _section("Conversation so far", _history(view)),
        _section("Request", view.question),
        _section("Results so far", _runs(view, OUTPUT_CHARS)),
        _section("Assumptions so far", _bullets(view.assumptions)),
        _section(
            "Task",
            "\n".join(filter(None, [REASON_TASK, TOOL_TASK if tools else "", _budget(view), _answer_format(view)])),
        ),
    ]
    return _messages(view, parts)


def code_messages(view: AnalystView) -> list[BaseMessage]:
    """``code_exec``: Python for ``view.instruction``, to run on ``df`` in the sandbox."""
    parts = [
        _section("Data (`df`)", _data(view)),
        _section("Active data", view.data_state or "") if view.data_state else "",
        _section("Instruction", view.instruction or view.question),
        _section("The person's request, for context", view.question) if view.instruction else "",
        _section("Earlier runs", _runs(view, OUTPUT_CHARS, code_of_failed_last=True)),
        _section("Rules", "\n".join(filter(None, [CODE_RULES, _answer_format(view)]))),
    ]
    return _messages(view, parts)


def report_messages(view: AnalystView) -> list[BaseMessage]:
    """``report``: the conclusion and its evidence, from the executions only."""
    parts = [
        _section("Request", view.question),
        _section("Conversation so far", _history(view)),
        _section("Data", _data(view)),
        _section("Results (output of the code that ran)", _runs(view, REPORT_OUTPUT_CHARS, tables=True)),
        _section("Assumptions", _bullets(view.assumptions)),
        _section("Task", "\n".join(filter(None, [REPORT_TASK, _answer_format(view, report=True)]))),
    ]
    return _messages(view, parts)


def answer_format_names(question: str) -> list[str]:
    """The names of ``@name[value]`` answer slots the question asks for, in order."""
    return list(dict.fromkeys(ANSWER_FORMAT.findall(question)))


def _messages(view: AnalystView, parts: list[str]) -> list[BaseMessage]:
    rule = _language_rule(view)
    body = "\n\n".join(filter(None, [*parts, rule]))
    return [SystemMessage(f"{SYSTEM_PROMPT}\n\n{rule}"), HumanMessage(body)]


def _section(title: str, body: str) -> str:
    return f"## {title}\n{body.strip() or '(none)'}"


def _data(view: AnalystView) -> str:
    return view.data.to_prompt() if view.data else "No table is loaded."


def _history(view: AnalystView) -> str:
    speaker = {"user": "Person", "assistant": "Assistant"}
    return "\n".join(f"{speaker[turn.role]}: {_clip(turn.content, TURN_CHARS)}" for turn in view.history)


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _budget(view: AnalystView) -> str:
    used = f"Runs used: {view.loop_count} of {view.max_loops}."
    if view.loop_count >= view.max_loops:
        return f'{used} No runs are left: you must choose "finalize" now; the report says what is still open.'
    if view.loop_count == view.max_loops - 1:
        return f"{used} This is the last run: after it you must finalize, so make it count."
    return used


def _answer_format(view: AnalystView, *, report: bool = False) -> str:
    names = answer_format_names(view.question)
    if not names:
        return ""
    slots = ", ".join(f"@{name}[…]" for name in names)
    if report:
        return (
            f"The request asks for answers in the form {slots}. The conclusion must contain each of "
            "them exactly in that form (@name[value]), with the value from the outputs above."
        )
    return f"The request asks for answers in the form {slots}: make sure the code prints each value."


def _runs(view: AnalystView, output_chars: int, *, tables: bool = False, code_of_failed_last: bool = False) -> str:
    blocks = [_run(number, record, output_chars, tables) for number, record in enumerate(view.executions, 1)]
    last = view.last_execution
    if code_of_failed_last and last is not None and not last.success and last.code:
        blocks.append(f"Code of the failed run {len(view.executions)}:\n```python\n{last.code.strip()}\n```")
    return "\n\n".join(blocks) or "None yet."


def _run(number: int, record: ExecutionRecord, output_chars: int, tables: bool) -> str:
    lines = [f"### Run {number} ({'succeeded' if record.success else 'failed'})"]
    if record.instruction:
        lines.append(f"Instruction: {record.instruction}")
    if record.tool:
        lines.append(f"Data tool: {record.code}")
    if record.stdout.strip():
        lines.append(f"Output:\n```\n{_clip(record.stdout.strip(), output_chars)}\n```")
    if record.error:
        lines.append(f"Error: {_clip(record.error.strip(), ERROR_CHARS)}")
    if record.limit:
        lines.append(f"Limit reached: {record.limit}")
    if record.artifacts:
        lines.append("Files: " + ", ".join(_file(path, record) for path in record.artifacts))
    if tables:
        lines += [f"Table (JSON records): {_table_json(table)}" for table in record.tables]
    return "\n".join(lines)


def _file(path: str, record: ExecutionRecord) -> str:
    """The path as produced, with the description the code writer announced for it, if any."""
    name = path.rsplit("/", 1)[-1]
    described = next((output.description for output in record.outputs if output.file_name == name), None)
    return f"{path} ({described})" if described else path


def _table_json(table: TableResult) -> str:
    records = [dict(zip(table.columns, row, strict=False)) for row in table.rows[:TABLE_ROWS]]
    text = json.dumps(records, ensure_ascii=False, default=str)
    shown = f" (first {len(records)} of {table.shape[0]} rows)" if table.shape[0] > len(records) else ""
    return _clip(text, TABLE_CHARS) + shown


def _clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, keeping its start and its end (totals often come last)."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]}\n… ({len(text) - head - tail:,} characters omitted) …\n{text[-tail:]}"


def _language_rule(view: AnalystView) -> str:
    """A model can write any language: a question in Chinese (or French…) is answered in it."""
    other = foreign_language(view.question)
    if other is None:
        return LANGUAGE_RULES[view.language]
    if other == OTHER_LATIN:
        return (
            "The person writes neither Japanese nor English. Write everything they will read (questions, "
            "instructions, rationale, report, chart titles and labels) in the language of their question."
        )
    return (
        f"The person writes in {other}. Write everything they will read (questions, instructions, "
        f"rationale, report, chart titles and labels) in {other}."
    )
