"""``bunseki ui``: the Streamlit server it starts (the browser test in tests/ui runs it for real)."""

from __future__ import annotations

import sys

from typer.testing import CliRunner

from bunseki.cli import app
from bunseki.cli.ui import streamlit_command
from bunseki.ui import APP


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_server_is_headless_local_and_sends_no_statistics() -> None:
    command = streamlit_command("127.0.0.1", 8501)
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", str(APP)]
    assert APP.is_file() and (APP.parent / "app_pages" / "analysis.py").is_file()
    assert option(command, "--server.address") == "127.0.0.1"
    assert option(command, "--server.port") == "8501"
    assert option(command, "--server.headless") == "true"
    assert option(command, "--browser.gatherUsageStats") == "false"
    other = streamlit_command("0.0.0.0", 9000)
    assert (option(other, "--server.address"), option(other, "--server.port")) == ("0.0.0.0", "9000")


def test_host_and_port_default_to_127_0_0_1_and_8501() -> None:
    done = CliRunner().invoke(app, ["ui", "--help"], terminal_width=200)
    assert done.exit_code == 0
    assert "--host" in done.output and "127.0.0.1" in done.output
    assert "--port" in done.output and "8501" in done.output


def test_a_port_out_of_range_is_a_usage_error() -> None:
    done = CliRunner().invoke(app, ["ui", "--port", "70000"])
    assert done.exit_code == 2
