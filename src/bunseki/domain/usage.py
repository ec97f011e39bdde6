"""What a turn cost: model calls, tokens, seconds waiting for the model, and dollars when priced;
and how that reads in one line.

A `TurnUsage` is summed by `bunseki.tracing.TurnRecorder` from every model call of a turn (an
analyst's question, an EDA run's start or resume, a knowledge answer, an investigation) and kept
with it. The offline brain makes no model calls: its usage says "offline" rather than a cost of 0
that would read as if a model had run for free.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

OFFLINE: Final = "offline"


class TurnUsage(BaseModel):
    """The model calls of one turn (or of several, summed)."""

    model_config = ConfigDict(frozen=True)

    model: str = Field(description="provider:model, or 'offline' for the built-in rules.")
    calls: int = Field(default=0, ge=0, description="Model calls, retries and structured-output attempts included.")
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    seconds: float = Field(default=0.0, ge=0, description="Time spent waiting for the model, summed over calls.")
    cost: float | None = Field(default=None, description="USD, when BUNSEKI_LLM_PRICES prices the model; else null.")

    @property
    def cost_text(self) -> str | None:
        """The cost as people read it ("$0.0004"); None when the model has no price."""
        return None if self.cost is None else format_cost(self.cost)

    @property
    def offline(self) -> bool:
        """The built-in rules answered: no model ran, so there is nothing to count."""
        return self.model == OFFLINE and self.calls == 0


def total(usages: Iterable[TurnUsage]) -> TurnUsage | None:
    """The sum of several turns' usage (a session's); its model is the one model that ran, "mixed"
    when several did, "offline" when none did.

    The cost is summed over the turns that have one, and None when none has."""
    found = list(usages)
    if not found:
        return None
    models = list(dict.fromkeys(usage.model for usage in found if not usage.offline)) or [OFFLINE]
    costs = [usage.cost for usage in found if usage.cost is not None]
    return TurnUsage(
        model=models[0] if len(models) == 1 else "mixed",
        calls=sum(usage.calls for usage in found),
        prompt_tokens=sum(usage.prompt_tokens for usage in found),
        completion_tokens=sum(usage.completion_tokens for usage in found),
        seconds=sum(usage.seconds for usage in found),
        cost=sum(costs) if costs else None,
    )


def format_cost(cost: float) -> str:
    """Dollars with enough digits that a small turn does not read as $0.00."""
    return f"${cost:.4f}" if cost < 1 else f"${cost:,.2f}"


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
