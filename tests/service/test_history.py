"""The history a turn sees: estimated tokens and trimming to a budget."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from bunseki.service.history import as_messages, count_tokens, estimate_tokens, trim_history


def test_japanese_costs_a_token_per_character_and_english_a_quarter() -> None:
    assert estimate_tokens("関東だけにして") == 7
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("売上 total") == 2 + 2  # two wide characters, six narrow ones
    assert estimate_tokens("") == 0


def test_count_includes_a_cost_per_message() -> None:
    messages = [HumanMessage("abcd"), AIMessage("売上")]
    assert count_tokens(messages) == (4 + 1) + (4 + 2)


def test_trim_keeps_the_newest_messages_and_starts_on_a_person() -> None:
    messages = as_messages(
        [("user", "一" * 50), ("assistant", "二" * 50), ("user", "三" * 50), ("assistant", "四" * 50)]
    )
    kept = trim_history(messages, budget=120)
    assert [str(m.content)[0] for m in kept] == ["三", "四"]
    assert isinstance(kept[0], HumanMessage)
    assert count_tokens(kept) <= 120
    assert trim_history(messages, budget=10_000) == messages


def test_a_message_longer_than_the_budget_keeps_its_end() -> None:
    messages = as_messages([("user", "古い質問"), ("user", "a" * 2000 + "最後の一文")])
    kept = trim_history(messages, budget=100)
    assert len(kept) == 1
    assert str(kept[0].content).endswith("最後の一文")
    assert count_tokens(kept) <= 100


def test_nothing_to_trim() -> None:
    assert trim_history([], budget=100) == []
    assert trim_history(as_messages([("user", "x" * 400)]), budget=4) == []


def test_as_messages_maps_roles() -> None:
    human, ai = as_messages([("user", "q"), ("assistant", "a")])
    assert isinstance(human, HumanMessage) and isinstance(ai, AIMessage)
