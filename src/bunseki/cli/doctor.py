"""``bunseki doctor``: what this machine offers Bunseki, and what to fix."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from bunseki.cli.app import EXIT_FAILED, EXIT_OK, app, console, print_json
from bunseki.service.doctor import machine_facts, usable
from bunseki.settings import Settings


@app.command("doctor")
def doctor(as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False) -> None:
    """Show the sandbox isolation tier in use here and why, the limits, and the environment."""
    facts = machine_facts(Settings())
    if as_json:
        print_json(facts)
    else:
        _show(facts)
    raise typer.Exit(EXIT_OK if usable(facts) else EXIT_FAILED)


def _show(facts: dict[str, Any]) -> None:
    isolation = facts["isolation"]
    tier = isolation["tier"]
    colour = {"bwrap": "green", "landlock": "yellow", "unsafe": "red"}.get(tier, "red")
    console.print(f"[bold]Sandbox isolation:[/] [{colour}]{tier or 'UNAVAILABLE'}[/]")
    console.print(f"  why: {escape(isolation['reason'])}")
    console.print(
        f"  generated code runs as uid {isolation['run_as_uid']}; seccomp filter: "
        f"{'on' if isolation['seccomp'] else 'off'}"
    )
    checks = Table("probe", "finding", show_header=True, box=None, padding=(0, 2))
    for name, finding in isolation["checks"].items():
        checks.add_row(name, escape(finding))
    console.print(checks)
    limits = facts["limits"]
    console.print(
        f"[bold]Limits per cell:[/] {limits['timeout_s']:g} s wall, {limits['cpu_s']:g} s CPU, "
        f"{limits['memory_mb']} MB memory, {limits['max_processes']} processes, "
        f"{limits['output_bytes']:,} bytes of output per stream, {limits['max_artifacts']} artifacts "
        f"of ≤ {limits['max_artifact_mb']} MB, {limits['disk_mb']} MB of files"
    )
    console.print(f"[bold]Python:[/] {escape(facts['python'])}")
    console.print(f"[bold]Platform:[/] {escape(facts['platform'])}")
    console.print(f"[bold]Workspace root:[/] {escape(facts['workspace_root'])}")
    if facts["workspace_staging"]:
        console.print(f"  [yellow]{escape(facts['workspace_staging'])}[/]")
    console.print(f"[bold]Japanese font:[/] {escape(facts['japanese_font'])}")
    pool = facts["warm_pool"]
    if pool is not None:
        measured = (
            f"a start takes {pool['start_s'] * 1000:.0f} ms; an idle warm sandbox holds "
            f"{pool['worker_rss_mb']:g} MB resident ({pool['worker_pss_mb']:g} MB its own share)"
            + (f", the zygote it is forked from {pool['zygote_pss_mb']:g} MB" if pool["zygote"] else "")
            + f"; the pool ≈ {pool['pool_pss_mb']:g} MB"
            if not pool["error"]
            else f"could not start one to measure: {pool['error']}"
        )
        console.print(f"[bold]Warm pool (servers):[/] {pool['size']} sandboxes; {escape(measured)}")
    backend = facts["sandbox_backend"]
    if backend["ok"]:
        console.print(
            f"[bold]Sandbox backend:[/] {escape(backend['backend'])}: {backend['sessions']} sessions, "
            f"{backend['warm']} warm"
        )
    else:
        reason = escape(f"{backend['backend']}: {backend['error']}")
        console.print(f"[bold]Sandbox backend:[/] [red]{reason}[/]")
