"""Turn progress on stderr: a spinner on a terminal, one line per step in logs and pipes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.markup import escape
from rich.status import Status

from bunseki.cli.app import errors
from bunseki.service import Event

STEP_WORDS = {
    "reason": "考えています / reasoning",
    "code_exec": "コードを実行しています / running code",
    "tool_exec": "データを操作しています / applying a data tool",
    "report": "レポートを書いています / writing the report",
}


class TurnProgress:
    """Turns the service's progress events into what a person watching a terminal needs."""

    def __init__(self, status: Status | None) -> None:
        self.status = status

    def __call__(self, event: Event) -> None:
        kind = event.get("event")
        if kind == "node_started":
            step = STEP_WORDS.get(str(event.get("node")), str(event.get("node")))
            if self.status is not None:
                self.status.update(step)
            else:
                errors.print(f"[dim]… {step}[/]")
        elif kind == "decision" and event.get("instruction"):
            errors.print(f"[dim]• {escape(str(event['instruction']))}[/]")
        elif kind == "execution":
            mark = "[green]✓[/]" if event.get("success") else "[red]✗[/]"
            errors.print(f"[dim]  {mark} cell ran[/]")
        elif kind == "tool":
            mark = "[green]✓[/]" if event.get("success") else "[red]✗[/]"
            errors.print(f"[dim]  {mark} {escape(str(event.get('summary') or event.get('tool')))}[/]")


@contextmanager
def turn_progress() -> Iterator[TurnProgress]:
    """A progress callback, with a spinner while it is in use when stderr is a terminal."""
    if not errors.is_terminal:
        yield TurnProgress(None)
        return
    with errors.status("…") as status:
        yield TurnProgress(status)
