"""The knowledge chat's loop over a scripted chat model: tool calls, [[NO_RAG_RESULT]], the step cap, Reflection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from bunseki.agents.knowledge import MAX_STEPS, KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge.contract import NO_RAG_RESULT
from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.domain import CollectionInfo, SearchHit
from bunseki.rag.models import SearchMode
from tests.fakes.chat import ScriptedChatModel, scripted, tool_call

HIT = SearchHit(
    collection="manuals",
    source="setup.md",
    title="導入ガイド",
    heading="Qdrant サーバー",
    chunk_id="setup.md#2",
    score=0.9,
    text="複数のプロセスから使う場合は QDRANT_URL にサーバーの URL を設定してください。",
)


class FakeKnowledgeBase:
    """Returns HIT for queries that mention Qdrant, nothing otherwise; records every search."""

    def __init__(self) -> None:
        self.queries: list[tuple[str, list[str], SearchMode]] = []

    def search(
        self, query: str, collections: Sequence[str], *, top_k: int = 5, mode: SearchMode = "hybrid"
    ) -> list[SearchHit]:
        self.queries.append((query, list(collections), mode))
        return [HIT] if "qdrant" in query.lower() else []

    def collections(self) -> list[CollectionInfo]:
        return [CollectionInfo(name="manuals", documents=1, chunks=3, embedding_model="fake", location=":memory:")]


def run(
    model: ScriptedChatModel, question: str = "複数プロセスで使うには？", **state: Any
) -> tuple[dict[str, Any], list]:
    logged: list[dict[str, Any]] = []
    context = KnowledgeContext(
        knowledge_base=FakeKnowledgeBase(),
        brain=LLMKnowledgeBrain(model, name="fake:model"),
        min_relevance=None,
        log_unanswered=lambda **entry: logged.append(entry),
    )
    out = build().invoke(
        {"messages": [HumanMessage(question)], "question": question, "collections": ["manuals"], **state},
        {"recursion_limit": recursion_limit()},
        context=context,
    )
    return out, logged


def test_tool_calls_run_and_reflection_replaces_the_draft() -> None:
    model = scripted(
        AIMessage(
            "Qdrant の設定を探します。",
            tool_calls=[
                {"name": "list_rag_collections", "args": {}, "id": "c1"},
                {"name": "search_rag_knowledge_base", "args": {"query": "Qdrant 複数プロセス"}, "id": "c2"},
            ],
        ),
        AIMessage("QDRANT_URL を設定します。サーバーは速いです。[1]"),
        AIMessage(
            "Thought: 「速い」は資料にありません。\nFinal Answer: QDRANT_URL にサーバーの URL を設定してください。[1]"
        ),
    )
    out, logged = run(model)
    assert out["status"] == "answered"
    assert out["final"] == "QDRANT_URL にサーバーの URL を設定してください。[1]"
    assert out["draft"] == "QDRANT_URL を設定します。サーバーは速いです。[1]"
    assert [(p.number, p.chunk_id) for p in out["passages"]] == [(1, "setup.md#2")]
    assert out["cited"] == [1]
    kinds = [(t.kind, t.tool) for t in out["thoughts"]]
    assert kinds == [
        ("thought", None),
        ("tool_call", "list_rag_collections"),
        ("tool_call", "search_rag_knowledge_base"),
        ("observation", "list_rag_collections"),
        ("observation", "search_rag_knowledge_base"),
        ("draft", None),
        ("reflection", None),
    ]
    assert "manuals: 1 documents, 3 chunks" in out["thoughts"][3].content
    assert "[1] setup.md › Qdrant サーバー (setup.md#2)" in out["thoughts"][4].content
    assert logged == []
    # The system instruction lists the collections; tool results go back to the model.
    first, second, reflection = model.received
    assert "Available collections: manuals" in str(first[0].content)
    assert "です・ます" in str(first[0].content)
    assert [type(m) for m in second[-2:]] == [ToolMessage, ToolMessage]
    assert "Draft answer:\nQDRANT_URL を設定します。" in str(reflection[-1].content)
    # The final answer replaced the draft in the conversation.
    assert [type(m) for m in out["messages"]][-1] is AIMessage
    assert out["messages"][-1].content == out["final"]
    assert not any(m.content == out["draft"] for m in out["messages"])


def test_a_search_with_nothing_relevant_returns_no_rag_result_and_logs_the_question() -> None:
    model = scripted(
        tool_call("search_rag_knowledge_base", {"query": "消費税率", "collections": ["manuals", "other"]}),
        tool_call("search_rag_knowledge_base", {"query": "税金", "top_k": 50}),
        AIMessage("[[NO_ANSWER]] 資料に消費税の記載がありません。"),
    )
    out, logged = run(model, "消費税率は？")
    observations = [t.content for t in out["thoughts"] if t.kind == "observation"]
    assert observations == [NO_RAG_RESULT, NO_RAG_RESULT]
    assert out["status"] == "unanswered"
    assert out["reason"] == "資料に消費税の記載がありません。"
    assert "未回答の質問として記録しました" in out["final"]
    assert logged == [
        {"question": "消費税率は？", "collections": ["manuals"], "reason": f"{NO_RAG_RESULT} search: 消費税率"}
    ]  # once per question, only over the conversation's collections
    assert len(model.received) == 3  # an abstention skips Reflection


def test_the_loop_stops_after_ten_steps() -> None:
    model = scripted(*[tool_call("search_rag_knowledge_base", {"query": f"Qdrant {n}"}) for n in range(20)])
    out, logged = run(model)
    assert len(model.received) == MAX_STEPS == out["steps"]
    assert sum(t.kind == "observation" for t in out["thoughts"]) == MAX_STEPS - 1
    assert out["status"] == "unanswered"
    assert out["reason"] == "10 ステップ以内に回答できませんでした。"
    assert len(logged) == 1


def test_an_answer_that_cites_no_passage_is_replaced_by_the_unanswered_message() -> None:
    model = scripted(
        tool_call("search_rag_knowledge_base", {"query": "qdrant"}),
        AIMessage("Set QDRANT_URL."),
        AIMessage("Looks fine."),  # no Final Answer: the draft stands, and it cites nothing
    )
    out, logged = run(model, "How do several processes share it?", language="en")
    assert out["status"] == "unanswered"
    assert out["final"].startswith("Sorry, the documents in the selected collections do not answer")
    assert out["cited"] == []
    assert logged and logged[0]["reason"] == "The answer cited no passage."
    assert out["reflection_thought"] == "Looks fine."
    assert "Answer in the language of the question" in str(model.received[0][0].content)


def answer_after_a_search(draft: str, final: str) -> tuple[dict[str, Any], list]:
    """The outcome of a turn that searched once (finding HIT as [1]), drafted ``draft`` and reflected to ``final``."""
    model = scripted(
        tool_call("search_rag_knowledge_base", {"query": "qdrant"}),
        AIMessage(draft),
        AIMessage(f"Thought: fine\nFinal Answer: {final}"),
    )
    return run(model, "How do several processes share it?", language="en")


def test_a_cited_draft_stands_when_the_reflection_drops_its_citations() -> None:
    out, logged = answer_after_a_search("Set QDRANT_URL to its URL [1].", "Set QDRANT_URL to its URL.")
    assert out["status"] == "answered"
    assert out["final"] == "Set QDRANT_URL to its URL [1]."
    assert out["cited"] == [1]
    assert logged == []


def test_a_citation_of_a_passage_that_does_not_exist_is_no_citation() -> None:
    out, _ = answer_after_a_search("Set QDRANT_URL [4].", "Set QDRANT_URL [4].")
    assert out["status"] == "unanswered"
    assert out["reason"] == "The answer cited no passage."


def test_an_answer_without_any_passage_is_not_an_answer() -> None:
    model = scripted(AIMessage("The answer is 42."), AIMessage("Thought: ok\nFinal Answer: The answer is 42."))
    out, logged = run(model, "What is the answer?", language="en")
    assert out["status"] == "unanswered"
    assert out["cited"] == []
    assert logged and logged[0]["reason"] == "The answer rests on no passage."


def test_numbers_of_the_cited_chapter_and_section_are_grounded_but_invented_ones_are_not() -> None:
    numbered = HIT.model_copy(update={"title": "第9章 導入ガイド", "heading": "9.4. Qdrant サーバー"})

    def ask(answer: str) -> dict[str, Any]:
        model = scripted(
            tool_call("search_rag_knowledge_base", {"query": "qdrant"}), AIMessage(answer), AIMessage("ok")
        )
        knowledge_base = FakeKnowledgeBase()
        knowledge_base.search = lambda *args, **kwargs: [numbered]  # type: ignore[method-assign]
        context = KnowledgeContext(
            knowledge_base=knowledge_base, brain=LLMKnowledgeBrain(model, name="fake:model"), min_relevance=None
        )
        state = {"messages": [HumanMessage("複数プロセスで使うには？")], "question": "複数プロセスで使うには？"}
        return build().invoke(
            {**state, "collections": ["manuals"]}, {"recursion_limit": recursion_limit()}, context=context
        )

    assert (
        ask("『第9章 導入ガイド』（9.4. Qdrant サーバー）によると、QDRANT_URL を設定します。[1]")["status"]
        == "answered"
    )
    assert ask("QDRANT_URL を設定し、ポート 6333 を開けます。[1]")["status"] == "unanswered"
