"""The small sales table the analyst graph tests ask about, in a warm sandbox."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from bunseki.sandbox import backends, new_workspace
from bunseki.sandbox.backend import SessionSandbox
from bunseki.settings import Settings

FRAME = pd.DataFrame({"地域": ["関東", "近畿", "関東", "九州"], "売上": [100, 80, 150, 60]})


@pytest.fixture
def sandbox(settings: Settings) -> Iterator[SessionSandbox]:
    backend = backends.create(settings, warm=False)
    try:
        with SessionSandbox(backend, "agent-test", new_workspace(settings.workspace_root)) as box:
            box.load_frame(FRAME)
            yield box
    finally:
        backend.close()
