"""The conversation a turn sees: the latest messages that fit a token budget.

Token counts are estimated without a tokenizer (none is bundled for every provider): Japanese
and Chinese characters cost about one token each, other text about one per four characters,
which is what OpenAI's and Anthropic's tokenizers give on Bunseki's own prompts within ~20%.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, trim_messages

WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
PER_MESSAGE = 4  # role and separators


def estimate_tokens(text: str) -> int:
    wide = len(WIDE.findall(text))
    return wide + (len(text) - wide + 3) // 4


def count_tokens(messages: Sequence[BaseMessage]) -> int:
    return sum(PER_MESSAGE + estimate_tokens(str(message.content)) for message in messages)


def trim_history(messages: Sequence[AnyMessage], budget: int) -> list[AnyMessage]:
    """The newest messages within ``budget`` tokens, starting on a person's message.

    A single message longer than the budget is cut to its end rather than dropped, so the
    latest exchange is never lost entirely.
    """
    if not messages:
        return []
    kept = trim_messages(
        list(messages), max_tokens=budget, token_counter=count_tokens, strategy="last", start_on="human"
    )
    if kept or budget <= PER_MESSAGE:
        return cast(list[AnyMessage], kept)  # the same message objects, fewer of them
    last = messages[-1]
    text = str(last.content)
    while text and count_tokens([last.model_copy(update={"content": text})]) > budget:
        text = text[len(text) // 4 or 1 :]
    return [last.model_copy(update={"content": text})] if text else []


def as_messages(pairs: Sequence[tuple[str, str]]) -> list[AnyMessage]:
    """Stored (role, content) pairs as chat messages."""
    return [HumanMessage(content) if role == "user" else AIMessage(content) for role, content in pairs]
