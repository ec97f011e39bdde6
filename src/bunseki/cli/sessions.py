"""``bunseki sessions list|show|trace|delete|export``: the saved conversations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bunseki.cli.app import EXIT_FAILED, WorkspaceRoot, app, console, errors, fail_usage, open_service, print_json
from bunseki.cli.render import EXPORT_FORMATS, copy_export, data_table, sessions_table, steps_table
from bunseki.cli.traces import session_usage, trace_tree, usage_table
from bunseki.errors import NotFound

sessions_app = typer.Typer(help="List, show, export and delete saved sessions.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")

SessionId = Annotated[str, typer.Argument(help="The session's id, or the start of it (4+ characters).")]
# What `show --json` prints of each turn: its number, how it ended and what it cost (its question is
# among the messages; its trace is `trace`'s).
TURN_FIELDS = {"id", "number", "status", "usage"}
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@sessions_app.command("list")
def list_sessions(workspace_root: WorkspaceRoot = None, as_json: AsJson = False) -> None:
    """The saved sessions, newest first."""
    with open_service(workspace_root) as service:
        found = service.list_sessions()
    if as_json:
        print_json([record.model_dump(mode="json") for record in found])
    elif not found:
        console.print("[dim]セッションはまだありません / no sessions yet: bunseki chat DATA_FILE[/]")
    else:
        console.print(sessions_table(found))


@sessions_app.command("show")
def show(session: SessionId, workspace_root: WorkspaceRoot = None, as_json: AsJson = False) -> None:
    """A session: its data state, messages, steps, snapshots, reports and what each turn cost."""
    with open_service(workspace_root) as service:
        record = service.find_session(session)
        details: dict[str, Any] = {
            "session": record.model_dump(mode="json"),
            "data": service.data_state(record.id),
            "messages": [m.model_dump(mode="json") for m in service.messages(record.id)],
            "steps": [s.model_dump(mode="json") for s in service.steps(record.id)],
            "snapshots": [s.model_dump(mode="json") for s in service.snapshots(record.id)],
            "reports": [r.model_dump(mode="json", exclude={"content"}) for r in service.reports(record.id)],
        }
        steps = service.steps(record.id)
        turns = service.turns(record.id)
        summed = session_usage(turns)
        details["turns"] = [turn.model_dump(mode="json", include=TURN_FIELDS) for turn in turns]
        details["usage"] = summed.model_dump(mode="json") if summed else None
    if as_json:
        print_json(details)
        return
    console.print(
        f"[bold]{escape(record.title)}[/] [cyan]{record.id}[/]\n"
        f"data: {escape(record.dataset_name)} ({record.dataset_rows:,} 行 × {record.dataset_columns} 列) · "
        f"model: {escape(record.model)} · workspace: {escape(record.workspace)}"
    )
    console.print(data_table(details["data"]))
    for message in details["messages"]:
        who = "[bold green]あなた[/]" if message["role"] == "user" else "[bold]Bunseki[/]"
        console.print(f"{who}: {escape(message['content'])}")
    if steps:
        console.print(steps_table(steps))
    for snapshot in details["snapshots"]:
        console.print(f"snapshot [cyan]{snapshot['id'][:8]}[/] {escape(snapshot['name'])} ({snapshot['rows']:,} 行)")
    for report in details["reports"]:
        console.print(f"report: {escape(report['title'])} → {escape(str(report['markdown_path']))}", soft_wrap=True)
    if turns:
        console.print(usage_table(turns))


@sessions_app.command("trace")
def trace(
    session: SessionId,
    turn: Annotated[
        int | None, typer.Option("--turn", "-t", min=1, help="The turn's number (default: the latest).")
    ] = None,
    workspace_root: WorkspaceRoot = None,
    as_json: AsJson = False,
) -> None:
    """What a turn did: its nodes, model calls (prompt size, tokens, latency), cells, tools and errors."""
    with open_service(workspace_root) as service:
        record = service.find_session(session)
        found = service.trace(record.id, turn)
    if as_json:
        print_json(found)
    else:
        console.print(trace_tree(found))


@sessions_app.command("delete")
def delete(
    session: SessionId,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    workspace_root: WorkspaceRoot = None,
) -> None:
    """Delete a session, its records and its workspace."""
    with open_service(workspace_root) as service:
        record = service.find_session(session)
        if not yes and not typer.confirm(f"Delete session {record.id[:8]} ({record.title}) and its files?"):
            raise typer.Exit(EXIT_FAILED)
        service.delete_session(record.id)
    console.print(f"deleted {record.id}")


@sessions_app.command("export")
def export(
    session: SessionId,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md, html, ipynb (report) or csv, parquet (data).")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File or folder to write; '-' for stdout (default: here).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the file if it exists.")] = False,
    workspace_root: WorkspaceRoot = None,
) -> None:
    """Export the latest report (md, html, ipynb) or the current data (csv, parquet)."""
    if fmt not in EXPORT_FORMATS:
        raise fail_usage(f"--format must be one of {', '.join(EXPORT_FORMATS)}")
    with open_service(workspace_root) as service:
        record = service.find_session(session)
        try:
            written = copy_export(service, record, fmt, output, force=force)
        except NotFound as exc:
            raise NotFound(f"session {record.id[:8]}: {exc}") from exc
    if written is not None:
        errors.print(f"written: {escape(str(written))}", soft_wrap=True)
