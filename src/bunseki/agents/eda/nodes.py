"""The nodes of the EDA graph. Reviews pause the run with ``interrupt()``; everything else is quick to redo.

Each node emits progress events (``node_started`` and what it produced) through LangGraph's
stream writer, which the service turns into CLI, SSE and UI progress.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from bunseki.agents.eda import review
from bunseki.agents.eda.context import EdaContext
from bunseki.agents.eda.state import EdaState
from bunseki.brain.eda.contract import EdaView, Finding, PlanStep, StepOutcome
from bunseki.data.validate import validate_data as check_file
from bunseki.errors import BunsekiError, ModelError
from bunseki.report.notebook import DataSource
from bunseki.report.save import save_report
from bunseki.sandbox.workspace import host_writes

VALIDATED = "data/validated.parquet"
REPORT_STEM = "eda_report"
OUTPUT_CHARS = 20_000  # of each step's stdout kept in state and shown to the brain


def validate_data(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """Read the file with the one loader, type and check it, write it as Parquet, profile it."""
    context = runtime.context
    _started("validate_data")
    target = context.workspace / VALIDATED
    try:
        with host_writes(target.parent):
            table = check_file(
                context.workspace / state.raw_data_path,
                target,
                max_bytes=context.max_upload_bytes,
                sheet=state.analysis_params.get("sheet"),
                question=state.analysis_params.get("goal"),
            )
            target.chmod(0o444)
    except (BunsekiError, OSError) as exc:
        return {"error_message": str(exc), "agent_outcome": "failed"}
    problems = [problem.message(state.language) for problem in table.problems]
    params = state.analysis_params | {
        "format": table.format,
        "encoding": table.encoding,
        "delimiter": table.delimiter,
    }
    get_stream_writer()(
        {"event": "validated", "rows": table.profile.rows, "columns": len(table.profile.columns), "problems": problems}
    )
    return {
        "validated_data_path": VALIDATED,
        "profile": table.profile,
        "problems": problems,
        "analysis_params": params,
        "agent_outcome": "executed",
    }


def plan_analysis(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """A plan for this table and goal, or the plan revised by the latest review's feedback."""
    context = runtime.context
    _started("plan_analysis")
    revising = state.user_feedback is not None and state.agent_outcome == "feedback"
    try:
        revision = context.brain.plan(view(state))
    except ModelError as exc:
        return {"error_message": f"plan_analysis: {exc}", "agent_outcome": "failed"}
    update: dict[str, Any] = {"plan_note": revision.note}
    if not revising:
        update |= {"analysis_plan": _numbered(revision.plan), "agent_outcome": "planned"}
    elif not revision.understood:
        update["agent_outcome"] = "unclear"
    else:
        plan = _numbered(revision.plan)
        carried = _carry_over(state, plan)
        update |= {"analysis_plan": plan, **carried}
        if state.review == "results":
            update["result_rounds"] = state.result_rounds + 1
            if plan == state.analysis_plan:  # same plan: the feedback is about the code itself
                update |= {"outcomes": {}, "findings": [], "agent_outcome": "recode"}
            else:
                update["agent_outcome"] = "replanned"
        else:
            update |= {"plan_revisions": state.plan_revisions + 1, "agent_outcome": "replanned"}
    plan_now = update.get("analysis_plan", state.analysis_plan)
    get_stream_writer()({"event": "plan", "plan": [step.model_dump() for step in plan_now], "note": revision.note})
    return update


def ask_human_for_plan_review(state: EdaState) -> dict[str, Any]:
    """Pause until the person approves the plan, sends feedback, or stops."""
    limit_reached = state.plan_revisions >= state.max_plan_revisions
    answer = review.ask(
        {
            "review": "plan",
            "plan": [step.model_dump() for step in state.analysis_plan],
            "note": state.plan_note,
            "problems": state.problems,
            "feedback_allowed": not limit_reached,
        }
    )
    return _answered(answer, "plan", state, limit=state.max_plan_revisions if limit_reached else None)


