"""``bunseki eda``: the EDA pipeline with its two reviews, in a terminal or across processes.

``bunseki eda DATA_FILE`` starts a run; ``bunseki eda resume RUN_ID`` answers the review a run
waits at (from any process, any day); ``bunseki eda runs list|show`` finds runs again.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from bunseki.cli.app import (
    EXIT_FAILED,
    EXIT_OK,
    Model,
    OutputFormat,
    WorkspaceRoot,
    app,
    console,
    errors,
    fail_usage,
    markdown_or_json,
    opened,
    print_json,
)
from bunseki.cli.outcomes import run_json
from bunseki.cli.progress import doing, mark
from bunseki.cli.traces import trace_tree, usage_line
from bunseki.domain import EdaRunDetails
from bunseki.service.eda import EdaService

NODE_WORDS = {
    "validate_data": "データを検証しています / validating the data",
    "plan_analysis": "分析計画を立てています / planning the analysis",
    "generate_code": "コードを書いています / writing code",
    "execute_code": "コードを実行しています / running code",
    "integrate_results": "結果をまとめています / reading the results",
    "generate_report": "レポートを書いています / writing the report",
    "handle_error": "エラーを記録しています / recording the error",
}


class _StartByDefault(TyperGroup):
    """``bunseki eda FILE …`` runs the hidden ``start`` command; ``resume`` and ``runs`` are subcommands."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # Any: Typer vendors its own Click
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["start", *args]
        return super().parse_args(ctx, args)


eda_app = typer.Typer(
    cls=_StartByDefault,
    help=(
        "Exploratory data analysis with two reviews.\n\n"
        "bunseki eda DATA_FILE [--goal TEXT] [--sheet NAME] [--yes] [--model M] [--workspace-root DIR] "
        "[--format markdown|json] "
        "starts a run; bunseki eda resume RUN_ID (--approve | --feedback TEXT | --stop) continues one."
    ),
    no_args_is_help=True,
)
runs_app = typer.Typer(help="EDA runs: list them, or show one.", no_args_is_help=True)
eda_app.add_typer(runs_app, name="runs")
app.add_typer(eda_app, name="eda")


@eda_app.command("start", hidden=True)
def start(
    data_file: Annotated[Path, typer.Argument(dir_okay=False, help="CSV, TSV, Excel or Parquet.")],
    goal: Annotated[str | None, typer.Option("--goal", help="What the analysis is for, in a sentence.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Approve both reviews without asking.")] = False,
    model: Model = None,
    workspace_root: WorkspaceRoot = None,
    output_format: OutputFormat = "markdown",
    sheet: Annotated[
        str | None, typer.Option("--sheet", help="The sheet of a workbook (default: the one the goal names).")
    ] = None,
) -> None:
    """Validate, profile and plan DATA_FILE, then review the plan and the results (or --yes)."""
    fmt = markdown_or_json(output_format)
    if not data_file.is_file():
        raise fail_usage(f"{data_file} is not a file; give the path of a CSV, TSV, Excel or Parquet file")
    with _service(workspace_root) as service:
        run = service.start(data_file, goal=goal, model=model, on_event=_progress, sheet=sheet)
        _drive(service, run, yes=yes, fmt=fmt)


@eda_app.command("resume")
def resume(
    run_id: Annotated[str, typer.Argument(help="The run's id, as printed when it paused.")],
    approve: Annotated[bool, typer.Option("--approve", help="Approve what the review shows.")] = False,
    feedback: Annotated[str | None, typer.Option("--feedback", help="What to change, in plain words.")] = None,
    stop: Annotated[bool, typer.Option("--stop", help="End the run with what exists.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Approve any later review too.")] = False,
    workspace_root: WorkspaceRoot = None,
    output_format: OutputFormat = "markdown",
) -> None:
    """Answer the review RUN_ID waits at and continue to its next review or its end."""
    fmt = markdown_or_json(output_format)
    chosen = [
        name for name, given in (("approve", approve), ("feedback", feedback is not None), ("stop", stop)) if given
    ]
    if len(chosen) != 1:
        raise fail_usage("give exactly one of --approve, --feedback TEXT or --stop")
    with _service(workspace_root) as service:
        run = service.resume(run_id, {"action": chosen[0], "feedback": feedback}, on_event=_progress)
        _drive(service, run, yes=yes, fmt=fmt)


@runs_app.command("list")
def list_runs(workspace_root: WorkspaceRoot = None, output_format: OutputFormat = "markdown") -> None:
    """Every EDA run, newest first, with where it stands."""
    fmt = markdown_or_json(output_format)
    with _service(workspace_root) as service:
        runs = service.list()
    if fmt == "json":
        print_json([run.model_dump(mode="json") for run in runs])
        return
    table = Table("run_id", "status", "source", "goal", "updated")
    for run in runs:
        table.add_row(run.run_id, run.status, run.source, run.goal or "", f"{run.updated_at:%Y-%m-%d %H:%M}")
    console.print(table if runs else "No EDA runs yet: start one with bunseki eda DATA_FILE.")


