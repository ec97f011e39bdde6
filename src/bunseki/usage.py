"""What model calls cost in dollars, from the price table, and how a turn's usage reads in one line.

`bunseki.domain.TurnUsage` is what a turn cost; this module prices tokens with the settings'
``BUNSEKI_LLM_PRICES`` table and writes a usage the way the CLI and the UI show it.
"""

from __future__ import annotations

from collections.abc import Mapping

from bunseki.domain.usage import OFFLINE, TurnUsage
from bunseki.settings import ModelPrice


def price_of(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """The price of ``model`` ("provider:model"), listed under its full spec or its bare model name."""
    return prices.get(model) or prices.get(model.partition(":")[2] or model)


def cost_of(model: str, prompt_tokens: int, completion_tokens: int, prices: Mapping[str, ModelPrice]) -> float | None:
    """USD for the tokens, or None when the model is not in the price table."""
    price = price_of(model, prices)
    if price is None:
        return None
    return (prompt_tokens * price.prompt + completion_tokens * price.completion) / 1_000_000


def describe(usage: TurnUsage | None, *, calls_word: str = "calls") -> str:
    """One line: "123 + 45 tokens · 2 calls · 3.1 s · $0.0004", or "offline"; "" when unknown."""
    if usage is None:
        return ""
    if usage.offline:
        return OFFLINE
    parts = [
        f"{usage.prompt_tokens:,} + {usage.completion_tokens:,} tokens",
        f"{usage.calls} {calls_word}",
        f"{usage.seconds:.1f} s",
    ]
    if usage.cost_text is not None:
        parts.append(usage.cost_text)
    return " · ".join(parts)
