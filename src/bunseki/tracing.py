"""A turn's local trace and usage, recorded by a LangChain callback handler, and LangSmith's part.

`TurnRecorder` goes into the RunnableConfig ``callbacks`` of a turn's graph run; LangChain hands
it to every run below (nodes, structured-output chains, chat models, whichever agent asks), so
every model call of the turn is counted: retries, correction attempts and calls that failed.
Cell and tool executions are not LangChain runs: the recorder learns of them from the graph's
progress events, through `relay`. LangSmith needs nothing from us but the RunnableConfig's
metadata: LangChain adds its tracer itself when LANGSMITH_TRACING and LANGSMITH_API_KEY are set;
`flush_tracers` waits for it to send a turn's runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import RunnableConfig

from bunseki.domain import Event, TurnUsage
from bunseki.settings import ModelPrice

TRACE_VERSION = 1
ERROR_CHARS = 500


def price_of(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """The price of ``model`` ("provider:model"), listed under its full spec or its bare model name."""
    return prices.get(model) or prices.get(model.partition(":")[2] or model)


def cost_of(model: str, prompt_tokens: int, completion_tokens: int, prices: Mapping[str, ModelPrice]) -> float | None:
    """USD for the tokens, or None when the model is not in the price table."""
    price = price_of(model, prices)
    if price is None:
        return None
    return (prompt_tokens * price.prompt + completion_tokens * price.completion) / 1_000_000


class TurnRecorder(BaseCallbackHandler):
    """Counts a turn's model calls and keeps its trace: nodes, model calls, executions, errors.

    Offsets (``start_s``) are seconds from the recorder's creation, the start of the turn."""

    raise_error = False  # a fault in bookkeeping must never break the turn it records
    run_inline = True

    def __init__(self) -> None:
        self.started_at = datetime.now(UTC)
        self._began = time.monotonic()
        self._lock = threading.Lock()
        self._root: UUID | None = None
        self._open_nodes: dict[UUID, dict[str, Any]] = {}
        self._open_calls: dict[UUID, dict[str, Any]] = {}
        self._cell_started: float | None = None
        self._node_started: float | None = None
        self.nodes: list[dict[str, Any]] = []
        self.model_calls: list[dict[str, Any]] = []
        self.executions: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []

    # --- graph nodes: the chain runs directly under the graph's run, named after their node ---

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            if parent_run_id is None and self._root is None:
                self._root = run_id
                return
            name = kwargs.get("name")
            if parent_run_id == self._root and name and name == (metadata or {}).get("langgraph_node"):
                node = {"name": name, "start_s": self._now(), "seconds": 0.0, "error": None}
                self._open_nodes[run_id] = node
                self.nodes.append(node)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._end_node(run_id, None)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end_node(run_id, error)

    def _end_node(self, run_id: UUID, error: BaseException | None) -> None:
        with self._lock:
            node = self._open_nodes.pop(run_id, None)
            if node is None:
                return
            node["seconds"] = self._now() - node["start_s"]
            if error is not None:
                node["error"] = _short(error)
                self._error(node["name"], node["error"])

    # --- model calls ---

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        chars = sum(len(_text(message)) for batch in messages for message in batch)
        self._start_call(run_id, metadata, chars)

    def on_llm_start(
        self,
        serialized: dict[str, Any] | None,
        prompts: list[str],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self._start_call(run_id, metadata, sum(len(prompt) for prompt in prompts))

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        prompt, completion = tokens_of(response)
        self._end_call(run_id, prompt, completion, None)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end_call(run_id, *tokens_of_error(error), error)

    def _start_call(self, run_id: UUID, metadata: dict[str, Any] | None, chars: int) -> None:
        with self._lock:
            call = {
                "node": (metadata or {}).get("langgraph_node"),
                "start_s": self._now(),
                "seconds": 0.0,
                "prompt_chars": chars,
                "prompt_tokens": 0,
                "completion_tokens": 0,
                "error": None,
            }
            self._open_calls[run_id] = call
            self.model_calls.append(call)

    def _end_call(self, run_id: UUID, prompt: int, completion: int, error: BaseException | None) -> None:
        with self._lock:
            call = self._open_calls.pop(run_id, None)
            if call is None:
                return
            call.update(seconds=self._now() - call["start_s"], prompt_tokens=prompt, completion_tokens=completion)
            if error is not None:
                call["error"] = _short(error)
                self._error(f"model call ({call['node'] or 'outside a node'})", call["error"])

    # --- cells and tools: from the graph's progress events ---

    def relay(self, on_event: Callable[[Event], None] | None) -> Callable[[Event], None]:
        """A progress-event listener that records executions, then passes each event to ``on_event``."""

        def listen(event: Event) -> None:
            self.on_event(event)
            if on_event is not None:
                on_event(event)

        return listen

    def on_event(self, event: Event) -> None:
        """Record what a progress event of the analyst graph says about executions and errors."""
        kind = event.get("event")
        with self._lock:
            now = self._now()
            if kind == "node_started":
                self._node_started, self._cell_started = now, None
            elif kind == "code":
                self._cell_started = now
            elif kind == "execution":
                began = self._cell_started if self._cell_started is not None else now
                self._execution("cell", "python", began, now, bool(event.get("success")), event.get("error"))
                self._cell_started = None
            elif kind == "tool":
                began = self._node_started if self._node_started is not None else now
                error = None if event.get("success") else event.get("summary")
                self._execution("tool", str(event.get("tool")), began, now, bool(event.get("success")), error)
            elif kind == "error":
                self._error(str(event.get("node") or "turn"), str(event.get("error") or ""))

    def _execution(self, kind: str, name: str, began: float, now: float, ok: bool, error: Any) -> None:
        self.executions.append(
            {
                "kind": kind,
                "name": name,
                "start_s": began,
                "seconds": now - began,
                "ok": ok,
                "error": None if ok or not error else _short(str(error)),
            }
        )

    # --- results ---

    def usage(self, model: str, prices: Mapping[str, ModelPrice]) -> TurnUsage:
        """The turn's model calls summed, priced when ``prices`` lists ``model``."""
        with self._lock:
            calls = list(self.model_calls)
        prompt = sum(call["prompt_tokens"] for call in calls)
        completion = sum(call["completion_tokens"] for call in calls)
        return TurnUsage(
            model=model,
            calls=len(calls),
            prompt_tokens=prompt,
            completion_tokens=completion,
            seconds=round(sum(call["seconds"] for call in calls), 3),
            cost=cost_of(model, prompt, completion, prices) if calls else None,
        )

    def trace(self, *, model: str, status: str, error: str | None = None) -> dict[str, Any]:
        """The turn's trace as JSON-ready data (what `bunseki sessions trace` prints)."""
        with self._lock:
            errors = list(self.errors)
            if error and all(item["message"] != _short(error) for item in errors):
                errors.append({"where": "turn", "at_s": self._now(), "message": _short(error)})
            return {
                "version": TRACE_VERSION,
                "model": model,
                "status": status,
                "started_at": self.started_at.isoformat(),
                "seconds": round(self._now(), 3),
                "nodes": [_rounded(node) for node in self.nodes],
                "model_calls": [_rounded(call) for call in self.model_calls],
                "executions": [_rounded(execution) for execution in self.executions],
                "errors": [_rounded(item) for item in errors],
            }

    def _error(self, where: str, message: str) -> None:
        self.errors.append({"where": where, "at_s": self._now(), "message": message})

    def _now(self) -> float:
        return time.monotonic() - self._began


def turn_config(recorder: TurnRecorder, **metadata: str | int) -> RunnableConfig:
    """The RunnableConfig entries that record a turn: our callback, and metadata naming the turn
    (LangSmith shows it on every run of the turn and can filter by it)."""
    tags = [f"{key}:{value}" for key, value in metadata.items()]
    return {"callbacks": [recorder], "metadata": dict(metadata), "tags": ["bunseki", *tags], "run_name": "bunseki turn"}


def flush_tracers() -> None:
    """Wait until LangSmith's tracer (when tracing is on) has sent the runs recorded so far."""
    from langchain_core.tracers.langchain import wait_for_all_tracers

    wait_for_all_tracers()


def tokens_of(response: LLMResult) -> tuple[int, int]:
    """(prompt, completion) tokens of one model call, as the provider reported them: the message's
    ``usage_metadata`` (LangChain's common form), else ``llm_output``'s token_usage or usage."""
    prompt = completion = 0
    found = False
    for generations in response.generations:
        for generation in generations:
            usage = (
                getattr(generation.message, "usage_metadata", None) if isinstance(generation, ChatGeneration) else None
            )
            if usage:
                found = True
                prompt += int(usage.get("input_tokens") or 0)
                completion += int(usage.get("output_tokens") or 0)
    if found:
        return prompt, completion
    output = response.llm_output or {}
    reported = output.get("token_usage") or output.get("usage") or {}
    if not isinstance(reported, Mapping):
        reported = getattr(reported, "__dict__", {})
    prompt = reported.get("prompt_tokens", reported.get("input_tokens")) or 0
    completion = reported.get("completion_tokens", reported.get("output_tokens")) or 0
    return int(prompt), int(completion)


def tokens_of_error(error: BaseException) -> tuple[int, int]:
    """(prompt, completion) tokens a failed call still spent, where the error carries the reply:
    an answer cut off at the token cap (openai's LengthFinishReasonError) was generated and billed."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        usage = getattr(getattr(current, "completion", None), "usage", None)
        if usage is not None:
            return int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)
        current = current.__cause__ or current.__context__
    return 0, 0


def _text(message: BaseMessage) -> str:
    content = message.content if isinstance(message.content, str) else str(message.content)
    calls = getattr(message, "tool_calls", None)
    return content + (str(calls) if calls else "")


def _short(error: BaseException | str) -> str:
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    text = " ".join(text.split())
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def _rounded(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: round(value, 3) if isinstance(value, float) else value for key, value in entry.items()}
