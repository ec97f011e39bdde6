"""`LLMKnowledgeBrain`: the knowledge chat's loop and Reflection as calls to a chat model with the tools bound."""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from bunseki.brain.knowledge import prompts
from bunseki.brain.knowledge.contract import (
    ATTEMPTS,
    NO_ANSWER,
    SEARCH_TOOL,
    TOOL_SPECS,
    KnowledgeView,
    message_text,
    parse_reflection,
)
from bunseki.brain.streaming import AnswerStream, current_sink, followed
from bunseki.brain.structured import ChatModelBrain
from bunseki.deadline import check_deadline
from bunseki.errors import ModelError, ModelOutputError, ModelTimeoutError
from bunseki.llm import translate_model_errors, within_deadline


class LLMKnowledgeBrain(ChatModelBrain):
    """The loop and the Reflection as calls to a chat model with the two tools bound."""

    def respond(self, view: KnowledgeView) -> AIMessage:
        prompt = prompts.loop_messages(view)
        first = prompt
        for _ in range(ATTEMPTS):
            reply = self._invoke(prompt, tools=True)
            if not isinstance(reply, AIMessage):
                raise ModelOutputError(f"{self._name} answered with {type(reply).__name__}, not a chat message")
            if reply.tool_calls or not reply.invalid_tool_calls:
                return reply
            # A call whose arguments are not JSON would otherwise read as an empty draft answer.
            prompt = [*first, HumanMessage(_unreadable_calls(reply))]
        raise ModelOutputError(
            f"{self._name} called a tool with arguments that are not a JSON object, {ATTEMPTS} times: "
            "try again, or choose another model"
        )

    def reflect(self, view: KnowledgeView) -> str:
        sink = current_sink()
        follower = AnswerStream(streamed_final_answer, sink) if sink is not None else None
        attempt = 1
        while True:
            try:
                return message_text(self._invoke(prompts.reflection_messages(view), tools=False, follower=follower))
            except Exception as exc:
                if follower is None:
                    raise
                # the connection dropped mid-answer: the same request once more
                again = isinstance(exc, ModelError) and follower.broke_off(exc) and attempt < ATTEMPTS
                follower.discard()  # what was shown will not be the answer
                if not again:
                    raise
            attempt += 1

    def _invoke(self, prompt: list[BaseMessage], *, tools: bool, follower: AnswerStream | None = None) -> BaseMessage:
        model = within_deadline(self._model)
        runnable = model.bind_tools(TOOL_SPECS) if tools else model
        try:
            with translate_model_errors(self._endpoint):
                return runnable.invoke(prompt, followed(follower))
        except ModelTimeoutError:
            check_deadline()  # when the turn's limit is what ran out, say that rather than the server's
            raise


def _unreadable_calls(reply: AIMessage) -> str:
    names = ", ".join(sorted({str(call.get("name") or "?") for call in reply.invalid_tool_calls}))
    return (
        f"Your call of {names} could not be read: its arguments must be one JSON object, e.g. "
        f'{{"query": "..."}} for {SEARCH_TOOL}. Call the tool again, or answer.'
    )


def streamed_final_answer(raw: str) -> str | None:
    """The final answer of a Reflection being written, once there is one worth showing: None before
    the ``Final Answer:`` line, and while it is (or may become) an abstention, which is not shown."""
    final = parse_reflection(raw)[1]
    if final is None or final.startswith(NO_ANSWER) or NO_ANSWER.startswith(final):
        return None
    return final
