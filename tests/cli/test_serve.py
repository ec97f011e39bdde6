"""``bunseki users`` and ``bunseki serve``: keys made on the command line open the API a real server runs."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import bunseki as package
from bunseki.samples import SALES_CSV
from tests import commandline

SOURCE = str(Path(package.__file__).resolve().parents[1])  # the code under test, not an installed copy
ENV = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": SOURCE}


def bunseki(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return commandline.bunseki(*args, timeout=120, env=ENV)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(workspace_root: Path) -> Iterator[str]:
    """``bunseki serve`` on a free loopback port, until the test ends."""
    port = free_port()
    command = [sys.executable, "-m", "bunseki", "serve", "--port", str(port), "--workspace-root", str(workspace_root)]
    process = subprocess.Popen(command, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            process.kill()
            pytest.fail(f"bunseki serve did not come up: {process.communicate()[0]}")
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=30)  # also closes the pipe


def test_users_create_list_revoke(workspace_root: Path) -> None:
    created = bunseki("users", "create", "alice", "--workspace-root", workspace_root)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    assert key.startswith("bk_") and "\n" not in key  # the key alone on stdout
    assert "shown only now" in created.stderr
    assert bunseki("users", "create", "alice", "--workspace-root", workspace_root).returncode == 7  # conflict
    assert bunseki("users", "create", "bad name", "--workspace-root", workspace_root).returncode == 3  # input
    listed = json.loads(bunseki("users", "list", "--json", "--workspace-root", workspace_root).stdout)
    assert [(u["name"], u["key_prefix"], u["revoked_at"]) for u in listed] == [("alice", key[:8], None)]
    assert key not in bunseki("users", "list", "--workspace-root", workspace_root).stdout
    assert bunseki("users", "revoke", "alice", "--workspace-root", workspace_root).returncode == 0
    assert bunseki("users", "revoke", "alice", "--workspace-root", workspace_root).returncode == 6  # not found
    listed = json.loads(bunseki("users", "list", "--json", "--workspace-root", workspace_root).stdout)
    assert listed[0]["revoked_at"] is not None


def test_serve_answers_with_a_key_from_the_command_line(server: str, workspace_root: Path) -> None:
    key = bunseki("users", "create", "alice", "--workspace-root", workspace_root).stdout.strip()
    sessions = f"{server}/api/v1/analysis/sessions"
    assert httpx.get(sessions).status_code == 401
    headers = {"Authorization": f"Bearer {key}"}
    with SALES_CSV.open("rb") as handle:
        created = httpx.post(sessions, files={"file": (SALES_CSV.name, handle)}, headers=headers, timeout=60)
    assert created.status_code == 201, created.text
    session = created.json()["id"]
    chat = httpx.post(
        f"{sessions}/{session}/chat", json={"message": "売上金額の合計は？"}, headers=headers, timeout=120
    )
    assert chat.status_code == 200 and chat.json()["status"] == "finalized"
    assert httpx.get(f"{server}/docs").status_code == 200
    # the command line sees what the API did: one store
    shown = json.loads(bunseki("sessions", "show", session, "--json", "--workspace-root", workspace_root).stdout)
    assert [m["role"] for m in shown["messages"]] == ["user", "assistant"]


def test_single_user_mode_only_on_loopback(workspace_root: Path) -> None:
    refused = bunseki("serve", "--single-user", "--host", "0.0.0.0", "--workspace-root", workspace_root)
    assert refused.returncode == 2
    assert "loopback" in refused.stderr
