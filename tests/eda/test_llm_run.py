"""A whole EDA run driven by a chat model (scripted): planner, coder, findings and report calls, in order."""

from __future__ import annotations

from pathlib import Path

from bunseki.brain.eda.contract import PlanRevision, StepCode
from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.domain import Finding, PlanStep, ReportOutput, ReportSection
from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from tests.fakes.chat import scripted, tool_reply

PLAN = PlanRevision(
    plan=[PlanStep(id=1, title="売上の平均", kind="distribution", columns=["売上"], rationale="中心を見る")]
)
CODE = StepCode(
    code="import json\n"
    'print("BUNSEKI_RESULT " + json.dumps({"mean": float(df["売上"].mean())}))\n'
    'print("mean", df["売上"].mean())'
)
WRONG = StepCode(code="print(df['存在しない列'].mean())")
FINDING = Finding(step_id=9, title="売上の平均", text="売上の平均は 105.833 です。")
REPORT = ReportOutput(
    title="売上の EDA",
    conclusion="売上の平均は 105.833 です。",
    sections=[ReportSection(section_type="text", content="売上の平均は 105.833 です。")],
)


def test_a_chat_model_plans_codes_retries_reads_and_reports(eda_settings: Settings, sales_file: Path) -> None:
    model = scripted(tool_reply(PLAN), tool_reply(WRONG), tool_reply(CODE), tool_reply(FINDING), tool_reply(REPORT))
    brain = LLMEdaBrain(model, name="fake:model")
    with EdaService(eda_settings, brains=lambda spec: brain) as service:
        run = service.start(sales_file, goal="売上の傾向", model="fake:model")
        assert [step.title for step in run.plan] == ["売上の平均"] and run.model == "fake:model"
        run = service.resume(run.run_id, {"action": "approve"})
        assert run.status == "awaiting_results_review"
        assert run.executions[0].success and run.executions[0].attempts == 2
        retry_prompt = "\n".join(str(message.content) for message in model.received[2])
        assert "KeyError" in retry_prompt and "存在しない列" in retry_prompt  # the coder saw the failure
        assert run.findings[0].step_id == 1  # forced from the outcome, not the model's 9
        run = service.resume(run.run_id, {"action": "approve"})
    assert run.status == "completed" and "105.833" in (run.report_markdown or "")
    assert len(model.received) == 5
