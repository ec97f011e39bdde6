"""``bunseki analyze``: one question, or a batch of them, answered by the analyst."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.markdown import Markdown
from rich.markup import escape

from bunseki.cli.app import (
    EXIT_FAILED,
    EXIT_OK,
    Model,
    app,
    console,
    errors,
    fail_usage,
    markdown_or_json,
    print_json,
    settings_for,
)
from bunseki.cli.outcomes import run_json
from bunseki.cli.progress import turn_progress
from bunseki.service.analysis import AnalysisSession, TurnResult
from bunseki.service.batch import read_items, run_batch
from bunseki.service.inputs import checked_question
from bunseki.settings import Settings


@app.command("analyze")
def analyze(
    data_file: Annotated[
        Path | None,
        typer.Argument(exists=True, dir_okay=False, readable=True, help="CSV, TSV, Excel or Parquet."),
    ] = None,
    question: Annotated[str | None, typer.Argument(help="The question, in Japanese or English.")] = None,
    model: Model = None,
    workspace_root: Annotated[
        Path | None, typer.Option("--workspace-root", file_okay=False, help="Where workspaces are created.")
    ] = None,
    output_format: Annotated[str, typer.Option("--format", help="markdown or json; jsonl with --batch.")] = "markdown",
    batch: Annotated[
        Path | None,
        typer.Option("--batch", exists=True, dir_okay=False, help='JSONL of {"id","file","question"}.'),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", file_okay=False, help="Folder the batch's files are in.")
    ] = None,
    sheet: Annotated[
        str | None,
        typer.Option("--sheet", help="The sheet of a workbook (default: the one the question names, else the first)."),
    ] = None,
) -> None:
    """Answer QUESTION about DATA_FILE with a report, or answer a --batch of questions.

    Exit status: 0 when the turn ended (finalized, asked or limit_reached), 1 when it ended in an error;
    other failures have their own status (see the README: exit codes).
    """
    settings = settings_for(workspace_root)
    if batch is not None:
        if data_file is not None or question is not None:
            raise fail_usage("give either DATA_FILE and QUESTION, or --batch, not both")
        if output_format not in ("jsonl", "json"):
            raise fail_usage("--batch writes jsonl: use --format jsonl")
        _batch(batch, data_dir or batch.parent, settings, model)
        return
    if data_file is None or question is None:
        raise fail_usage("DATA_FILE and QUESTION are required (or use --batch)")
    _single(data_file, question, settings, model, markdown_or_json(output_format), sheet)


def _single(
    data_file: Path,
    question: str,
    settings: Settings,
    model: str | None,
    fmt: Literal["markdown", "json"],
    sheet: str | None = None,
) -> None:
    # A refusal (unreadable data, a wrong --model) reaches the application's one error handler.
    checked_question(question, settings.max_question_chars)  # before the data is loaded or a sandbox starts
    session = AnalysisSession(data_file, settings=settings, model=model, sheet=sheet, question=question)
    with session, turn_progress() as progress:
        result = session.ask(question, on_event=progress)
    if fmt == "json":
        print_json(turn_json(result))
    else:
        _show(result)
    raise typer.Exit(EXIT_FAILED if result.status == "error" else EXIT_OK)


def turn_json(result: TurnResult) -> dict[str, Any]:
    """The turn's JSON; a turn that ended in error carries the error object every failure has."""
    return run_json(result.to_json(), result.error)


def _show(result: TurnResult) -> None:
    if result.data_notes and not result.report_markdown:  # a report lists them among its assumptions
        for note in result.data_notes:
            errors.print(f"[dim]・{escape(note)}[/]")
    if result.report_markdown:
        console.print(Markdown(result.report_markdown))
        console.print(f"\n[dim]report: {escape(str(result.report_path))}[/]", soft_wrap=True)
    elif result.question:
        console.print(result.question)
    if result.error:
        errors.print(f"[red]{escape(result.error)}[/]")


def _batch(path: Path, data_dir: Path, settings: Settings, model: str | None) -> None:
    try:
        items = read_items(path.read_text(encoding="utf-8").splitlines())
    except (ValueError, UnicodeDecodeError) as exc:
        raise fail_usage(f"{path}: {exc}") from exc

    def progress(done: int, total: int, item: Any, result: dict[str, Any]) -> None:
        where = f"{escape(item.file)} #{escape(item.id)}"
        errors.print(f"[{done}/{total}] {where}: {result['status']} ({result['duration_s']:.1f} s)")

    for result in run_batch(items, data_dir=data_dir, settings=settings, model=model, on_progress=progress):
        result = run_json(result, result.get("error"))
        sys.stdout.write(json.dumps(result, ensure_ascii=False, default=str) + "\n")
        sys.stdout.flush()
