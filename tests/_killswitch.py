"""No test may reach a real model: every factory-built chat model refuses non-loopback endpoints."""

from __future__ import annotations

import pytest

from bunseki import llm


@pytest.fixture(autouse=True)
def block_remote_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn `bunseki.llm.ALLOW_REMOTE_REQUESTS` off for the test; monkeypatch restores it."""
    monkeypatch.setattr(llm, "ALLOW_REMOTE_REQUESTS", False)
