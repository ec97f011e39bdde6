"""``bunseki ui``: the web UI, served by Streamlit on this machine."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from bunseki.cli.app import app, errors
from bunseki.ui import APP

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8501


def streamlit_command(host: str, port: int) -> list[str]:
    """The Streamlit server for the UI: headless (opens no browser), no usage statistics, no file
    watching, no developer menu."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--client.toolbarMode",
        "minimal",
        "--browser.serverAddress",
        host,
        "--browser.serverPort",
        str(port),
    ]


@app.command("ui")
def ui(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 for every interface).")] = (
        DEFAULT_HOST
    ),
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = DEFAULT_PORT,
) -> None:
    """Start the web UI: upload a table, ask, watch the analyst work, download the report.

    Open http://HOST:PORT in a browser. Settings come from the same BUNSEKI_* variables as the
    other commands; Ctrl-C stops the server (sessions stay saved).
    """
    errors.print(f"Bunseki UI: http://{host}:{port}  (Ctrl-C で終了 / to stop)", highlight=False)
    command = streamlit_command(host, port)
    sys.stdout.flush()
    sys.stderr.flush()
    # Become the server: signals (Ctrl-C, a service manager's SIGTERM) reach Streamlit itself.
    os.execv(command[0], command)  # noqa: S606  (an argument list, never a shell)
