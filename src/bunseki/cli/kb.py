"""``bunseki kb ingest|collections|delete|ask|chat|unanswered``: knowledge bases from the command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bunseki.cli.app import (
    EXIT_FAILED,
    WorkspaceRoot,
    app,
    console,
    errors,
    fail_usage,
    opened,
    print_json,
    settings_for,
)
from bunseki.cli.outcomes import run_json
from bunseki.cli.traces import usage_line
from bunseki.errors import BunsekiError, InputError

if TYPE_CHECKING:
    from bunseki.domain import Answer, IngestProgress, IngestReport, ProgressCallback
    from bunseki.service.knowledge import KnowledgeService

kb_app = typer.Typer(
    help="Knowledge bases: ingest documents into collections, list and delete them, ask and chat over them.",
    no_args_is_help=True,
)
app.add_typer(kb_app, name="kb")

AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def open_knowledge_service(workspace_root: Path | None) -> AbstractContextManager[KnowledgeService]:
    """The knowledge service, closed after; a refusal reaches the application's one error handler."""
    # on use: Qdrant's client alone takes about a second to import
    from bunseki.service.knowledge import KnowledgeService

    return opened(KnowledgeService, workspace_root)


@contextmanager
def ingest_progress() -> Iterator[ProgressCallback]:
    """A progress bar on a terminal; one line per file in logs and pipes."""
    if not errors.is_terminal:

        def log(event: IngestProgress) -> None:
            if event.chunks_total:  # a long file, while its chunks are embedded
                where = f"[{event.files_done + 1}/{event.files_total}] {escape(event.source)}"
                line = f"{where} · chunks {event.chunks_done}/{event.chunks_total}"
            else:
                line = f"[{event.files_done}/{event.files_total}] {escape(event.source)}"
            errors.print(f"[dim]{line}[/]", highlight=False)

        yield log
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task("取り込み中 / ingesting", total=None)

        def advance(event: IngestProgress) -> None:
            chunks = f" ({event.chunks_done}/{event.chunks_total} chunks)" if event.chunks_total else ""
            description = escape(event.source + chunks)
            bar.update(task, completed=event.files_done, total=event.files_total, description=description)

        yield advance


@kb_app.command("ingest")
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories (walked recursively).")],
    collection: Annotated[str, typer.Option("--collection", "-c", help="The collection to ingest into.")],
    workspace_root: WorkspaceRoot = None,
    as_json: AsJson = False,
) -> None:
    """Ingest documents into a collection; unchanged files are skipped, removed ones deleted."""
    with open_knowledge_service(workspace_root) as service, ingest_progress() as progress:
        report = service.ingest(paths, collection, progress=progress)
    if as_json:
        print_json(report.model_dump(mode="json"))
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
    with open_knowledge_service(workspace_root) as service:
        found = service.collection_details()
    if as_json:
        print_json([info.model_dump(mode="json") for info in found])
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
    with open_knowledge_service(workspace_root) as service:
        service.delete_collection(name)
    console.print(f"deleted collection [bold]{escape(name)}[/]", highlight=False)


# --- asking: kb ask, kb chat, kb unanswered ---


class AnswerFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


Collections = Annotated[
    list[str], typer.Option("--collection", "-c", help="A collection to search (repeat for several).")
]
Model = Annotated[
    str | None, typer.Option("--model", help="offline or provider:model (default: BUNSEKI_MODEL, else offline).")
]


@kb_app.command("ask")
def ask(
    question: Annotated[str | None, typer.Argument(help="The question (or --batch FILE).")] = None,
    collection: Collections = [],  # noqa: B006  (Typer reads the default; it is never mutated)
    model: Model = None,
    output: Annotated[
        AnswerFormat | None, typer.Option("--format", help="text or json; jsonl for --batch (its default).")
    ] = None,
    batch: Annotated[
        Path | None,
        typer.Option("--batch", dir_okay=False, help='A JSONL file of {"id", "question"} lines; one answer line each.'),
    ] = None,
    workspace_root: WorkspaceRoot = None,
) -> None:
    """Answer a question from the collections, citing the passages it rests on."""
    if (question is None) == (batch is None):
        raise fail_usage("give a QUESTION or --batch FILE, not both")
    if not collection:
        raise fail_usage("choose at least one --collection NAME (bunseki kb collections lists them)")
    if batch is not None:
        if output not in (None, AnswerFormat.jsonl):
            raise fail_usage("--batch writes one JSON object per line: use --format jsonl")
        if not batch.is_file():
            raise fail_usage(f"{batch} is not a file")
        with open_knowledge_service(workspace_root) as service:
            failed = ask_batch(service, batch, collection, model)
        if failed:
            errors.print(f"[yellow]{failed} question(s) failed; see their status and answer[/]", highlight=False)
        return
    chosen = output or AnswerFormat.text
    if chosen is AnswerFormat.jsonl:
        raise fail_usage("--format jsonl is for --batch; use text or json")
    assert question is not None
    with open_knowledge_service(workspace_root) as service:
        answer = service.ask(question, collection, model)
    if chosen is AnswerFormat.json:
        print_json(run_json(answer.model_dump(mode="json"), answer.reason or answer.answer))
    else:
        print_answer(answer)
    if answer.status == "error":
        raise typer.Exit(EXIT_FAILED)


