"""The chat endpoint's event stream carries the answer as a streaming model writes it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from bunseki.service import AnalysisService
from tests.api.conftest import ask_streamed, start
from tests.conftest import ServiceFactory
from tests.service.test_streamed_answer import REPORT, deltas_after_last_reset, streaming_brain


@pytest.fixture
def service(open_service: ServiceFactory) -> AnalysisService:
    return open_service(brain=streaming_brain())


def test_answer_deltas_arrive_in_order_before_the_result(api: TestClient) -> None:
    received = ask_streamed(api, start(api), "売上金額の合計は？")
    names = [name for name, _ in received]
    deltas = [i for i, name in enumerate(names) if name == "answer_delta"]
    assert len(deltas) >= 3 and deltas[-1] < names.index("report") < names.index("result")
    result = received[-1][1]
    assert names[-1] == "result" and result["status"] == "finalized"
    answer_events = [data for name, data in received if name.startswith("answer_")]
    assert "".join(deltas_after_last_reset(answer_events)) == result["message"] == REPORT.conclusion
    assert all(data["event"] == "answer_delta" and data["text"] for name, data in received if name == "answer_delta")