@runs_app.command("show")
def show_run(
    run_id: str,
    workspace_root: WorkspaceRoot = None,
    output_format: OutputFormat = "markdown",
    trace: Annotated[
        bool, typer.Option("--trace", help="What each call that advanced it did: nodes, model calls, cells.")
    ] = False,
) -> None:
    """One run: its plan, findings, report, the review it waits at, and what its model calls cost."""
    fmt = markdown_or_json(output_format)
    with _service(workspace_root) as service:
        if not trace:
            _print(service.get(run_id), fmt)
            return
        segments = service.trace(run_id)
    if fmt == "json":
        print_json(segments)
        return
    for number, segment in enumerate(segments, start=1):
        console.print(trace_tree({**segment, "turn": number, "question": segment.get("call")}, label="call"))


# --- driving the reviews ---


def _drive(service: EdaService, run: EdaRunDetails, *, yes: bool, fmt: str) -> None:
    """Answer reviews here (--yes, or a person at a terminal) until the run ends; else print and stop."""
    interactive = sys.stdin.isatty() and console.is_terminal and fmt == "markdown"
    while run.review is not None and (yes or interactive):
        if yes:
            answer: dict[str, Any] = {"action": "approve"}
        else:
            _print(run, fmt)
            answer = _ask(run)
        run = service.resume(run.run_id, answer, on_event=_progress)
    _print(run, fmt)
    raise typer.Exit(EXIT_FAILED if run.status == "error" else EXIT_OK)


def _ask(run: EdaRunDetails) -> dict[str, Any]:
    assert run.review is not None
    allowed = run.review.feedback_allowed
    choices = ["a", "f", "s"] if allowed else ["a", "s"]
    words = "承認 approve (a) / 修正 feedback (f) / 中止 stop (s)" if allowed else "承認 approve (a) / 中止 stop (s)"
    choice = ""
    while choice not in choices:
        choice = str(typer.prompt(words, default="a", err=True)).strip().lower()[:1]
    if choice == "f":
        return {"action": "feedback", "feedback": typer.prompt("修正内容 / feedback", err=True)}
    return {"action": "approve" if choice == "a" else "stop"}


# --- output ---


def _print(run: EdaRunDetails, fmt: str) -> None:
    if fmt == "json":
        print_json(run_json(run.model_dump(mode="json"), run.error))
        return
    console.print(f"[bold]{escape(run.source)}[/]  status: [bold]{run.status}[/]  run_id: {run.run_id}")
    if run.problems and run.status == "awaiting_plan_review":
        console.print("[bold]データの問題 / problems found[/]")
        for problem in run.problems:
            console.print(f"  • {escape(problem)}")
    if run.plan and run.status in ("awaiting_plan_review", "awaiting_results_review"):
        table = Table("#", "step", "kind", "columns", "why", title="分析計画 / plan")
        for step in run.plan:
            table.add_row(str(step.id), step.title, step.kind, ", ".join(step.columns), step.rationale)
        console.print(table)
    if run.findings and run.status != "completed":
        console.print("[bold]結果 / findings[/]")
        for finding in run.findings:
            mark = "" if finding.success else "[red]✗[/] "
            console.print(f"  {mark}[bold]{finding.step_id}. {escape(finding.title)}[/]\n    {escape(finding.text)}")
            for path in finding.artifacts:
                console.print(f"    [dim]{escape(run.workspace)}/{escape(path)}[/]")
    if run.review is not None and run.review.note:
        console.print(f"[yellow]{escape(run.review.note)}[/]")
    if run.report_markdown and run.status == "completed":
        console.print(Markdown(run.report_markdown))
        console.print(f"\n[dim]report: {escape(str(run.report_path))}[/]", soft_wrap=True)
    if run.review is not None and not (sys.stdin.isatty() and console.is_terminal):
        console.print(
            f"[dim]続けるには / to continue: bunseki eda resume {run.run_id} --approve | --feedback TEXT | --stop[/]"
        )
    if (line := usage_line(run.usage)) is not None:
        console.print(line)
    if run.error:
        errors.print(f"[red]{escape(run.error)}[/]")


def _progress(event: dict[str, Any]) -> None:
    kind = event.get("event")
    if kind == "node_started":
        step = f" (step {event['step']})" if event.get("step") else ""
        errors.print(f"[dim]… {doing(NODE_WORDS, event)}{step}[/]")
    elif kind == "execution":
        errors.print(f"[dim]  {mark(event.get('success'))} step {event.get('step')}[/]")


def _service(workspace_root: Path | None) -> AbstractContextManager[EdaService]:
    """The EDA service; a refusal reaches the application's one error handler (a line or a JSON object)."""
    return opened(EdaService, workspace_root)
