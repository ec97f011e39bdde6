"""One way to do each thing: one filter-to-pandas function, one number formatter, one text catalog.

Date windows are closed-open ``[start, end)`` wherever code is generated (the conversation, the
answer formats, period comparisons); ranges of numbers include both ends.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path
from typing import get_args

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns

from bunseki.brain.analyst.contract import ExecutionRecord
from bunseki.brain.analyst.offline import answer, catalog, codegen, measures, registry
from bunseki.brain.analyst.offline.filters import condition
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Filter, Method, Plan, Slot, Task
from bunseki.brain.analyst.offline.text import format_number
from bunseki.data.summary import summarize

# Rows on both sides of the January boundaries, late in the evening and at midnight.
EDGES = pd.DataFrame(
    {
        "when": pd.to_datetime(
            ["2023-12-31 23:30", "2024-01-01 00:00", "2024-01-15 12:00", "2024-01-31 23:30", "2024-02-01 00:00"]
        ),
        "amount": [1.0, 10.0, 100.0, 1000.0, 10000.0],
        "size": [5, 10, 15, 20, 25],
    }
)
JANUARY = Filter(column="when", op="between", value=["2024-01-01", "2024-02-01"], text="2024年1月")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def executed(code: str, frame: pd.DataFrame) -> tuple[dict[str, object], str]:
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(code, {"df": frame, "pd": pd, "np": np, "plt": plt, "sns": sns})
    record = ExecutionRecord(code=code, success=True, stdout=printed.getvalue())
    result = answer.result_of(record)
    assert result is not None
    return result, record.visible_stdout


def test_a_date_window_is_closed_open_and_a_number_range_closed() -> None:
    info = summarize(EDGES)
    january = EDGES[eval(condition(JANUARY, info, "EDGES"))]
    assert january["amount"].sum() == 10.0 + 100.0 + 1000.0  # midnight of Feb 1 out, 23:30 on Jan 31 in
    sizes = Filter(column="size", op="between", value=[10, 20])
    assert EDGES[eval(condition(sizes, info, "EDGES"))]["size"].tolist() == [10, 15, 20]


def test_the_conversation_and_the_answer_formats_cut_a_window_alike() -> None:
    info = summarize(EDGES)
    conversation = plan_question("2024年1月のamountの合計は？", info, "ja")
    assert isinstance(conversation, Plan)
    result, _ = executed(codegen.generate(conversation, info), EDGES)
    assert result["value"] == 1110.0
    slot = Slot(name="january_total", measure="sum", column="amount", filters=[JANUARY])
    formats = Plan(task="answers", language="en", slots=[slot], method=Method(ddof=1))
    answered, _ = executed(codegen.generate(formats, info), EDGES)
    assert answered["answers"] == {"january_total": "1110"}


@pytest.mark.parametrize(
    ("value", "decimals", "grouping", "shown"),
    [
        (1234567.0, None, True, "1,234,567"),
        (1234.5678, None, True, "1,234.57"),
        (1234.5, None, True, "1,234.5"),
        (0.000123456, None, True, "0.000123"),
        (1234.5678, 3, False, "1234.568"),
        (-2.0, None, True, "-2"),
    ],
)
def test_one_number_formatter(value: float, decimals: int | None, grouping: bool, shown: str) -> None:
    assert format_number(value, decimals, grouping) == shown


def test_the_code_and_the_report_write_a_number_the_same_way() -> None:
    frame = pd.DataFrame({"price": [1000.1234, 1469.0122]})
    info = summarize(frame)
    plan = plan_question("What is the mean price?", info, "en")
    assert isinstance(plan, Plan)
    result, printed = executed(codegen.generate(plan, info), frame)
    record = ExecutionRecord(code="", success=True, stdout=printed)
    conclusion = answer.build_report(plan, record, result, info).conclusion
    assert "1,234.57" in printed and "1,234.57" in conclusion


def test_every_task_is_one_unit_of_code_conclusion_and_description() -> None:
    """A task the plan can name has its code, its conclusion and its description, or the brain cannot answer it."""
    for task in get_args(Task):
        registered = registry.kind(task)  # raises when either half is missing
        assert registered.code is not None and registered.conclusion is not None
        assert codegen.describe(Plan(task=task, language="en", target="x", group_by="g"))


def test_a_task_without_its_conclusion_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry._REGISTERED["stat"], "conclusion", None)
    with pytest.raises(LookupError, match="conclusion"):
        registry.kind("stat")


def test_the_catalog_has_every_text_in_both_languages() -> None:
    for key, texts in catalog.TEXTS.items():
        assert set(texts) == {"ja", "en"}, key
        assert all(text.strip() for text in texts.values()), key
    assert catalog.say("corr_positive", "en", level="strong") == "there is a strong positive correlation"
    assert measures.strength(0.75) == "strong" and measures.strength(-0.05) == "none"


def test_the_question_is_read_once_and_the_plan_carried_to_code_and_report() -> None:
    """decide() hands its plan to the graph; write_code() uses the plan carried back, not a new reading."""
    from bunseki.brain.analyst.contract import AnalystView
    from bunseki.brain.analyst.offline import OfflineAnalystBrain

    info = summarize(EDGES)
    brain = OfflineAnalystBrain()
    view = AnalystView(question="amount の合計は？", language="ja", data=info)
    decision = brain.decide(view)
    assert decision.next_action == "act" and decision.plan is not None
    carried = Plan.model_validate(decision.plan["plan"])
    assert (carried.task, carried.target, carried.stat) == ("stat", "amount", "sum")
    # the same turn with the carried plan changed: the code follows the carried plan
    changed = {**decision.plan, "plan": carried.model_copy(update={"stat": "median"}).model_dump(mode="json")}
    code = brain.write_code(view.model_copy(update={"plan": changed})).code
    assert code.startswith("# amountの中央値") and "value = values.median()" in code
    # another question, or other data, is read afresh
    other = view.model_copy(update={"question": "amount の平均は？", "plan": changed})
    assert "value = values.mean()" in brain.write_code(other).code
    narrower = view.model_copy(update={"data": summarize(EDGES[["when", "amount"]]), "plan": changed})
    assert "value = values.sum()" in brain.write_code(narrower).code
