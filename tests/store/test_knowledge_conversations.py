"""Knowledge-chat conversations and their turns: owned, numbered, cleared, deleted (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from bunseki.errors import NotFound
from bunseki.store import Store

ANSWER = {
    "status": "answered",
    "answer": "『配送について』によると、「3営業日以内に発送」とのことです。 [1]",
    "citations": [],
}


def test_a_conversation_keeps_its_turns_in_order_and_its_latest_collections(store: Store) -> None:
    conversation = store.create_knowledge_conversation(collections=["manuals"], model=None)
    assert conversation.collections == ["manuals"] and conversation.model is None and conversation.user_id is None
    first = store.add_knowledge_turn(conversation.id, question="配送は？", answer=ANSWER, collections=["manuals"])
    second = store.add_knowledge_turn(
        conversation.id, question="Returns?", answer={"status": "unanswered"}, collections=["manuals", "faq"]
    )
    assert (first.number, second.number) == (1, 2)
    turns = store.list_knowledge_turns(conversation.id)
    assert [turn.question for turn in turns] == ["配送は？", "Returns?"]
    assert turns[0].answer == ANSWER
    assert [turn.question for turn in store.list_knowledge_turns(conversation.id, last=1)] == ["Returns?"]
    again = store.get_knowledge_conversation(conversation.id)
    assert again.collections == ["manuals", "faq"] and again.updated_at >= conversation.updated_at


def test_clearing_forgets_the_turns_and_keeps_the_conversation(store: Store) -> None:
    conversation = store.create_knowledge_conversation(collections=["manuals"], model="offline")
    for question in ("a", "b"):
        store.add_knowledge_turn(conversation.id, question=question, answer=ANSWER, collections=["manuals"])
    assert store.clear_knowledge_turns(conversation.id) == 2
    assert store.list_knowledge_turns(conversation.id) == []
    assert store.add_knowledge_turn(conversation.id, question="c", answer=ANSWER, collections=["manuals"]).number == 1


def test_conversations_belong_to_their_user(store: Store) -> None:
    sato, _ = store.create_user("佐藤")
    suzuki, _ = store.create_user("鈴木")
    mine = store.create_knowledge_conversation(collections=[], model=None, user_id=sato.id)
    store.add_knowledge_turn(mine.id, question="q", answer=ANSWER, collections=[])
    assert store.get_knowledge_conversation(mine.id, user_id=sato.id).id == mine.id
    assert [item.id for item in store.list_knowledge_conversations(user_id=sato.id)] == [mine.id]
    assert store.list_knowledge_conversations(user_id=suzuki.id) == []
    with pytest.raises(NotFound):
        store.get_knowledge_conversation(mine.id, user_id=suzuki.id)
    with pytest.raises(NotFound):
        store.clear_knowledge_turns(mine.id, user_id=suzuki.id)
    with pytest.raises(NotFound):
        store.delete_knowledge_conversation(mine.id, user_id=suzuki.id)
    store.delete_knowledge_conversation(mine.id, user_id=sato.id)
    with pytest.raises(NotFound):
        store.get_knowledge_conversation(mine.id)
    with pytest.raises(NotFound):
        store.list_knowledge_turns(mine.id)


def test_an_unknown_owner_or_conversation_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound, match="no user"):
        store.create_knowledge_conversation(collections=[], model=None, user_id="0" * 32)
    with pytest.raises(NotFound, match="no conversation"):
        store.add_knowledge_turn("0" * 32, question="q", answer=ANSWER, collections=[])


def test_history_is_there_for_the_next_process(database_url: str) -> None:
    with Store(database_url) as first:
        conversation = first.create_knowledge_conversation(collections=["manuals"], model=None)
        first.add_knowledge_turn(conversation.id, question="配送は？", answer=ANSWER, collections=["manuals"])
    with Store(database_url) as second:
        assert [turn.answer for turn in second.list_knowledge_turns(conversation.id)] == [ANSWER]