def ask_batch(service: KnowledgeService, path: Path, collections: list[str], model: str | None) -> int:
    """Answer every line of ``path`` in this process, writing one JSON line each; returns how many failed."""
    from bunseki.service.knowledge import error_answer

    failed = 0
    with path.open(encoding="utf-8-sig") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            item_id: object = number
            question = ""
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise InputError(f"line {number} is not a JSON object")
                item_id = item.get("id", number)
                question = str(item.get("question") or "")
                answer = service.ask(question, collections, model)
            except (BunsekiError, ValueError) as exc:
                problem = exc if isinstance(exc, BunsekiError) else InputError(f"line {number}: {exc}")
                answer = error_answer(question, collections, model or service.settings.model, problem)
            except Exception as exc:  # a failing question never stops the batch
                answer = error_answer(question, collections, model or service.settings.model, exc)
            failed += answer.status == "error"
            record = {"id": item_id, **answer.model_dump(mode="json")}
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
            sys.stdout.flush()
    return failed


def print_answer(answer: Answer) -> None:
    """The answer, its citations, and the thought process, for a terminal."""
    colour = {"answered": "green", "unanswered": "yellow", "error": "red"}[answer.status]
    console.print(f"[bold {colour}]{answer.status}[/] [dim]({escape(answer.model)}, {answer.elapsed_ms} ms)[/]")
    console.print(escape(answer.answer), highlight=False)
    for position, citation in enumerate(answer.citations, start=1):
        where = citation.source + (f" › {citation.heading}" if citation.heading else "")
        label = f"\\[{citation.number or position}]"  # the [n] the answer cites it by
        console.print(f"  [cyan]{label}[/] {escape(where)} [dim]({escape(citation.chunk_id)})[/]", highlight=False)
    if answer.reason and answer.status != "answered":
        console.print(f"[dim]reason: {escape(answer.reason)}[/]", highlight=False)
    if answer.thoughts:
        console.print("[dim]思考プロセス / thought process:[/]")
        for thought in answer.thoughts:
            detail = (
                f"{thought.tool}({json.dumps(thought.arguments, ensure_ascii=False)})"
                if thought.kind == "tool_call"
                else " ".join(thought.content.split())[:200]
            )
            console.print(f"[dim]  {thought.step}. {thought.kind}: {escape(detail)}[/]", highlight=False)
    if (line := usage_line(answer.usage)) is not None:
        console.print(line, highlight=False)


@kb_app.command("chat")
def chat(
    collection: Collections = [],  # noqa: B006  (Typer reads the default; it is never mutated)
    model: Model = None,
    resume: Annotated[
        str | None,
        typer.Option("--conversation", help="Resume this conversation (its id is printed when a chat starts)."),
    ] = None,
    workspace_root: WorkspaceRoot = None,
) -> None:
    """Talk with the knowledge base: each line is a question; /clear forgets the history, /quit leaves.

    The conversation is kept in the workspace's store: --conversation ID resumes it later."""
    if not collection and resume is None:
        raise fail_usage("choose at least one --collection NAME (bunseki kb collections lists them)")
    with open_knowledge_service(workspace_root) as service:
        try:
            conversation = service.chat(collection, model, conversation_id=resume)
        except BunsekiError as exc:
            errors.print(f"[bold red]{type(exc).__name__}:[/] {escape(str(exc))}")
            raise typer.Exit(1) from None
        errors.print(
            f"会話 / conversation {conversation.conversation_id}（{len(conversation.history())} turns）",
            highlight=False,
        )
        errors.print("質問をどうぞ。/clear で履歴を消去、/quit で終了。Ask away; /clear, /quit.", highlight=False)
        while True:
            errors.print("> ", end="")
            line = sys.stdin.readline()
            if not line:
                break
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit"):
                break
            if text == "/clear":
                conversation.clear()
                console.print("履歴を消去しました。 / history cleared.")
                continue
            try:
                answer = conversation.ask(text)
            except BunsekiError as exc:
                errors.print(f"[bold red]{type(exc).__name__}:[/] {escape(str(exc))}")
                continue
            print_answer(answer)


@kb_app.command("unanswered")
def unanswered(
    as_csv: Annotated[
        bool, typer.Option("--csv", help="Write CSV (created_at, question, collections, reason).")
    ] = False,
    workspace_root: WorkspaceRoot = None,
    as_json: AsJson = False,
) -> None:
    """Questions the knowledge chat could not answer, oldest first."""
    from bunseki.service.knowledge import KnowledgeService

    with KnowledgeService(settings_for(workspace_root)) as service:
        if as_csv:
            sys.stdout.write(service.unanswered_csv())
            return
        items = service.unanswered()
    if as_json:
        print_json([item.model_dump(mode="json") for item in items])
        return
    if not items:
        console.print("[dim]未回答の質問はありません / no unanswered questions[/]")
        return
    table = Table("time", "question", "collections", "reason")
    for item in items:
        table.add_row(
            item.created_at.strftime("%Y-%m-%d %H:%M"),
            escape(item.question),
            escape(", ".join(item.collections)),
            escape(item.reason),
        )
    console.print(table)
