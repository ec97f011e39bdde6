"""How ``bunseki sessions show`` prints what turns cost, and ``bunseki sessions trace`` a turn's trace;
the one line of usage that EDA runs, knowledge answers and investigations print."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from bunseki.domain import Turn, TurnUsage, total
from bunseki.domain.usage import describe


def usage_table(turns: list[Turn]) -> Table:
    """One row per turn and a total: model, calls, tokens, seconds waiting for the model, cost."""
    table = Table(title="model usage / モデルの利用", title_justify="left")
    for header in ("#", "status", "model", "calls", "prompt + completion tokens", "seconds", "cost"):
        table.add_column(header, justify="right" if header in ("#", "calls", "seconds", "cost") else "left")
    for turn in turns:
        table.add_row(str(turn.number), turn.status, *_cells(turn.usage))
    summed = session_usage(turns)
    if summed is not None:
        table.add_section()
        table.add_row("", "total", *_cells(summed))
    return table


def session_usage(turns: list[Turn]) -> TurnUsage | None:
    """The session's usage: its turns' summed (those recorded with usage)."""
    return total(turn.usage for turn in turns if turn.usage is not None)


def usage_line(usage: TurnUsage | None) -> str | None:
    """ "model usage / モデルの利用: openai:… · 123 + 45 tokens · 2 calls · 3.1 s · $0.0004" (or offline);
    None when it is not known (a run still going, or recorded before usage was)."""
    if usage is None:
        return None
    line = describe(usage) if usage.offline else f"{usage.model} · {describe(usage)}"
    return f"[dim]model usage / モデルの利用: {escape(line)}[/]"


def _cells(usage: TurnUsage | None) -> list[str]:
    if usage is None:
        return ["—", "", "", "", ""]
    if usage.offline:
        return ["offline", "—", "no model ran", "—", "—"]
    cost = usage.cost_text or "—"
    tokens = f"{usage.prompt_tokens:,} + {usage.completion_tokens:,}"
    return [escape(usage.model), str(usage.calls), tokens, f"{usage.seconds:.1f}", cost]


def trace_tree(trace: dict[str, Any], *, label: str = "turn") -> Tree:
    """The trace as a tree: each node with the model calls and executions that started in it."""
    head = (
        f"[bold]{label} {trace['turn']}[/] · {trace['status']} · {escape(str(trace['model']))} · "
        f"{trace['seconds']:.2f} s · {escape(_clip(str(trace.get('question') or '')))}"
    )
    tree = Tree(head)
    items = [("call", call) for call in trace["model_calls"]] + [("run", run) for run in trace["executions"]]
    placed: set[int] = set()
    for node in trace["nodes"]:
        end = node["start_s"] + node["seconds"]
        mark = f" [red]✗ {escape(node['error'])}[/]" if node.get("error") else ""
        branch = tree.add(f"{node['start_s']:7.2f} s  [cyan]{node['name']}[/]  {node['seconds']:.2f} s{mark}")
        for index, (kind, item) in enumerate(items):
            if index not in placed and node["start_s"] <= item["start_s"] <= end:
                placed.add(index)
                branch.add(_call(item) if kind == "call" else _run(item))
    rest = [(kind, item) for index, (kind, item) in enumerate(items) if index not in placed]
    if rest:
        outside = tree.add("[dim]outside the graph's nodes[/]")
        for kind, item in rest:
            outside.add(_call(item) if kind == "call" else _run(item))
    if trace["errors"]:
        errors = tree.add("[red]errors[/]")
        for error in trace["errors"]:
            errors.add(f"{error['at_s']:7.2f} s  {escape(str(error['where']))}: {escape(error['message'])}")
    return tree


def _call(call: dict[str, Any]) -> str:
    text = (
        f"{call['start_s']:7.2f} s  model call  {call['seconds']:.2f} s · prompt {call['prompt_chars']:,} chars · "
        f"{call['prompt_tokens']:,} + {call['completion_tokens']:,} tokens"
    )
    return text + (f" [red]✗ {escape(call['error'])}[/]" if call.get("error") else "")


def _run(run: dict[str, Any]) -> str:
    mark = "[green]✓[/]" if run["ok"] else f"[red]✗ {escape(str(run.get('error') or ''))}[/]"
    return f"{run['start_s']:7.2f} s  {run['kind']} {escape(run['name'])}  {run['seconds']:.2f} s {mark}"


def _clip(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"
