"""EDA runs end to end on a real sandbox and store: reviews, feedback, retries, caps, reports, ownership."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from bunseki.errors import Conflict, InputError, NotFound
from bunseki.service.eda import EdaService
from tests.fakes.eda import ScriptedEdaBrain


def test_a_new_run_is_validated_profiled_planned_and_waits_for_the_plan_review(
    service: EdaService, sales_file: Path
) -> None:
    events: list[dict[str, object]] = []
    run = service.start(sales_file, goal="売上の傾向を知りたい", on_event=events.append)
    assert run.status == "awaiting_plan_review"
    assert run.review is not None and run.review.review == "plan" and run.review.feedback_allowed
    assert [step.title for step in run.plan] == ["売上の分布", "数量の分布"]
    assert run.profile is not None and run.profile.rows == 6
    columns = {column.name: column for column in run.profile.columns}
    assert columns["売上"].kind == "numeric" and columns["売上"].max == 150
    assert columns["日付"].kind == "datetime"
    assert run.findings == [] and run.executions == [] and run.report_path is None
    assert (Path(run.workspace) / "data" / "validated.parquet").is_file()
    nodes = [event["node"] for event in events if event["event"] == "node_started"]
    assert nodes == ["validate_data", "plan_analysis"]
    payload = json.loads(run.model_dump_json())
    for key in ("status", "run_id", "plan", "findings", "profile", "report_path", "report_markdown"):
        assert key in payload
    for key in ("artifacts", "executions", "error"):
        assert key in payload
    assert {"rows", "duplicates", "columns", "correlations"} <= payload["profile"].keys()


def test_approving_both_reviews_runs_every_step_and_writes_the_report(
    service: EdaService, sales_file: Path, brain: ScriptedEdaBrain
) -> None:
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "approve"})
    assert run.status == "awaiting_results_review"
    assert [finding.text for finding in run.findings] == ["mean 105.833", "mean 2.5"]
    assert all(Path(path).is_file() for path in run.artifacts) and len(run.artifacts) == 2
    assert [outcome.success for outcome in run.executions] == [True, True]
    run = service.resume(run.run_id, {"action": "approve"})
    assert run.status == "completed" and run.review is None and run.error is None
    assert run.report_markdown is not None and "mean 105.833" in run.report_markdown
    files = {kind: Path(path) for kind, path in run.report_files.items()}
    assert set(files) == {"md", "html", "ipynb"} and all(path.is_file() for path in files.values())
    notebook = nbformat.read(files["ipynb"], as_version=4)  # type: ignore[no-untyped-call]
    sources = "\n".join(cell.source for cell in notebook.cells)
    assert "check_table" in sources and "df['売上'].mean()" in sources
    assert brain.calls.count("report") == 1
    assert [summary.status for summary in service.list()] == ["completed"]


def test_plan_feedback_revises_the_plan_and_asks_again(service: EdaService, sales_file: Path) -> None:
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "feedback", "feedback": "drop step 1"})
    assert run.status == "awaiting_plan_review"
    assert [(step.id, step.title) for step in run.plan] == [(1, "数量の分布")]
    assert run.review is not None and run.review.note == "dropped step 1"


def test_feedback_the_planner_cannot_apply_is_said_at_the_review_and_changes_nothing(
    service: EdaService, sales_file: Path
) -> None:
    run = service.start(sales_file)
    before = run.plan
    run = service.resume(run.run_id, {"action": "feedback", "feedback": "add 存在しない列"})
    assert run.status == "awaiting_plan_review" and run.plan == before
    assert run.review is not None and run.review.note == "no column 存在しない列"


def test_a_failed_step_is_retried_with_its_error(
    make_service: Callable[[ScriptedEdaBrain], EdaService], sales_file: Path
) -> None:
    brain = ScriptedEdaBrain(failures={1})
    service = make_service(brain)
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "approve"})
    assert brain.calls[brain.calls.index("code:1:first") + 1] == "code:1:retry"
    assert run.status == "awaiting_results_review"
    assert run.executions[0].success and run.executions[0].attempts == 2


def test_a_step_that_keeps_failing_is_shown_at_the_results_review_not_lost(
    make_service: Callable[[ScriptedEdaBrain], EdaService], sales_file: Path
) -> None:
    brain = ScriptedEdaBrain(broken={2})
    service = make_service(brain)
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "approve"})
    assert run.status == "awaiting_results_review"
    assert brain.calls.count("code:2:first") == 1 and brain.calls.count("code:2:retry") == 1
    assert run.review is not None and run.review.failed_steps == [2]
    failed = run.executions[1]
    assert not failed.success and failed.attempts == 2 and "step 2 failed" in (failed.error or "")
    assert not run.findings[1].success and run.findings[0].success


def test_results_feedback_asking_for_a_new_analysis_runs_only_that_step(
    service: EdaService, sales_file: Path, brain: ScriptedEdaBrain
) -> None:
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "approve"})
    brain.calls.clear()
    run = service.resume(run.run_id, {"action": "feedback", "feedback": "add 地域"})
    assert run.status == "awaiting_results_review"
    assert [call for call in brain.calls if call.startswith("code")] == ["code:3:first"]
    assert [call for call in brain.calls if call.startswith("find")] == ["find:3"]
    assert [finding.step_id for finding in run.findings] == [1, 2, 3]
    assert "関東': 3" in run.findings[2].text


def test_results_feedback_about_the_code_reruns_every_step(
    service: EdaService, sales_file: Path, brain: ScriptedEdaBrain
) -> None:
    run = service.start(sales_file)
    run = service.resume(run.run_id, {"action": "approve"})
    brain.calls.clear()
    run = service.resume(run.run_id, {"action": "feedback", "feedback": "redo with care"})
    assert run.status == "awaiting_results_review"
    assert [call for call in brain.calls if call.startswith("code")] == ["code:1:first", "code:2:first"]
    assert len(run.findings) == 2


@pytest.mark.parametrize("approvals", [0, 1])
def test_stop_ends_the_run_with_what_exists(service: EdaService, sales_file: Path, approvals: int) -> None:
    run = service.start(sales_file)
    for _ in range(approvals):
        run = service.resume(run.run_id, {"action": "approve"})
    run = service.resume(run.run_id, {"action": "stop"})
    assert run.status == "stopped" and run.review is None
    assert len(run.findings) == 2 * approvals and run.report_path is None
    with pytest.raises(Conflict, match="stopped"):
        service.resume(run.run_id, {"action": "approve"})


def test_feedback_rounds_are_capped(service: EdaService, sales_file: Path) -> None:
    run = service.start(sales_file)
    for _ in range(5):
        run = service.resume(run.run_id, {"action": "feedback", "feedback": "redo"})
    assert run.review is not None and not run.review.feedback_allowed
    with pytest.raises(Conflict, match="rounds of feedback"):
        service.resume(run.run_id, {"action": "feedback", "feedback": "redo"})
    assert service.resume(run.run_id, {"action": "approve"}).status == "awaiting_results_review"


def test_bad_answers_and_other_peoples_runs_are_refused(service: EdaService, sales_file: Path) -> None:
    owner, _ = service.store.create_user("owner")
    other, _ = service.store.create_user("other")
    run = service.start(sales_file, user_id=owner.id)
    with pytest.raises(InputError):
        service.resume(run.run_id, {"action": "feedback", "feedback": "  "}, user_id=owner.id)
    with pytest.raises(InputError):
        service.resume(run.run_id, {"action": "maybe"}, user_id=owner.id)
    with pytest.raises(NotFound):
        service.resume(run.run_id, {"action": "approve"}, user_id=other.id)
    with pytest.raises(NotFound):
        service.get(run.run_id, user_id=other.id)
    assert service.list(user_id=other.id) == []
    assert service.get(run.run_id, user_id=owner.id).status == "awaiting_plan_review"


def test_a_file_that_is_not_a_table_ends_the_run_with_the_loaders_reason(service: EdaService, tmp_path: Path) -> None:
    broken = tmp_path / "broken.csv"
    broken.write_bytes(b"\x00\x01\x02PK\x03\x04" * 50)
    run = service.start(broken)
    assert run.status == "error" and run.error is not None and "broken.csv" in run.error
    assert service.get(run.run_id).status == "error"


def test_deleting_a_run_removes_its_workspace_and_checkpoints(service: EdaService, sales_file: Path) -> None:
    run = service.start(sales_file)
    service.delete(run.run_id)
    assert not Path(run.workspace).exists()
    assert service.pending(run.run_id) is None
    with pytest.raises(NotFound):
        service.get(run.run_id)
