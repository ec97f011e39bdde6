"""The nodes of the knowledge chat's loop: ``agent`` (the brain's next step), ``tools``, ``reflect``, ``finish``."""

from __future__ import annotations

import re
from contextlib import nullcontext
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from bunseki.agents.knowledge.context import KnowledgeContext
from bunseki.agents.knowledge.state import KnowledgeState
from bunseki.agents.knowledge.tools import list_rag_collections, search_mode, search_rag_knowledge_base
from bunseki.brain.grounding import ungrounded
from bunseki.brain.knowledge.contract import (
    LIST_TOOL,
    NO_ANSWER,
    NO_RAG_RESULT,
    SEARCH_TOOL,
    KnowledgeView,
    SearchRecord,
    message_text,
    parse_reflection,
)
from bunseki.brain.streaming import streaming_answer
from bunseki.domain import Event, Thought, corrections, streamed_answer
from bunseki.errors import ModelError

_CITATION = re.compile(r"\[(\d{1,3})\]")
STEP_LIMIT = {
    "ja": "{steps} ステップ以内に回答できませんでした。",
    "en": "No answer within {steps} steps.",
}
UNANSWERED = {
    "ja": "申し訳ありません。選択されたコレクションの資料には、この質問に答える記述が見つかりませんでした。"
    "未回答の質問として記録しました。",
    "en": "Sorry, the documents in the selected collections do not answer this question. "
    "It has been recorded as unanswered.",
}
NO_EVIDENCE = {
    "ja": "回答の根拠となる記述がありません。",
    "en": "The answer rests on no passage.",
}
NO_CITATION = {
    "ja": "回答がどの記述も引用していませんでした。",
    "en": "The answer cited no passage.",
}
UNSUPPORTED_NUMBERS = {
    "ja": "回答に、引用した記述にない数値が含まれていました。",
    "en": "The answer stated numbers that no cited passage contains.",
}


