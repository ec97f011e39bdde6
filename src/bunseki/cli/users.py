"""``bunseki users create|list|revoke``: who may use the REST API."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from bunseki.cli.app import WorkspaceRoot, app, console, errors, open_service, print_json

users_app = typer.Typer(help="API users and their keys (for `bunseki serve`).", no_args_is_help=True)
app.add_typer(users_app, name="users")

Name = Annotated[str, typer.Argument(help="The user's name (letters, digits, . _ @ + -).")]


@users_app.command("create")
def create(
    name: Name, workspace_root: WorkspaceRoot = None, as_json: Annotated[bool, typer.Option("--json")] = False
) -> None:
    """Create a user and print their API key: it is shown this once and only its hash is kept."""
    with open_service(workspace_root) as service:
        user, key = service.accounts.create(name)
    if as_json:
        print_json({"id": user.id, "name": user.name, "key": key})
        return
    errors.print(f"created user [bold]{escape(user.name)}[/] ({user.id}); their API key, shown only now:")
    typer.echo(key)  # alone on stdout, so that `KEY=$(bunseki users create NAME)` works
    errors.print("[dim]send it as 'Authorization: Bearer <key>'[/]")


@users_app.command("list")
def list_users(workspace_root: WorkspaceRoot = None, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Every user, with the start of their key and whether it was revoked."""
    with open_service(workspace_root) as service:
        users = service.accounts.list()
    if as_json:
        print_json([user.model_dump(mode="json") for user in users])
        return
    if not users:
        console.print("[dim]no users yet: bunseki users create NAME[/]")
        return
    table = Table("name", "id", "key", "created", "revoked")
    for user in users:
        revoked = f"{user.revoked_at.astimezone():%Y-%m-%d %H:%M}" if user.revoked_at else ""
        key = f"{user.key_prefix}…" if user.key_prefix else ""
        table.add_row(user.name, user.id[:8], key, f"{user.created_at.astimezone():%Y-%m-%d %H:%M}", revoked)
    console.print(table)


@users_app.command("revoke")
def revoke(name: Name, workspace_root: WorkspaceRoot = None) -> None:
    """Revoke a user's key for good; their sessions stay, reachable by nobody through the API."""
    with open_service(workspace_root) as service:
        service.accounts.revoke(name)
    console.print(f"revoked {escape(name)}")
