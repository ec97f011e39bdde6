"""A scripted chat model: replays AIMessages in order and records every prompt it receives.

Structured output works because ``bind_tools`` returns the model itself: LangChain then parses
the scripted tool call named after the schema class, as it would a real provider's. Asked to
stream, it streams as providers do: content word by word (or ``content_piece`` characters at a
time), tool-call arguments a few characters at a time (the base fake would drop tool calls).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

_call_ids = itertools.count(1)
STREAM_PIECE = 6  # characters of tool-call arguments per streamed chunk


class ScriptedChatModel(GenericFakeChatModel):
    """Answers with the scripted messages in order; ``received`` holds each prompt."""

    received: list[list[BaseMessage]] = Field(default_factory=list)
    content_piece: int | None = None  # characters of content per streamed chunk; None: word by word
    streamed: list[int] = Field(default_factory=list)  # the numbers (from 1) of the calls that streamed

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

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._generate(messages, stop, run_manager, **kwargs).generations[0].message
        self.streamed.append(len(self.received))
        assert isinstance(message, AIMessage)
        content = message.content if isinstance(message.content, str) else ""
        size = self.content_piece
        tokens = [content[i : i + size] for i in range(0, len(content), size)] if size else re.split(r"(\s)", content)
        pieces = [AIMessageChunk(content=token) for token in tokens if token]
        for index, call in enumerate(message.tool_calls):
            arguments = json.dumps(call["args"], ensure_ascii=False)
            for start in range(0, len(arguments), STREAM_PIECE):
                first = start == 0
                part = tool_call_chunk(
                    name=call["name"] if first else None,
                    args=arguments[start : start + STREAM_PIECE],
                    id=call["id"] if first else None,
                    index=index,
                )
                pieces.append(AIMessageChunk(content="", tool_call_chunks=[part]))
        if message.usage_metadata and pieces:  # as providers report it when streaming: on the last chunk
            pieces[-1] = pieces[-1].model_copy(update={"usage_metadata": message.usage_metadata})
        for piece in pieces:
            chunk = ChatGenerationChunk(message=piece)
            if run_manager:
                run_manager.on_llm_new_token(piece.text, chunk=chunk)
            yield chunk


def scripted(*replies: AIMessage | str) -> ScriptedChatModel:
    """A model that answers with ``replies``, one per call."""
    return ScriptedChatModel(messages=iter(replies))


def tool_reply(answer: BaseModel) -> AIMessage:
    """The reply of a model that answers with structured output ``answer``."""
    return tool_call(type(answer).__name__, answer.model_dump(mode="json"))


def tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    """A reply calling tool ``name`` with ``args``, valid for the schema or not."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{next(_call_ids)}"}])
