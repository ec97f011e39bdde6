"""The knowledge chat's brain (seed 004): what it sees, the two tools it may call, and the LLM one.

At each step of the ReAct loop the graph asks the brain for the next message: a thought with tool
calls (``search_rag_knowledge_base``, ``list_rag_collections``), or a draft answer. After the loop
it asks for a Reflection on the draft (``Thought:`` / ``Final Answer:``), whose final answer streams
to an enclosing `bunseki.brain.streaming.streaming_answer` as the model writes it (never the thought
before it). The graph runs the tools; the brain only decides. Two brains: `LLMKnowledgeBrain` over
any chat model with the tools bound, and the extractive
`bunseki.brain.knowledge_offline.OfflineKnowledgeBrain`.
"""

from __future__ import annotations

import re
from typing import Any, Final, Protocol, runtime_checkable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel, ConfigDict, Field

from bunseki.brain.models import Language
from bunseki.brain.streaming import AnswerStream, current_sink, followed
from bunseki.deadline import check_deadline
from bunseki.errors import ModelError, ModelOutputError, ModelTimeoutError
from bunseki.llm import endpoint_of, translate_model_errors, within_deadline

SEARCH_TOOL: Final = "search_rag_knowledge_base"
LIST_TOOL: Final = "list_rag_collections"
NO_RAG_RESULT: Final = "[[NO_RAG_RESULT]]"
"""What a search returns when nothing relevant was found (seed 004)."""
NO_ANSWER: Final = "[[NO_ANSWER]]"
"""How a brain abstains: a draft or final answer that starts with this, followed by the reason."""
ATTEMPTS: Final = 2  # unreadable tool calls are sent back once; a Reflection stream that broke off is asked again once
DEFAULT_TOP_K: Final = 5
SEARCH_MODES: Final = ("hybrid", "dense", "sparse")
MAX_TOP_K: Final = 10

TOOL_SPECS: Final[list[dict[str, Any]]] = [
    {
        "type": "function",
        "function": {
            "name": SEARCH_TOOL,
            "description": (
                "Search the knowledge base for passages that answer a query. Returns numbered passages "
                f"with their source, heading and chunk id, or {NO_RAG_RESULT} when nothing relevant is found."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for: a question or keywords."},
                    "collections": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Collections to search; empty or omitted means every available one.",
                    },
                    "top_k": {
                        "type": "integer",
                        "description": f"How many passages to return (1-{MAX_TOP_K}, default {DEFAULT_TOP_K}).",
                    },
                    "mode": {
                        "type": "string",
                        "enum": list(SEARCH_MODES),
                        "description": (
                            "hybrid (default): meaning and words fused; dense: meaning only, best when the "
                            "documents may be in another language than the query; sparse: exact words only."
                        ),
                    },
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": LIST_TOOL,
            "description": "List the knowledge-base collections available for this conversation.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]


class Passage(BaseModel):
    """A chunk a search found in this turn, numbered ``[n]`` for citing."""

    number: int
    collection: str
    source: str
    title: str
    heading: str
    chunk_id: str
    score: float
    text: str

    def label(self) -> str:
        """``[n] source › heading (chunk_id)``: how the passage is introduced to the brain."""
        where = self.source + (f" › {self.heading}" if self.heading else "")
        return f"[{self.number}] {where} ({self.chunk_id})"


class SearchRecord(BaseModel):
    """One search of this turn: the query and the numbers of the passages it returned."""

    query: str
    collections: list[str]
    numbers: list[int] = Field(default_factory=list)
    mode: str = "hybrid"


class KnowledgeView(BaseModel):
    """What the brain may see: the question, the conversation so far, what the searches found.

    ``prompt`` is the whole message list for a chat model (system instruction, earlier turns, this
    turn's question, tool calls and observations); rule-based brains use the structured fields.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    question: str
    language: Language
    collections: list[str]
    prompt: list[BaseMessage] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    searches: list[SearchRecord] = Field(default_factory=list)
    listed_collections: bool = False
    step: int = 0
    max_steps: int = 10
    draft: str | None = None


@runtime_checkable
class KnowledgeBrain(Protocol):
    """Judgement for the knowledge chat: the next step of the loop, and the Reflection."""

    @property
    def name(self) -> str: ...

    def respond(self, view: KnowledgeView) -> AIMessage:
        """A thought with tool calls, or (no tool calls) the draft answer citing passages as [n]."""
        ...

    def reflect(self, view: KnowledgeView) -> str:
        """Check ``view.draft`` against the passages: ``Thought: …`` then ``Final Answer: …``."""
        ...


class LLMKnowledgeBrain:
    """The loop and the Reflection as calls to a chat model with the two tools bound."""

    def __init__(self, model: BaseChatModel, *, name: str) -> None:
        self._model = model
        self._name = name
        self._endpoint = endpoint_of(model)

    @property
    def name(self) -> str:
        return self._name

    def respond(self, view: KnowledgeView) -> AIMessage:
        prompt = view.prompt
        for _ in range(ATTEMPTS):
            reply = self._invoke(prompt, tools=True)
            if not isinstance(reply, AIMessage):
                raise ModelOutputError(f"{self._name} answered with {type(reply).__name__}, not a chat message")
            if reply.tool_calls or not reply.invalid_tool_calls:
                return reply
            # A call whose arguments are not JSON would otherwise read as an empty draft answer.
            prompt = [*view.prompt, HumanMessage(_unreadable_calls(reply))]
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
                return message_text(self._invoke(view.prompt, tools=False, follower=follower))
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


def message_text(message: BaseMessage) -> str:
    """The text of a message whose content may be a list of parts (Anthropic, Gemini)."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


_FINAL = re.compile(r"(?:^|\n)\s*\**\s*Final Answer\s*\**\s*[:：]\s*", re.IGNORECASE)
_THOUGHT = re.compile(r"^\s*\**\s*Thought\s*\**\s*[:：]\s*", re.IGNORECASE)


def streamed_final_answer(raw: str) -> str | None:
    """The final answer of a Reflection being written, once there is one worth showing: None before
    the ``Final Answer:`` line, and while it is (or may become) an abstention, which is not shown."""
    final = parse_reflection(raw)[1]
    if final is None or final.startswith(NO_ANSWER) or NO_ANSWER.startswith(final):
        return None
    return final


def parse_reflection(text: str) -> tuple[str, str | None]:
    """(thought, final answer) of a Reflection reply; the final answer is None when there is no
    ``Final Answer:`` line, so the draft stands."""
    match = _FINAL.search(text)
    if match is None:
        return _THOUGHT.sub("", text).strip(), None
    thought = _THOUGHT.sub("", text[: match.start()]).strip()
    final = text[match.end() :].strip()
    return thought, final or None
