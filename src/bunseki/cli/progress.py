"""Progress on stderr: what a node that starts does, how a step ended; for a turn, a spinner on a
terminal and one line per step in logs and pipes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rich.markup import escape
from rich.status import Status

from bunseki.cli.app import errors
from bunseki.domain import Event

STEP_WORDS = {
    "reason": "考えています / reasoning",
    "code_exec": "コードを実行しています / running code",
    "tool_exec": "データを操作しています / applying a data tool",
    "report": "レポートを書いています / writing the report",
}


def doing(words: Mapping[str, str], event: Event) -> str:
    """What the node a ``node_started`` event names does, in ``words`` (else the node's name)."""
    node = str(event.get("node"))
    return words.get(node, node)


def mark(success: object) -> str:
    """A green tick for a step that succeeded, a red cross for one that failed."""
    return "[green]✓[/]" if success else "[red]✗[/]"


class TurnProgress:
    """Turns the service's progress events into what a person watching a terminal needs."""

    def __init__(self, status: Status | None) -> None:
        self.status = status

    def __call__(self, event: Event) -> None:
        kind = event.get("event")
        if kind == "node_started":
            step = doing(STEP_WORDS, event)
            if self.status is not None:
                self.status.update(step)
            else:
                errors.print(f"[dim]… {step}[/]")
        elif kind == "decision" and event.get("instruction"):
            errors.print(f"[dim]• {escape(str(event['instruction']))}[/]")
        elif kind == "execution":
            errors.print(f"[dim]  {mark(event.get('success'))} cell ran[/]")
        elif kind == "tool":
            errors.print(
                f"[dim]  {mark(event.get('success'))} {escape(str(event.get('summary') or event.get('tool')))}[/]"
            )


@contextmanager
def turn_progress() -> Iterator[TurnProgress]:
    """A progress callback, with a spinner while it is in use when stderr is a terminal."""
    if not errors.is_terminal:
        yield TurnProgress(None)
        return
    with errors.status("…") as status:
        yield TurnProgress(status)
