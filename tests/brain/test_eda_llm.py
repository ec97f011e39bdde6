"""LLMEdaBrain over a scripted fake model: prompts carry the profile, feedback and errors; forced fields are forced."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bunseki.brain.eda.contract import EdaBrain, EdaView, PlanRevision, StepCode
from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.data.profile import profile_table
from bunseki.domain import Finding, PlanStep, ReportOutput, ReportSection, StepOutcome
from bunseki.errors import ModelOutputError
from tests.fakes.chat import scripted, tool_call, tool_reply

FRAME = pd.DataFrame(
    {
        "地域": ["東京", "大阪", "福岡"] * 10,
        "売上": np.arange(30.0) * 10,
        "数量": np.arange(30.0) % 7,
        "日付": pd.date_range("2024-01-01", periods=30, freq="D"),
    }
)
PROFILE = profile_table(FRAME)
STEP = PlanStep(id=2, title="地域別の売上", kind="categorical", columns=["地域", "売上"], rationale="差を見る")
PLAN = [PlanStep(id=1, title="分布", kind="distribution", columns=["売上"], rationale="r"), STEP]


def view(**changes: object) -> EdaView:
    return EdaView(profile=PROFILE, source="sales.csv", goal="売上の要因", problems=["売上に負の値"]).model_copy(
        update=changes
    )


def prompt_text(model: object) -> str:
    return "\n".join(str(m.content) for m in model.received[-1])  # type: ignore[attr-defined]


def test_is_an_eda_brain() -> None:
    brain = LLMEdaBrain(scripted(), name="fake")
    assert isinstance(brain, EdaBrain) and brain.name == "fake"


def test_plan_prompt_has_the_profile_goal_and_problems_and_ids_are_renumbered() -> None:
    answer = PlanRevision(plan=[STEP.model_copy(update={"id": 7}), PLAN[0].model_copy(update={"id": 7})])
    model = scripted(tool_reply(answer))
    revision = LLMEdaBrain(model, name="fake").plan(view())
    assert [s.id for s in revision.plan] == [1, 2]
    text = prompt_text(model)
    assert '"name":"売上"' in text and '"kind":"datetime"' in text and '"pearson"' in text
    assert "売上の要因" in text and "売上に負の値" in text
    assert "日本語" in text


def test_revision_prompt_has_the_plan_and_feedback_and_new_analyses_only_at_results() -> None:
    answer = PlanRevision(plan=[*PLAN, STEP], new_analyses=True)
    model = scripted(tool_reply(answer), tool_reply(answer))
    brain = LLMEdaBrain(model, name="fake")
    at_plan = brain.plan(view(plan=PLAN, feedback="数量の分布も追加して", review="plan"))
    text = prompt_text(model)
    assert "数量の分布も追加して" in text and "地域別の売上" in text and "Current plan" in text
    assert not at_plan.new_analyses
    at_results = brain.plan(view(plan=PLAN, feedback="数量の分布も追加して", review="results"))
    assert at_results.new_analyses


def test_not_understood_keeps_the_plan_whatever_the_model_sent() -> None:
    answer = PlanRevision(plan=[STEP], understood=False, note="顧客満足度という列はありません")
    revision = LLMEdaBrain(scripted(tool_reply(answer)), name="fake").plan(view(plan=PLAN, feedback="顧客満足度を見て"))
    assert not revision.understood and revision.plan == PLAN and "顧客満足度" in (revision.note or "")


def test_code_prompt_has_the_step_conventions_and_previous_error() -> None:
    answer = StepCode(code="print(1)", charts=["eda_2_categorical.png"])
    model = scripted(tool_reply(answer), tool_reply(answer))
    brain = LLMEdaBrain(model, name="fake")
    assert brain.write_step_code(view(language="en"), STEP) == answer
    first = prompt_text(model)
    assert "地域別の売上" in first and "BUNSEKI_RESULT " in first and "`df` is already loaded" in first
    assert "savefig" in first and "previous attempt" not in first
    brain.write_step_code(view(language="en"), STEP, "KeyError: '売上高'")
    assert "KeyError: '売上高'" in prompt_text(model) and "previous attempt failed" in prompt_text(model)


def test_finding_forces_step_id_artifacts_and_failure_from_the_outcome() -> None:
    answer = Finding(step_id=99, title="地域差", text="東京が最大で 1,234。", artifacts=["made_up.png"], success=True)
    no_numbers = answer.model_copy(update={"text": "実行に失敗した。"})  # a failed step printed nothing to quote
    model = scripted(tool_reply(answer), tool_reply(no_numbers))
    brain = LLMEdaBrain(model, name="fake")
    outcome = StepOutcome(
        step_id=2, code="x", success=True, stdout="東京 1,234\nBUNSEKI_RESULT {}", artifacts=["eda_2_categorical.png"]
    )
    finding = brain.find(view(), STEP, outcome)
    assert (finding.step_id, finding.artifacts, finding.success) == (2, ["eda_2_categorical.png"], True)
    assert "東京 1,234" in prompt_text(model) and "eda_2_categorical.png" in prompt_text(model)
    failed = brain.find(view(), STEP, StepOutcome(step_id=2, code="x", success=False, error="ZeroDivisionError"))
    assert not failed.success and failed.artifacts == []
    assert "ZeroDivisionError" in prompt_text(model)


def test_a_finding_with_a_number_the_step_did_not_print_is_sent_back() -> None:
    invented = Finding(step_id=2, title="地域差", text="東京が最大で 9,999。")
    fixed = invented.model_copy(update={"text": "東京が最大で 1,234。"})
    model = scripted(tool_reply(invented), tool_reply(fixed))
    outcome = StepOutcome(step_id=2, code="x", success=True, stdout="東京 1234")
    finding = LLMEdaBrain(model, name="fake").find(view(), STEP, outcome)
    assert finding.text == fixed.text
    assert "9999" in str(model.received[1][-1].content)


def test_report_forces_the_language_and_sees_the_findings() -> None:
    answer = ReportOutput(
        title="EDA",
        conclusion="東京が最大。",
        sections=[ReportSection(section_type="text", content="東京が最大。")],
        language="en",
    )
    model = scripted(tool_reply(answer))
    finding = Finding(step_id=2, title="地域差", text="東京が最大で 1,234。", artifacts=["eda_2_categorical.png"])
    report = LLMEdaBrain(model, name="fake").write_report(view(findings=[finding]))
    assert report.language == "ja"
    text = prompt_text(model)
    assert "東京が最大で 1,234。" in text and "eda_2_categorical.png" in text


def test_an_invalid_answer_is_asked_again_then_fails() -> None:
    bad = tool_call("StepCode", {"charts": []})
    model = scripted(bad, tool_reply(StepCode(code="print(2)")))
    assert LLMEdaBrain(model, name="fake").write_step_code(view(), STEP).code == "print(2)"
    assert "could not be used as StepCode" in prompt_text(model)
    with pytest.raises(ModelOutputError):
        LLMEdaBrain(scripted(bad, bad), name="fake").write_step_code(view(), STEP)
