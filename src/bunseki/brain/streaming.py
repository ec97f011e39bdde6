"""The answer's text as the model writes it: ``answer_delta`` events for whoever listens.

A graph node that wants the answer streamed wraps the brain call in `streaming_answer(emit)`;
an LLM brain then asks the model to stream that call, follows the JSON it writes (structured
output arrives as JSON text or tool-call arguments) and hands on each new piece of one string
field as ``{"event": "answer_delta", "text": ...}``. When an answer is discarded (it did not fit
the schema, a check objected, the stream broke) an ``{"event": "answer_reset"}`` follows, so the
deltas after the last reset always join to the answer that was kept; the final answer (the
report, the turn's result) stays the authority. Brains that do not stream emit nothing.

The answer may also be plain text after a marker (the knowledge chat's ``Final Answer:``): the
follower takes a function that reads the answer so far out of the raw text.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk, GenerationChunk
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config, merge_configs
from langchain_core.utils.json import parse_partial_json

from bunseki.domain.events import Listener, corrections
from bunseki.errors import ModelError, ModelRequestError, ModelTimeoutError

TextOf = Callable[[str], str | None]
"""The answer written so far in a model's raw output (stripped), or None while there is none yet."""
T = TypeVar("T")

_sink: ContextVar[Listener | None] = ContextVar("bunseki_answer_sink", default=None)


@contextmanager
def streaming_answer(sink: Listener) -> Iterator[None]:
    """Within the block, an LLM brain writing a streamable answer sends its text to ``sink``."""
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)


def current_sink() -> Listener | None:
    """The sink of the enclosing `streaming_answer`, or None when nobody listens."""
    return _sink.get()


def json_field(field: str) -> TextOf:
    """The text so far of one top-level string field of the JSON a model writes."""

    def text_of(raw: str) -> str | None:
        start = raw.find("{")  # JSON mode answers sometimes come fenced or after a word
        if start < 0:
            return None
        try:
            parsed = parse_partial_json(raw[start:])
        except ValueError:
            return None
        value = parsed.get(field) if isinstance(parsed, dict) else None
        return value.strip() if isinstance(value, str) else None

    return text_of


def followed(follower: AnswerStream | None) -> RunnableConfig:
    """The config of a call ``follower`` streams: the follower is added to the callbacks the call
    inherits (the turn's usage recorder, tracers), never put in their place."""
    if follower is None:
        return {}
    return merge_configs(ensure_config(), {"callbacks": [follower]})


class AnswerStream(BaseCallbackHandler):
    """Follows the raw text a model streams and sends on the new text of its answer.

    ``text_of`` reads the answer so far out of the raw text: a field of the JSON (`json_field`,
    which structured output arrives as) or what follows a marker. Leading and trailing whitespace
    is held back (the answers are stripped), so the deltas join to exactly what is kept.
    """

    run_inline = True  # deltas must reach the sink in the order the model wrote them

    def __init__(self, text_of: TextOf | str, sink: Listener) -> None:
        self.text_of = json_field(text_of) if isinstance(text_of, str) else text_of
        self.sink = sink
        self.tokens = 0  # pieces received in this attempt: a failure after the first is a broken stream
        self._raw = ""
        self._emitted = ""
        self._diverged = False

    # LangChain streams an invoke() when a handler has these two methods (LangGraph's own
    # "messages" handler is recognised the same way); they pass the output through untouched.
    def tap_output_iter(self, run_id: UUID, output: Iterator[T]) -> Iterator[T]:
        return output

    def tap_output_aiter(self, run_id: UUID, output: AsyncIterator[T]) -> AsyncIterator[T]:
        return output

    def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID | None = None,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        piece = _piece(token, chunk)
        if not piece:
            return
        self.tokens += 1
        self._raw += piece
        if self._diverged:
            return
        text = self.text_of(self._raw)
        if text is None or text == self._emitted:
            return
        if not text.startswith(self._emitted):  # the parse went back on itself: settle() repairs it
            self._diverged = True
            return
        delta, self._emitted = text[len(self._emitted) :], text
        self.sink({"event": "answer_delta", "text": delta})

    def discard(self) -> None:
        """The answer being streamed will not be used: tell listeners, and start over."""
        if self._emitted:
            self.sink({"event": "answer_reset"})
        self.tokens, self._raw, self._emitted, self._diverged = 0, "", "", False

    def settle(self, final: str) -> None:
        """The answer kept is ``final``: make the deltas join to it if they do not."""
        for event in corrections(self._emitted, final):
            self.sink(event)
        self._emitted = final

    def broke_off(self, error: ModelError) -> bool:
        """Whether the request failed on the way after the answer began (not a timeout, not the
        model's own answer): the same request is worth asking again."""
        return self.tokens > 0 and isinstance(error, ModelRequestError) and not isinstance(error, ModelTimeoutError)


def _piece(token: str | list[str | dict[str, Any]], chunk: GenerationChunk | ChatGenerationChunk | None) -> str:
    """The JSON text a streamed chunk adds: tool-call arguments (function calling) or content."""
    message = chunk.message if isinstance(chunk, ChatGenerationChunk) else None
    if isinstance(message, AIMessageChunk):
        arguments = "".join(part.get("args") or "" for part in message.tool_call_chunks)
        return arguments or message.text
    return token if isinstance(token, str) else ""
