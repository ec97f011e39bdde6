"""``bunseki run-code``: run one cell in a fresh sandbox and print what happened."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel

from bunseki.cli.app import EXIT_FAILED, EXIT_OK, app, console, errors, fail_usage, print_json
from bunseki.cli.outcomes import EXIT_UNAVAILABLE
from bunseki.domain import ExecutionResult
from bunseki.errors import DataLoadError, SandboxError, SandboxLost
from bunseki.service import run_cell
from bunseki.settings import Settings


@app.command("run-code")
def run_code(
    code_file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, readable=True, help="Python file with the cell.")
    ],
    workspace: Annotated[
        Path, typer.Option("--workspace", file_okay=False, help="Workspace directory (created if missing).")
    ],
    data: Annotated[
        Path | None,
        typer.Option("--data", exists=True, dir_okay=False, readable=True, help="CSV/TSV/Excel/Parquet as df."),
    ] = None,
    timeout: Annotated[
        float | None, typer.Option("--timeout", min=0.1, help="Wall-clock limit in seconds (default 180).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
) -> None:
    """Run CODE_FILE as one cell in a fresh sandbox, with `df` loaded from --data.

    Exit status: 0 when the cell succeeded, 1 when it failed, 2 for usage errors, 5 when the
    sandbox's machine was lost while it ran (run it again).
    """
    try:
        code = code_file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail_usage(f"{code_file} is not UTF-8 text: {exc}") from exc
    try:
        result = run_cell(code, workspace_dir=workspace, data_file=data, timeout=timeout, settings=Settings())
    except DataLoadError as exc:
        raise fail_usage(str(exc)) from exc
    except SandboxError as exc:
        if as_json:
            print_json(
                {
                    "success": False,
                    "stdout": "",
                    "stderr": "",
                    "error": f"{type(exc).__name__}: {exc}",
                    "error_type": type(exc).__name__,
                    "artifacts": [],
                    "duration_s": 0.0,
                    "workspace": str(workspace.resolve()),
                }
            )
        else:
            errors.print(f"[bold red]{type(exc).__name__}:[/] {escape(str(exc))}")
        raise typer.Exit(EXIT_UNAVAILABLE if isinstance(exc, SandboxLost) else EXIT_FAILED) from exc
    if as_json:
        print_json({**result.model_dump(mode="json"), "workspace": str(workspace.resolve())})
    else:
        show(result, workspace.resolve())
    raise typer.Exit(EXIT_OK if result.success else EXIT_FAILED)


def show(result: ExecutionResult, workspace: Path) -> None:
    status = "[green]✓ succeeded[/]" if result.success else "[red]✗ failed[/]"
    console.print(f"{status} in {result.duration_s:.2f} s  [dim]workspace: {escape(str(workspace))}[/]", soft_wrap=True)
    if result.stdout:
        console.print(Panel(escape(result.stdout.rstrip()), title="stdout", title_align="left"))
    if result.stderr:
        console.print(Panel(escape(result.stderr.rstrip()), title="stderr", title_align="left", style="yellow"))
    if result.error:
        console.print(Panel(escape(result.error.rstrip()), title="error", title_align="left", style="red"))
    for path in result.artifacts:
        console.print(f"[bold]artifact:[/] {escape(str(path))}", soft_wrap=True)
    for note in result.notes:
        console.print(f"[dim]note: {escape(note)}[/]")
