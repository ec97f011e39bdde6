"""Structured answers from any LangChain chat model, shared by every model-backed brain.

`ask` returns the model's answer as a pydantic schema, asking once more with the problem shown when
it does not fit, and streams one of its fields to whoever listens (`bunseki.brain.streaming`).
`ChatModelBrain` is what every model-backed brain starts from: its model, its name and `ask` on them.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from bunseki.brain.grounding import Objection
from bunseki.brain.streaming import AnswerStream, current_sink, followed
from bunseki.deadline import check_deadline
from bunseki.errors import ModelError, ModelOutputError, ModelTimeoutError
from bunseki.llm import Endpoint, endpoint_of, translate_model_errors, within_deadline

T = TypeVar("T", bound=BaseModel)
ATTEMPTS = 2  # the first answer, and one more with the validation error shown
PROBLEM_CHARS = 1000

Check = Callable[[T], Objection | None]
"""A judgement a schema cannot express (e.g. numbers that must come from executions): what is
wrong, or None when the answer is usable."""

# Some clients (langchain-openai with a JSON schema) parse the reply themselves and raise these
# from the call instead of reporting them as ``parsing_error``.
_UNPARSABLE = (ValidationError, OutputParserException)


def ask(
    model: BaseChatModel,
    schema: type[T],
    messages: list[BaseMessage],
    *,
    name: str,
    endpoint: Endpoint | None,
    check: Check[T] | None = None,
    stream: str | None = None,
) -> T:
    """The model's answer as ``schema``; asks once more, showing the problem, if it does not fit.

    Shared by every brain that asks a chat model. The structured-output method is the one the
    provider factory recorded on the model's endpoint (the integration's default for other models).
    Raises `ModelOutputError` whose message names what was wrong but never repeats the model's text,
    so nothing the model made up reaches a person as if Bunseki had said it.

    ``stream``: a top-level string field of ``schema`` to send, as the model writes it, to the
    sink of an enclosing `bunseki.brain.streaming.streaming_answer` (nothing when there is none).
    A stream that breaks off after it began is asked again once, as an unusable answer is.
    """
    method = endpoint.structured_output if endpoint else None
    if method == "json_mode":  # JSON of any shape is all the server enforces: say which shape
        messages = [*messages, HumanMessage(_json_mode_instruction(schema))]
    sink = current_sink() if stream else None
    follower = AnswerStream(stream, sink) if stream and sink else None
    problem, public = "", ""
    for number in range(1, ATTEMPTS + 1):
        attempt = [*messages, HumanMessage(_correction(schema, problem))] if problem else messages
        bounded = within_deadline(model)
        if method is None:
            structured = bounded.with_structured_output(schema, include_raw=True)
        else:
            structured = bounded.with_structured_output(schema, method=method, include_raw=True)
        try:
            reply = _invoke(structured, attempt, endpoint, follower)
        except _UNPARSABLE as exc:
            problem, public = str(exc), _public(exc)
            _discard(follower)
            continue
        except ModelError as exc:
            broke_off = follower is not None and follower.broke_off(exc)
            _discard(follower)
            if broke_off and number < ATTEMPTS:  # the connection dropped mid-answer: the same request again
                continue
            raise
        parsed = reply.get("parsed") if isinstance(reply, dict) else reply
        if isinstance(parsed, schema):
            objection = check(parsed) if check else None
            if objection is None:
                if follower is not None and stream:
                    follower.settle(str(getattr(parsed, stream)))
                return parsed
            problem, public = objection.for_model, objection.for_people
            _discard(follower)
            continue
        _discard(follower)
        error = reply.get("parsing_error") if isinstance(reply, dict) else None
        if error:
            problem, public = str(error), _public(error)
        else:
            problem = public = f"the answer contained no {schema.__name__}"
    raise ModelOutputError(f"{name} did not return a usable {schema.__name__} after {ATTEMPTS} attempts: {public}")


class ChatModelBrain:
    """A brain over one chat model: the model, the name the brain goes by, and structured asks of it."""

    def __init__(self, model: BaseChatModel, *, name: str) -> None:
        self._model = model
        self._name = name
        self._endpoint = endpoint_of(model)

    @property
    def name(self) -> str:
        return self._name

    def _ask(
        self, schema: type[T], messages: list[BaseMessage], check: Check[T] | None = None, stream: str | None = None
    ) -> T:
        return ask(self._model, schema, messages, name=self._name, endpoint=self._endpoint, check=check, stream=stream)


def _invoke(
    structured: Runnable[list[BaseMessage], Any],
    messages: list[BaseMessage],
    endpoint: Endpoint | None,
    follower: AnswerStream | None = None,
) -> Any:
    """One structured call (streamed when ``follower`` listens); a reply that does not parse is
    raised as it is (the caller retries)."""
    try:
        with translate_model_errors(endpoint), _quiet_stream_events() if follower else nullcontext():
            try:
                return structured.invoke(messages, followed(follower))
            except _UNPARSABLE as exc:
                unparsable = exc  # raised below, outside the translation, which would call it a request error
    except ModelTimeoutError:
        check_deadline()  # when the turn's limit is what ran out, say that rather than the server's
        raise
    raise unparsable


@contextmanager
def _quiet_stream_events() -> Iterator[None]:
    # langchain-openai dumps the SDK's structured-output stream events, whose generic ``parsed``
    # field pydantic warns about on every answer: noise, and an error under ``-W error``. The
    # filter list is process-wide: overlapping turns can at worst leave this one filter in place.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Pydantic serializer warnings", category=UserWarning)
        yield


def _discard(follower: AnswerStream | None) -> None:
    if follower is not None:
        follower.discard()


def _correction(schema: type[BaseModel], problem: str) -> str:
    return (
        f"Your previous answer could not be used as {schema.__name__}:\n{problem[:PROBLEM_CHARS]}\n"
        "Answer again, following the schema exactly."
    )


def _json_mode_instruction(schema: type[BaseModel]) -> str:
    shape = json.dumps(schema.model_json_schema(), ensure_ascii=False)
    return f"Answer with one JSON object only, no prose, that validates against this JSON schema:\n{shape}"


def _public(error: BaseException) -> str:
    """What was wrong, in words a person can act on, without the model's own text."""
    validation = error if isinstance(error, ValidationError) else error.__cause__
    if isinstance(validation, ValidationError):
        fields = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'answer'}: {item['msg']}"
            for item in validation.errors(include_input=False, include_url=False)[:5]
        )
        return f"it did not fit the schema ({fields})"
    if isinstance(error, OutputParserException):
        return "it was not valid JSON"
    return f"{type(error).__name__}"
