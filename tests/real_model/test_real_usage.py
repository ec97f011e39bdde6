"""A real turn against llama.cpp (SmolLM2-135M) counts the tokens the server reported.

The data is tiny, so the prompt is short; the time limits are generous because a 2-core machine
shared by other work reads even a short prompt slowly (it never measures anything: only counts).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bunseki.service import AnalysisService
from bunseki.settings import ModelPrice, Settings

pytestmark = pytest.mark.real_model

# 160 tokens: enough for SmolLM2's decision (about 100), so a call usually succeeds; a report cut off
# at the cap still counts what the server reported.
LIMITS = {"llm_max_tokens": 160, "llm_timeout_s": 300, "llm_max_retries": 0, "turn_deadline_s": 300, "max_loops": 1}


def test_a_real_turn_reports_its_tokens_and_trace(settings: Settings, real_model_url: str, tmp_path: Path) -> None:
    data = tmp_path / "sales.csv"
    data.write_text("region,sales\neast,10\nwest,20\n", encoding="utf-8")
    real = settings.model_copy(
        update={
            "model": "openai:local",
            "llm_base_url": real_model_url,
            "llm_prices": {"local": ModelPrice(prompt=1.0, completion=2.0)},
            **LIMITS,
        }
    )
    with AnalysisService(real) as service:
        session = service.create_session(data, model="openai:local")
        result = service.run_turn(session.id, "What is the total of sales?")
        usage = result.usage
        assert usage is not None and usage.model == "openai:local"
        assert usage.calls >= 1
        # the server's own count; an answer cut off at the token cap was generated, so it counts too
        assert usage.prompt_tokens > 0 and usage.completion_tokens > 0, (usage, service.trace(session.id))
        assert usage.seconds > 0
        assert usage.cost == pytest.approx((usage.prompt_tokens + 2 * usage.completion_tokens) / 1e6)
        trace = service.trace(session.id)
        assert sum(call["prompt_tokens"] for call in trace["model_calls"]) == usage.prompt_tokens
        assert all(call["prompt_chars"] > 0 for call in trace["model_calls"])
