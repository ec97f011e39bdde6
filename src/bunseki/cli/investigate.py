"""``bunseki investigate CASE.yaml``: find why a time-series algorithm's output misses its expectation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape

from bunseki.cli.app import (
    EXIT_FAILED,
    Model,
    OutputFormat,
    WorkspaceRoot,
    app,
    console,
    errors,
    markdown_or_json,
    print_json,
    settings_for,
)
from bunseki.cli.outcomes import run_json
from bunseki.cli.progress import doing
from bunseki.cli.traces import usage_line

NODE_WORDS = {
    "initialize": "ケースを読み込み索引を作っています / indexing the case",
    "data_checker": "データを確認しています / checking the data",
    "consistency_checker": "期待値と照合しています / checking consistency",
    "hypothesis_generator": "仮説を立てています / generating hypotheses",
    "verifier": "仮説を実行で検証しています / verifying by execution",
    "reporter": "レポートを書いています / writing the report",
    "summarizer": "まとめています / summarizing",
}


@app.command("investigate")
def investigate(
    case_file: Annotated[Path, typer.Argument(dir_okay=False, help="The case manifest (YAML).")],
    model: Model = None,
    workspace_root: WorkspaceRoot = None,
    output_format: OutputFormat = "markdown",
) -> None:
    """Check each dataset of CASE_FILE against its expectation; find and verify the cause of misses."""
    fmt = markdown_or_json(output_format)
    from bunseki.service.investigations import InvestigationService  # Qdrant and Sudachi: only when used

    service = InvestigationService(settings_for(workspace_root))
    service.check(case_file)  # a refusal reaches the application's one error handler
    view = service.run(case_file, model=model, on_event=_progress)
    if fmt == "json":
        print_json(run_json(view.as_dict(), view.error or view.summary))
    else:
        report = Path(view.report_path) if view.report_path else None
        if report is not None and report.is_file():
            console.print(Markdown(report.read_text(encoding="utf-8")))
        else:
            console.print(escape(view.error or view.summary))
        html = f"  html: {view.report_html_path}" if view.report_html_path else ""
        paths = f"report: {view.report_path}{html}  workspace: {view.workspace_dir}"
        console.print(f"[dim]{escape(paths)}[/]", soft_wrap=True)  # whole paths, never wrapped, to copy
        if (line := usage_line(view.usage)) is not None:
            console.print(line, highlight=False)
    if view.status != "completed":
        raise typer.Exit(EXIT_FAILED)


def _progress(event: dict[str, Any]) -> None:
    if event.get("event") != "node_started":
        return
    dataset = f"[{event['dataset']}] " if event.get("dataset") else ""
    iteration = f" ({event['iteration']})" if event.get("iteration") else ""
    errors.print(f"[dim]… {escape(dataset)}{doing(NODE_WORDS, event)}{iteration}[/]", highlight=False)