def agent(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> dict[str, Any]:
    """One step of the ReAct loop: the brain thinks and calls tools, or drafts the answer."""
    emit = get_stream_writer()
    step = state.steps + 1
    emit({"event": "node_started", "node": "agent", "step": step})
    try:
        reply = runtime.context.brain.respond(view(state, step=step))
    except ModelError as exc:
        emit({"event": "error", "node": "agent", "error": str(exc)})
        return {"status": "error", "error": str(exc), "steps": step}
    text = message_text(reply).strip()
    thoughts: list[Thought] = []
    update: dict[str, Any] = {"messages": [reply], "steps": step}
    if reply.tool_calls:
        if text:
            thoughts.append(Thought(step=step, kind="thought", content=text))
        thoughts += [
            Thought(step=step, kind="tool_call", tool=call["name"], arguments=dict(call["args"]))
            for call in reply.tool_calls
        ]
    else:
        thoughts.append(Thought(step=step, kind="draft", content=text))
        update["draft"] = text
    for thought in thoughts:
        emit({"event": "thought", **thought.model_dump()})
    return update | {"thoughts": thoughts}


def tools(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> dict[str, Any]:
    """Run the tool calls of the last step; a search that finds nothing logs the question as unanswered."""
    context = runtime.context
    emit = get_stream_writer()
    last = state.messages[-1]
    calls = last.tool_calls if isinstance(last, AIMessage) else []
    passages = list(state.passages)
    messages: list[ToolMessage] = []
    thoughts: list[Thought] = []
    searches: list[SearchRecord] = []
    update: dict[str, Any] = {}
    logged = state.unanswered_logged
    for call in calls:
        name, arguments = call["name"], dict(call["args"])
        if name == SEARCH_TOOL:
            outcome = search_rag_knowledge_base(context, state.collections, passages, arguments)
            passages = outcome.passages
            content = outcome.observation
            query = str(arguments.get("query") or "")
            mode = search_mode(arguments)
            searches.append(
                SearchRecord(query=query, collections=outcome.collections, numbers=outcome.numbers, mode=mode)
            )
            if content.startswith(NO_RAG_RESULT) and not logged:
                logged = _log(context, state, f"{NO_RAG_RESULT} search: {query}")
        elif name == LIST_TOOL:
            content = list_rag_collections(context, state.collections)
            update["listed_collections"] = True
        else:
            content = f"Error: there is no tool {name!r}; use {SEARCH_TOOL} or {LIST_TOOL}."
        messages.append(ToolMessage(content, tool_call_id=call["id"] or name, name=name))
        thoughts.append(Thought(step=state.steps, kind="observation", tool=name, content=content))
        emit({"event": "observation", "tool": name, "content": content[:500]})
    return update | {
        "messages": messages,
        "thoughts": thoughts,
        "passages": passages,
        "searches": searches,
        "unanswered_logged": logged,
    }


def reflect(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> dict[str, Any]:
    """Reflection: the brain checks the draft; its ``Final Answer:`` replaces the draft.

    When someone listens, a streaming model's final answer reaches them as it is written."""
    emit = get_stream_writer()
    emit({"event": "node_started", "node": "reflect", "step": state.steps})
    draft = state.draft or ""
    shown: list[Event] = []

    def relay(event: Event) -> None:
        shown.append(event)
        emit(event)

    try:
        with streaming_answer(relay) if runtime.context.stream_answer else nullcontext():
            reply = runtime.context.brain.reflect(view(state, step=state.steps, draft=draft))
    except ModelError as exc:
        thought, final = f"The Reflection failed ({exc}); the draft stands.", None
        reply = thought
    else:
        thought, final = parse_reflection(reply)
    record = Thought(step=state.steps, kind="reflection", content=reply)
    emit({"event": "thought", **record.model_dump()})
    return {
        "final": final or draft,
        "reflection_thought": thought,
        "thoughts": [record],
        "streamed": streamed_answer(shown),
    }


def finish(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> dict[str, Any]:
    """The outcome: answered with citations, or unanswered (logged once) with the reason."""
    emit = get_stream_writer()
    if state.status == "error":
        return {}
    answer = state.final if state.final is not None else state.draft
    language = state.language
    reason: str | None = None
    cited: list[int] = []
    if not answer:
        reason = STEP_LIMIT[language].format(steps=state.max_steps)
    elif answer.startswith(NO_ANSWER):
        reason = answer.removeprefix(NO_ANSWER).strip() or NO_EVIDENCE[language]
    else:
        cited = cited_numbers(answer, len(state.passages))
        draft = state.draft or ""
        draft_cited = cited_numbers(draft, len(state.passages))
        if not cited and draft_cited and draft != answer:  # the Reflection dropped the draft's citations
            answer, cited = draft, draft_cited
        if not cited and not state.listed_collections:  # every claim cites a passage, or it is no answer
            reason = (NO_CITATION if state.passages else NO_EVIDENCE)[language]
        elif _unsupported(answer, state, cited):
            # The Reflection may have added what the draft did not say; a grounded draft stands.
            draft_cited = draft_cited or cited
            if draft and draft != answer and not _unsupported(draft, state, draft_cited):
                answer, cited = draft, draft_cited
            else:
                reason = UNSUPPORTED_NUMBERS[language]
    update: dict[str, Any] = {"cited": cited}
    if reason is not None:
        update |= {"status": "unanswered", "reason": reason, "final": UNANSWERED[language], "cited": []}
        if not state.unanswered_logged:
            update["unanswered_logged"] = _log(runtime.context, state, reason)
    else:
        update |= {"status": "answered", "final": answer}
    final_message: AnyMessage = AIMessage(update["final"])
    draft_message = _draft_message(state.messages)
    if draft_message is not None and draft_message.id:
        final_message.id = draft_message.id  # the final answer replaces the draft in the conversation
    update["messages"] = [final_message]
    for event in corrections(state.streamed, update["final"]):  # what listeners saw last is what is kept
        emit(event)
    emit({"event": "finished", "status": update["status"], "reason": reason})
    return update


def view(state: KnowledgeState, *, step: int, draft: str | None = None) -> KnowledgeView:
    """What the brain may see at this step."""
    return KnowledgeView(
        question=state.question,
        language=state.language,
        collections=state.collections,
        messages=list(state.messages),
        passages=state.passages,
        searches=state.searches,
        listed_collections=state.listed_collections,
        step=step,
        max_steps=state.max_steps,
        draft=draft,
    )


def cited_numbers(text: str, passages: int) -> list[int]:
    """The passage numbers ``[n]`` a text cites, in order, once each, only those that exist."""
    numbers = (int(number) for number in _CITATION.findall(text))
    return list(dict.fromkeys(number for number in numbers if 1 <= number <= passages))


def _unsupported(answer: str, state: KnowledgeState, cited: list[int]) -> bool:
    """Whether ``answer`` states numbers found neither in the passages it cites (their titles and
    headings too, which the answer names: 『第9章 …』（9.4. …）) nor in the question."""
    cited_passages = [p for p in state.passages if p.number in cited]
    sources = [state.question, *(f"{p.title}\n{p.heading}\n{p.source}\n{p.text}" for p in cited_passages)]
    if state.listed_collections:
        sources += state.collections
    return bool(ungrounded(answer, sources))


def _log(context: KnowledgeContext, state: KnowledgeState, reason: str) -> bool:
    if context.log_unanswered is None:
        return False
    context.log_unanswered(question=state.question, collections=list(state.collections), reason=reason)
    return True


def _draft_message(messages: list[AnyMessage]) -> AIMessage | None:
    last = messages[-1] if messages else None
    return last if isinstance(last, AIMessage) and not last.tool_calls else None
