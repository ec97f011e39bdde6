"""Tokens into dollars with the price table, sums over turns, and the price table's validation."""

from __future__ import annotations

import pytest

from bunseki.domain import TurnUsage, total
from bunseki.domain.usage import describe
from bunseki.errors import ConfigurationError
from bunseki.settings import ModelPrice, Settings
from bunseki.tracing import cost_of

PRICES = {
    "openai:gpt-4o-mini": ModelPrice(prompt=0.15, completion=0.6),
    "claude-sonnet-4-5": ModelPrice(prompt=3, completion=15),
}


def test_cost_is_tokens_times_the_price_per_million() -> None:
    assert cost_of("openai:gpt-4o-mini", 1_000_000, 0, PRICES) == pytest.approx(0.15)
    assert cost_of("openai:gpt-4o-mini", 2000, 1000, PRICES) == pytest.approx((2000 * 0.15 + 1000 * 0.6) / 1e6)
    # listed by its bare model name, it is found under any provider
    assert cost_of("anthropic:claude-sonnet-4-5", 1000, 100, PRICES) == pytest.approx((3000 + 1500) / 1e6)


def test_a_model_not_in_the_table_has_no_cost() -> None:
    assert cost_of("openai:gpt-4.1", 1000, 100, PRICES) is None
    assert cost_of("openai:gpt-4o-mini", 1000, 100, {}) is None


def test_total_sums_turns_and_says_which_model_ran() -> None:
    priced = TurnUsage(
        model="openai:gpt-4o-mini", calls=2, prompt_tokens=100, completion_tokens=10, seconds=1.5, cost=0.01
    )
    unpriced = TurnUsage(model="openai:gpt-4o-mini", calls=1, prompt_tokens=50, completion_tokens=5, seconds=0.5)
    offline = TurnUsage(model="offline")
    summed = total([priced, unpriced, offline])
    assert summed == TurnUsage(
        model="openai:gpt-4o-mini", calls=3, prompt_tokens=150, completion_tokens=15, seconds=2.0, cost=0.01
    )
    assert total([offline, offline]) == TurnUsage(model="offline")
    other = TurnUsage(model="ollama:llama3.1", calls=1)
    mixed = total([priced, other])
    assert mixed is not None and mixed.model == "mixed"
    assert total([]) is None


def test_describe_is_one_line_and_offline_says_so() -> None:
    usage = TurnUsage(model="openai:x", calls=2, prompt_tokens=123, completion_tokens=45, seconds=3.14, cost=0.0004)
    assert describe(usage) == "123 + 45 tokens · 2 calls · 3.1 s · $0.0004"
    assert describe(usage.model_copy(update={"cost": None})) == "123 + 45 tokens · 2 calls · 3.1 s"
    assert describe(TurnUsage(model="offline")) == "offline"
    assert describe(None) == ""


def test_the_price_table_is_read_from_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUNSEKI_LLM_PRICES", '{"openai:gpt-4o-mini": {"prompt": 0.15, "completion": 0.6}}')
    assert Settings().llm_prices == {"openai:gpt-4o-mini": ModelPrice(prompt=0.15, completion=0.6)}
    monkeypatch.delenv("BUNSEKI_LLM_PRICES")
    assert Settings().llm_prices == {}


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("{openai: 1}", "not valid JSON"),
        ('{"gpt-4o": 0.15}', "does not map models to prices"),
        ('{"gpt-4o": {"prompt": -1, "completion": 2}}', "greater than or equal to 0"),
        ('{"gpt-4o": {"prompt": 1}}', "completion"),
        ('["gpt-4o"]', "does not map models to prices"),
    ],
)
def test_a_bad_price_table_names_the_variable(monkeypatch: pytest.MonkeyPatch, value: str, problem: str) -> None:
    monkeypatch.setenv("BUNSEKI_LLM_PRICES", value)
    with pytest.raises(ConfigurationError, match="BUNSEKI_LLM_PRICES") as raised:
        Settings()
    assert problem in str(raised.value)
