"""A scripted chat model: replays AIMessages in order and records every prompt it receives.

Structured output works because ``bind_tools`` returns the model itself: LangChain then parses
the scripted tool call named after the schema class, as it would a real provider's.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

_call_ids = itertools.count(1)


class ScriptedChatModel(GenericFakeChatModel):
    """Answers with the scripted messages in order; ``received`` holds each prompt."""

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self  # the replies are scripted, so the schemas are not needed

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        try:
            return super()._generate(messages, stop, run_manager, **kwargs)
        except StopIteration:
            raise AssertionError(f"no scripted reply left for call {len(self.received)}") from None


def scripted(*replies: AIMessage | str) -> ScriptedChatModel:
    """A model that answers with ``replies``, one per call."""
    return ScriptedChatModel(messages=iter(replies))


def tool_reply(answer: BaseModel) -> AIMessage:
    """The reply of a model that answers with structured output ``answer``."""
    return tool_call(type(answer).__name__, answer.model_dump(mode="json"))


def tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    """A reply calling tool ``name`` with ``args``, valid for the schema or not."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{next(_call_ids)}"}])
