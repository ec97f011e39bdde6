"""`LLMBrain`: the brain as structured-output calls to any LangChain chat model."""

from __future__ import annotations

from typing import TypeVar

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel, ValidationError

from bunseki.brain import prompts
from bunseki.brain.models import AnalystView, CodeGenOutput, ReasonOutput
from bunseki.errors import ModelOutputError
from bunseki.llm import Endpoint, endpoint_of, translate_model_errors
from bunseki.report.models import ReportOutput

T = TypeVar("T", bound=BaseModel)
ATTEMPTS = 2  # the first answer, and one more with the validation error shown
PROBLEM_CHARS = 1000

# Some clients (langchain-openai with a JSON schema) parse the reply themselves and raise these
# from the call instead of reporting them as ``parsing_error``.
_UNPARSABLE = (ValidationError, OutputParserException)


class LLMBrain:
    """Asks a chat model for each decision, with the answer's schema as structured output."""

    def __init__(self, model: BaseChatModel, *, name: str) -> None:
        self._model = model
        self._name = name
        self._endpoint = endpoint_of(model)

    @property
    def name(self) -> str:
        return self._name

    def decide(self, view: AnalystView) -> ReasonOutput:
        return self._ask(ReasonOutput, prompts.reason_messages(view))

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        return self._ask(CodeGenOutput, prompts.code_messages(view))

    def write_report(self, view: AnalystView) -> ReportOutput:
        report = self._ask(ReportOutput, prompts.report_messages(view))
        # The view knows these for certain; the model's copy of them is not trusted.
        return report.model_copy(update={"language": view.language, "assumptions": view.assumptions})

    def _ask(self, schema: type[T], messages: list[BaseMessage]) -> T:
        return ask(self._model, schema, messages, name=self._name, endpoint=self._endpoint)


def ask(
    model: BaseChatModel, schema: type[T], messages: list[BaseMessage], *, name: str, endpoint: Endpoint | None
) -> T:
    """The model's answer as ``schema``; asks once more, showing the problem, if it does not fit.

    Shared by every brain that asks a chat model (the analyst's and the EDA pipeline's).
    """
    structured = model.with_structured_output(schema, include_raw=True)
    problem = ""
    for _ in range(ATTEMPTS):
        attempt = [*messages, HumanMessage(_correction(schema, problem))] if problem else messages
        with translate_model_errors(endpoint):
            try:
                reply = structured.invoke(attempt)
            except _UNPARSABLE as exc:
                problem = str(exc)
                continue
        parsed = reply.get("parsed") if isinstance(reply, dict) else reply
        if isinstance(parsed, schema):
            return parsed
        error = reply.get("parsing_error") if isinstance(reply, dict) else None
        problem = str(error) if error else f"the answer contained no {schema.__name__}"
    raise ModelOutputError(
        f"{name} did not return a valid {schema.__name__} after {ATTEMPTS} attempts: {_summary(problem)}"
    )


def _correction(schema: type[BaseModel], problem: str) -> str:
    return (
        f"Your previous answer could not be used as {schema.__name__}:\n{problem[:PROBLEM_CHARS]}\n"
        "Answer again, following the schema exactly."
    )


def _summary(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
