"""``bunseki kb ingest|collections|delete``: knowledge-base collections from the command line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bunseki.cli.app import EXIT_FAILED, WorkspaceRoot, app, console, errors, print_json, settings_for
from bunseki.errors import BunsekiError, InputError

if TYPE_CHECKING:
    from bunseki.rag import IngestProgress, IngestReport, KnowledgeBase, ProgressCallback

kb_app = typer.Typer(
    help="Knowledge bases: ingest documents into collections, list and delete them.", no_args_is_help=True
)
app.add_typer(kb_app, name="kb")

AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@contextmanager
def open_knowledge_base(workspace_root: Path | None) -> Iterator[KnowledgeBase]:
    """The knowledge base, with refusals printed as one line and exit status 1 (2 for bad input)."""
    from bunseki.rag import KnowledgeBase  # on use: Qdrant's client alone takes about a second to import

    kb: KnowledgeBase | None = None
    try:
        kb = KnowledgeBase.open(settings_for(workspace_root))
        yield kb
    except BunsekiError as exc:
        errors.print(f"[bold red]{type(exc).__name__}:[/] {escape(str(exc))}")
        raise typer.Exit(2 if isinstance(exc, InputError) else EXIT_FAILED) from exc
    finally:
        if kb is not None:
            kb.close()


@contextmanager
def ingest_progress() -> Iterator[ProgressCallback]:
    """A progress bar on a terminal; one line per file in logs and pipes."""
    if not errors.is_terminal:

        def log(event: IngestProgress) -> None:
            errors.print(f"[dim][{event.files_done}/{event.files_total}] {escape(event.source)}[/]", highlight=False)

        yield log
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task("取り込み中 / ingesting", total=None)

        def advance(event: IngestProgress) -> None:
            bar.update(task, completed=event.files_done, total=event.files_total, description=escape(event.source))

        yield advance


@kb_app.command("ingest")
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories (walked recursively).")],
    collection: Annotated[str, typer.Option("--collection", "-c", help="The collection to ingest into.")],
    workspace_root: WorkspaceRoot = None,
    as_json: AsJson = False,
) -> None:
    """Ingest documents into a collection; unchanged files are skipped, removed ones deleted."""
    with open_knowledge_base(workspace_root) as kb, ingest_progress() as progress:
        report = kb.ingest(paths, collection, progress=progress)
    if as_json:
        print_json(asdict(report))
    else:
        print_report(report)


def print_report(report: IngestReport) -> None:
    for problem in report.problems:
        errors.print(f"[yellow]skipped (unreadable):[/] {escape(problem.message)}", highlight=False)
    console.print(
        f"[bold]{escape(report.collection)}[/]: files {report.files} · chunks {report.chunks} · "
        f"skipped {report.skipped} · removed {report.removed} · {report.seconds:.1f} s",
        highlight=False,
    )


@kb_app.command("collections")
def collections(workspace_root: WorkspaceRoot = None, as_json: AsJson = False) -> None:
    """The collections, with their document and chunk counts."""
    with open_knowledge_base(workspace_root) as kb:
        found = kb.collections()
    if as_json:
        print_json([asdict(info) for info in found])
        return
    if not found:
        console.print("[dim]コレクションはまだありません / no collections yet: bunseki kb ingest PATH -c NAME[/]")
        return
    table = Table("collection", "documents", "chunks", "embedding model")
    for info in found:
        table.add_row(escape(info.name), str(info.documents), str(info.chunks), escape(info.embedding_model))
    console.print(table)
    console.print(f"[dim]{escape(found[0].location)}[/]", highlight=False)


@kb_app.command("delete")
def delete(
    name: Annotated[str, typer.Argument(help="The collection to delete.")], workspace_root: WorkspaceRoot = None
) -> None:
    """Delete a collection and everything ingested into it."""
    with open_knowledge_base(workspace_root) as kb:
        kb.delete(name)
    console.print(f"deleted collection [bold]{escape(name)}[/]", highlight=False)