def generate_code(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """Code for the next step without an outcome (again, with the error, when its last attempt failed)."""
    context = runtime.context
    pending = state.pending_steps()
    if not pending:
        return {"current_step": None, "agent_outcome": "executed"}
    step = pending[0]
    _started("generate_code", step=step.id)
    retry = state.current_step == step.id and state.step_error is not None
    error = state.step_error if retry else None
    try:
        code = context.brain.write_step_code(view(state), step, error)
    except ModelError as exc:
        return {"error_message": f"generate_code (step {step.id}): {exc}", "agent_outcome": "failed"}
    get_stream_writer()({"event": "code", "step": step.id, "code": code.code})
    return {
        "current_step": step.id,
        "generated_code": code.code,
        "step_error": error,
        "attempt": state.attempt + 1 if retry else 1,
        "agent_outcome": "planned",
    }


def execute_code(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """Run the step's code in the sandbox on the validated table; a failure is retried (bounded), then kept."""
    context = runtime.context
    step_id = state.current_step
    assert step_id is not None, "routing only comes here with a step"
    _started("execute_code", step=step_id)
    try:
        sandbox = context.sandbox()
    except BunsekiError as exc:
        return {"error_message": f"execute_code: the sandbox cannot run: {exc}", "agent_outcome": "failed"}
    # One cell per step, starting from the validated table, so no step sees what another did to df.
    load = f"import pandas as pd\ndf = pd.read_parquet({state.validated_data_path!r})\n"
    result = sandbox.run(load + state.generated_code)
    files = [_relative(path, context.workspace) for path in result.artifacts]
    outcome = StepOutcome(
        step_id=step_id,
        code=state.generated_code,
        success=result.success,
        stdout=(result.stdout or "")[-OUTPUT_CHARS:],
        stderr=result.stderr[-OUTPUT_CHARS:],
        error=result.error,
        artifacts=files,
        attempts=state.attempt,
    )
    get_stream_writer()(
        {"event": "execution", "step": step_id, "success": result.success, "error": result.error, "artifacts": files}
    )
    update: dict[str, Any] = {
        "execution_stdout": outcome.stdout,
        "execution_stderr": outcome.stderr,
        "generated_files": sorted({*state.generated_files, *files}),
    }
    if not result.success and state.attempt < state.max_attempts:
        return update | {"step_error": result.error, "agent_outcome": "failed"}
    outcomes = state.outcomes | {str(step_id): outcome}
    return update | {"outcomes": outcomes, "step_error": None, "agent_outcome": "executed"}


def integrate_results(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """Findings for each step that has none yet, every number taken from the step's output."""
    context = runtime.context
    _started("integrate_results")
    known = {finding.step_id for finding in state.findings}
    findings = [finding for finding in state.findings if str(finding.step_id) in state.outcomes]
    current = view(state)
    for step in state.analysis_plan:
        outcome = state.outcomes.get(str(step.id))
        if outcome is None or step.id in known:
            continue
        try:
            finding = context.brain.find(current, step, outcome)
        except ModelError as exc:
            finding = Finding(step_id=step.id, title=step.title, text=str(exc), success=False)
        findings.append(finding.model_copy(update={"step_id": step.id, "artifacts": _images(outcome)}))
        get_stream_writer()({"event": "finding", **findings[-1].model_dump()})
    findings.sort(key=lambda finding: finding.step_id)
    summary = "\n\n".join(f"{finding.title}\n{finding.text}" for finding in findings)
    return {"findings": findings, "analysis_summary": summary, "agent_outcome": "executed"}


def ask_human_for_results_review(state: EdaState) -> dict[str, Any]:
    """Pause until the person approves the results, asks for more, or stops."""
    limit_reached = state.result_rounds >= state.max_result_rounds
    failed = [outcome.step_id for outcome in state.outcomes.values() if not outcome.success]
    answer = review.ask(
        {
            "review": "results",
            "findings": [finding.model_dump() for finding in state.findings],
            "artifacts": state.generated_files,
            "failed_steps": sorted(failed),
            "note": state.plan_note,
            "feedback_allowed": not limit_reached,
        }
    )
    return _answered(answer, "results", state, limit=state.max_result_rounds if limit_reached else None)


def generate_report(state: EdaState, runtime: Runtime[EdaContext]) -> dict[str, Any]:
    """The report from the findings: Markdown, HTML and a notebook that re-runs it from the original file."""
    context = runtime.context
    _started("generate_report")
    try:
        report = context.brain.write_report(view(state))
    except ModelError as exc:
        return {"error_message": f"generate_report: {exc}", "agent_outcome": "failed"}
    params = state.analysis_params
    source = DataSource(
        path=state.raw_data_path,
        format=params.get("format", "csv"),
        encoding=params.get("encoding"),
        delimiter=params.get("delimiter"),
    )
    steps = [state.outcomes[str(step.id)] for step in state.analysis_plan if str(step.id) in state.outcomes]
    cells = [TYPES_CELL, *(f"# {_title(state, o.step_id)}\n{o.code}" for o in steps if o.success)]
    saved = save_report(report, context.workspace, code_cells=cells, source=source, stem=REPORT_STEM)
    paths = {
        "md": saved.markdown_path.name,
        "html": saved.html_path.name,
        "ipynb": saved.notebook_path.name,
    }
    get_stream_writer()({"event": "report", "title": report.title, "paths": paths})
    return {
        "report_content": saved.markdown,
        "report_paths": paths,
        "status": "completed",
        "agent_outcome": "executed",
    }


def handle_error(state: EdaState) -> dict[str, Any]:
    """End the run with its error, keeping everything it produced."""
    _started("handle_error")
    get_stream_writer()({"event": "error", "error": state.error_message})
    return {"status": "error"}


# The notebook types the table as validate_data did, when Bunseki is installed where it runs.
TYPES_CELL = """try:
    from bunseki.data.validate import check_table
except ImportError:  # plain pandas: the columns keep the types pandas gave them
    pass
else:
    df = check_table(df, inferred=True)[0]"""


def view(state: EdaState) -> EdaView:
    """What the brain may see: the profile, the goal, the plan, the feedback and the results."""
    assert state.profile is not None, "validate_data runs first"
    return EdaView(
        profile=state.profile,
        source=str(state.analysis_params.get("source") or PurePosixPath(state.raw_data_path).name),
        goal=state.analysis_params.get("goal"),
        language=state.language,
        problems=state.problems,
        plan=state.analysis_plan,
        feedback=state.user_feedback if state.agent_outcome == "feedback" else None,
        review=state.review,
        outcomes=[state.outcomes[key] for key in sorted(state.outcomes, key=int)],
        findings=state.findings,
    )


def _answered(answer: review.Answer, stage: str, state: EdaState, *, limit: int | None) -> dict[str, Any]:
    if answer.action == "feedback" and limit is not None:  # the service refuses this before resuming
        return {"agent_outcome": "unclear", "plan_note": review.LIMIT[state.language].format(limit=limit)}
    update: dict[str, Any] = {"agent_outcome": answer.action, "review": stage, "plan_note": None}
    if answer.action == "feedback":
        update["user_feedback"] = answer.feedback
    elif answer.action == "stop":
        update["status"] = "stopped"
    return update


def _carry_over(state: EdaState, plan: list[PlanStep]) -> dict[str, Any]:
    """Outcomes and findings of steps the revised plan keeps, under their new numbers."""
    old = {_key(step): step.id for step in state.analysis_plan}
    outcomes: dict[str, StepOutcome] = {}
    findings: list[Finding] = []
    by_step = {finding.step_id: finding for finding in state.findings}
    for step in plan:
        previous = old.get(_key(step))
        if previous is None or str(previous) not in state.outcomes:
            continue
        outcomes[str(step.id)] = state.outcomes[str(previous)].model_copy(update={"step_id": step.id})
        if previous in by_step:
            findings.append(by_step[previous].model_copy(update={"step_id": step.id}))
    return {"outcomes": outcomes, "findings": findings}


def _key(step: PlanStep) -> tuple[str, str, tuple[str, ...]]:
    return step.kind, step.title, tuple(step.columns)


def _numbered(plan: list[PlanStep]) -> list[PlanStep]:
    return [step.model_copy(update={"id": number}) for number, step in enumerate(plan, start=1)]


def _title(state: EdaState, step_id: int) -> str:
    return next((f"{step.id}. {step.title}" for step in state.analysis_plan if step.id == step_id), str(step_id))


def _images(outcome: StepOutcome) -> list[str]:
    return [path for path in outcome.artifacts if path.lower().endswith((".png", ".jpg", ".jpeg", ".svg"))]


def _relative(path: Path, workspace: Path) -> str:
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return path.as_posix()


def _started(node: str, **details: Any) -> None:
    get_stream_writer()({"event": "node_started", "node": node, **details})
