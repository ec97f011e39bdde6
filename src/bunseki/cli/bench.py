"""``bunseki bench``: evaluations on public benchmarks (internal measurement only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape

from bunseki.cli.app import app, console, errors, fail_usage, settings_for
from bunseki.service import dabench

bench = typer.Typer(help="Benchmarks of the analyst.", no_args_is_help=True)
app.add_typer(bench, name="bench")


@bench.command("dabench")
def run_dabench(
    data: Annotated[Path, typer.Option("--data", exists=True, file_okay=False, help="The DABench dev folder.")],
    model: Annotated[str | None, typer.Option("--model", help="provider:model (default offline).")] = None,
    ids: Annotated[str | None, typer.Option("--ids", help="Comma-separated question ids.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N questions.")] = None,
    output: Annotated[Path | None, typer.Option("--output", help="Write every response as JSONL.")] = None,
    workspace_root: Annotated[Path | None, typer.Option("--workspace-root", file_okay=False)] = None,
) -> None:
    """Answer InfiAgent-DABench's questions and score them with the official rules."""
    if not (data / "da-dev-questions.jsonl").is_file() or not (data / "tables").is_dir():
        raise fail_usage(f"{data} must hold da-dev-questions.jsonl, da-dev-labels.jsonl and tables/")
    selected = {int(part) for part in ids.split(",")} if ids else None
    settings = settings_for(workspace_root)

    def progress(done: int, total: int, item: Any, result: dict[str, Any]) -> None:
        errors.print(f"[{done}/{total}] #{escape(item.id)} {escape(item.file)}: {result['status']}")

    questions, responses, results = dabench.run(
        data, settings=settings, model=model, ids=selected, limit=limit, on_progress=progress
    )
    if output:
        with output.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(
                    json.dumps(
                        {
                            "id": int(result["id"]),
                            "response": result.get("answer") or "",
                            "status": result["status"],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
    scores = dabench.score(questions, dabench.load_labels(data), responses)
    console.print(Markdown(dabench.table(scores)))
