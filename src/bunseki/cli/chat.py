"""``bunseki chat``: a conversation with the analyst in the terminal, kept as a session."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape

from bunseki.cli.app import app, console, errors, fail_usage, open_service
from bunseki.cli.outcomes import UsageProblem, error_object
from bunseki.cli.progress import turn_progress
from bunseki.cli.render import copy_export, data_table, snapshots_table, steps_table
from bunseki.domain import Session
from bunseki.service import AnalysisService, TurnResult

HELP = """\
[bold]コマンド / commands[/]
  /data                 今のデータの概要 / the active data
  /steps                データへの操作の履歴 / steps applied to the data
  /snapshot NAME        今のデータを保存 / save the active data
  /snapshots            保存したスナップショット / saved snapshots
  /restore NAME         スナップショットに戻す / make a snapshot the active data
  /reset                元のデータに戻す / back to the original data
  /export FORMAT [PATH] [--force]
                        md, html, ipynb (レポート / report) か csv, parquet (データ / data);
                        既存のファイルは --force のときだけ上書き / overwrites only with --force
  /history              これまでの会話 / the conversation so far
  /help                 この一覧 / this list
  /quit                 終了 (Ctrl-D) / leave; the session is kept
それ以外の入力は質問として分析します。Anything else is a question for the analyst."""


@app.command("chat")
def chat(
    data_file: Annotated[
        Path | None,
        typer.Argument(exists=True, dir_okay=False, readable=True, help="CSV, TSV, Excel or Parquet."),
    ] = None,
    session: Annotated[str | None, typer.Option("--session", help="Resume a session (its id or id prefix).")] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="provider:model for a new session (default: BUNSEKI_MODEL).")
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="A name for a new session.")] = None,
    sheet: Annotated[
        str | None, typer.Option("--sheet", help="The sheet of a workbook to analyse (default: the first).")
    ] = None,
    workspace_root: Annotated[
        Path | None, typer.Option("--workspace-root", file_okay=False, help="Where workspaces are created.")
    ] = None,
) -> None:
    """Talk about DATA_FILE with the analyst, or resume one with --session ID.

    Every message, data step, snapshot and report is saved as it happens; `bunseki sessions`
    lists, shows, exports and deletes sessions.
    """
    if data_file is None and session is None:
        raise fail_usage(
            "nothing to talk about yet: give a DATA_FILE to start a session (bunseki chat sales.csv) "
            "or --session ID to resume one (bunseki sessions list shows them)"
        )
    if data_file is not None and session is not None:
        raise fail_usage(
            f"give DATA_FILE ({data_file}) for a new session or --session ID ({session}) to resume one, not both"
        )
    # Refusals before the conversation starts (unreadable data, no such session) reach the
    # application's one error handler; once it runs, _guarded keeps it going.
    with open_service(workspace_root) as service:
        record = _open(service, data_file, session, model, title, sheet)
        _greet(service, record, resumed=session is not None)
        _loop(service, record)


def _open(
    service: AnalysisService,
    data_file: Path | None,
    session: str | None,
    model: str | None,
    title: str | None,
    sheet: str | None = None,
) -> Session:
    if data_file is not None:
        with errors.status("データを読み込んでいます / loading the data"):
            return service.create_session(data_file, title=title, model=model, sheet=sheet)
    assert session is not None
    return service.find_session(session)


def _greet(service: AnalysisService, record: Session, *, resumed: bool) -> None:
    shape = f"{record.dataset_rows:,} 行 × {record.dataset_columns} 列"
    console.print(
        f"[bold]Bunseki[/] — session [cyan]{record.id[:8]}[/] · {escape(record.title)} "
        f"({escape(record.dataset_name)}, {shape}, model {escape(record.model)})"
    )
    if resumed:
        earlier = service.messages(record.id)[-6:]
        if earlier:
            console.print("[dim]前回までの会話 / earlier in this session:[/]")
            for message in earlier:
                who = "あなた" if message.role == "user" else "Bunseki"
                console.print(f"[dim]  {who}: {escape(_one_line(message.content))}[/]")
    overview = service.data_state(record.id)
    console.print(f"[dim]データ / data: {escape(overview['state'])}[/]")
    for note in overview["notes"]:
        console.print(f"[dim]  ・{escape(note)}[/]")
    console.print("[dim]質問を入力してください（/help でコマンド一覧、/quit で終了）。[/]")
    console.print("[dim]Ask a question; /help lists the commands, /quit leaves.[/]")


def _loop(service: AnalysisService, record: Session) -> None:
    commands = Commands(service, record)
    while True:
        try:
            line = console.input("[bold green]> [/]").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        if line in ("/quit", "/exit", "/q"):
            break
        if line.startswith("/"):
            name, *arguments = _split(line)
            handler = commands.handler(name)
            if handler is None:
                errors.print(f"[red]知らないコマンドです / unknown command: {escape(name)}[/] (/help)")
            else:
                _guarded(handler, arguments)
        elif line:
            _guarded(lambda question: _turn(service, record, question), line)
    console.print(f"[dim]保存しました / saved. 再開 / resume: bunseki chat --session {record.id[:8]}[/]")


def _turn(service: AnalysisService, record: Session, question: str) -> None:
    try:
        with turn_progress() as progress:
            result = service.run_turn(record.id, question, on_event=progress)
    except KeyboardInterrupt:
        errors.print("[yellow]中断しました。データはこの質問の前の状態のままです / interrupted.[/]")
        return
    _show(result)


def _show(result: TurnResult) -> None:
    if result.report_text is not None:  # the code is in the saved report; the terminal shows the answer
        console.print(Markdown(result.report_text))
    elif result.question:
        console.print(result.question)
    if result.error:
        errors.print(f"[red]{escape(result.error)}[/]")
    for path in result.artifacts:
        console.print(f"[dim]  file: {escape(str(path))}[/]", soft_wrap=True)
    if result.report_path:
        console.print(f"[dim]  report: {escape(str(result.report_path))}[/]", soft_wrap=True)
    if result.data_state:
        console.print(f"[dim]データ / data: {escape(result.data_state)}[/]")


class Commands:
    """The slash commands of a chat, each taking the words after its name."""

    def __init__(self, service: AnalysisService, record: Session) -> None:
        self.service = service
        self.record = record
        self.id = record.id

    def handler(self, name: str) -> Callable[[list[str]], None] | None:
        method = getattr(self, "do_" + name.removeprefix("/").replace("-", "_"), None)
        return method if callable(method) else None

    def do_data(self, _: list[str]) -> None:
        console.print(data_table(self.service.data_state(self.id)))

    def do_steps(self, _: list[str]) -> None:
        found = self.service.steps(self.id)
        console.print(steps_table(found) if found else "[dim]まだ操作はありません / no steps yet[/]")

    def do_snapshot(self, arguments: list[str]) -> None:
        if not arguments:
            raise fail_usage("/snapshot NAME")
        saved = self.service.snapshot(self.id, " ".join(arguments))
        console.print(f"保存しました / saved: {escape(saved.name)} ({saved.rows:,} 行 × {saved.columns} 列)")

    def do_snapshots(self, _: list[str]) -> None:
        found = self.service.snapshots(self.id)
        console.print(
            snapshots_table(found) if found else "[dim]スナップショットはまだありません / no snapshots yet[/]"
        )

    def do_restore(self, arguments: list[str]) -> None:
        if not arguments:
            raise fail_usage("/restore NAME")
        chosen = self.service.find_snapshot(self.id, " ".join(arguments))
        self.service.restore(self.id, chosen.id)
        console.print(f"戻しました / restored: {escape(self.service.data_state(self.id)['state'])}")

    def do_reset(self, _: list[str]) -> None:
        self.service.reset(self.id)
        console.print(f"戻しました / reset: {escape(self.service.data_state(self.id)['state'])}")

    def do_export(self, arguments: list[str]) -> None:
        force = "--force" in arguments
        words = [word for word in arguments if word != "--force"]
        if not words or len(words) > 2:
            raise fail_usage("/export md|html|ipynb|csv|parquet [PATH] [--force]")
        target = Path(words[1]).expanduser() if len(words) > 1 else None
        written = copy_export(self.service, self.record, words[0], target, force=force)
        if written is not None:
            console.print(f"書き出しました / written: {escape(str(written))}", soft_wrap=True)

    def do_history(self, _: list[str]) -> None:
        for message in self.service.messages(self.id):
            who = "[bold green]あなた[/]" if message.role == "user" else "[bold]Bunseki[/]"
            console.print(f"{who}: {escape(message.content)}")

    def do_help(self, _: list[str]) -> None:
        console.print(HELP)


def _guarded(action: Callable[[Any], None], argument: Any) -> None:
    """Run one request; whatever goes wrong is printed as one line and the conversation goes on."""
    try:
        action(argument)
    except typer.Exit:
        pass  # the command printed its own message
    except UsageProblem as exc:
        errors.print(f"[bold red]使い方 / usage:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
    except Exception as exc:  # the session must outlive any one request, a bug included
        shown = error_object(exc)["error"]
        errors.print(f"[bold red]{shown['type']}:[/] {escape(shown['message'])}", highlight=False, soft_wrap=True)


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        return line.split()


def _one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
