"""``bunseki serve``: the REST API under uvicorn."""

from __future__ import annotations

import ipaddress
from typing import Annotated

import typer

from bunseki.cli.app import WorkspaceRoot, app, errors, fail_usage, settings_for


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; anything but loopback needs API keys.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    single_user: Annotated[
        bool,
        typer.Option("--single-user", help="No API keys: you are the only user. Only on a loopback address."),
    ] = False,
    workspace_root: WorkspaceRoot = None,
) -> None:
    """Serve the REST API (OpenAPI at /docs); keys come from `bunseki users create NAME`."""
    import uvicorn

    from bunseki.api import create_app

    settings = settings_for(workspace_root)
    if single_user:
        settings = settings.model_copy(update={"api_single_user": True})
    if settings.api_single_user and not is_loopback(host):
        raise fail_usage(
            f"single-user mode (no API keys) only listens on loopback, not {host}: "
            "use --host 127.0.0.1, or create keys with `bunseki users create NAME`"
        )
    if settings.sandbox_backend == "ray":  # sessions restart on any node: their workspaces must be shared
        from bunseki.service.shared_root import check_shared_root

        for warning in check_shared_root(settings.workspace_root, nodes=None):
            errors.print(warning, markup=False, highlight=False)
    mode = "single-user, no keys" if settings.api_single_user else "API keys required"
    errors.print(f"Bunseki API on http://{host}:{port} ({mode}); docs at /docs")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info", proxy_headers=False)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
