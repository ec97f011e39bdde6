"""The offline knowledge brain through the graph, over the fixture corpus embedded with multilingual-e5."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from bunseki.agents.knowledge import KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge.contract import NO_ANSWER, KnowledgeView, Passage
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain, units_of
from bunseki.brain.language import detect_language
from bunseki.rag import KnowledgeBase
from tests.rag.conftest import e5, e5_kb, lexicon, warm_cache  # noqa: F401  (fixtures)


@pytest.fixture(scope="module")
def brain(e5_kb: KnowledgeBase) -> OfflineKnowledgeBrain:  # noqa: F811
    return OfflineKnowledgeBrain(embedder=e5_kb.answer_embedder, lexicon=e5_kb.lexicon)


def ask(kb: KnowledgeBase, brain: OfflineKnowledgeBrain, question: str) -> tuple[dict[str, Any], list]:
    logged: list[dict[str, Any]] = []
    context = KnowledgeContext(knowledge_base=kb, brain=brain, log_unanswered=lambda **entry: logged.append(entry))
    state = {
        "messages": [HumanMessage(question)],
        "question": question,
        "collections": ["docs"],
        "language": detect_language(question),
    }
    return build().invoke(state, {"recursion_limit": recursion_limit()}, context=context), logged


def cited(out: dict[str, Any]) -> list[str]:
    return [out["passages"][number - 1].chunk_id for number in out["cited"]]


@pytest.mark.parametrize(
    ("question", "chunk", "quote", "frame"),
    [
        ("ポンプの点検はいつ行いますか", "papers/maintenance.pdf#0", "毎月第1月曜日に点検し", "によると、"),
        (
            "サンドボックスのメモリが足りないときは",
            "manuals/setup.md#4",
            "メモリ上限を引き上げてください",
            "によると、",
        ),
        (
            "複数のプロセスで同じナレッジベースを使うには？",
            "manuals/setup.md#2",
            "QDRANT_URL にサーバーの URL",
            "とのことです。",
        ),
        (
            "How do I turn on two-factor authentication?",
            "guide/security.html#1",
            "choose Enable two-factor",
            "According to",
        ),
        ("How can I change my email address?", "faq/account.xlsx#0", "choose Edit e-mail", "According to"),
        (
            "Which sorting algorithm needs extra memory but is always n log n?",
            "en/sorting.md#0",
            "O(n log n)",
            "According",
        ),
        ("パスワードを忘れたときはどうすればいいですか", "faq/faq.csv#0", "「パスワードを忘れた方」を選び", "によると"),
    ],
)
def test_it_answers_with_the_sentence_that_answers_and_cites_it(
    e5_kb: KnowledgeBase,  # noqa: F811
    brain: OfflineKnowledgeBrain,
    question: str,
    chunk: str,
    quote: str,
    frame: str,
) -> None:
    out, logged = ask(e5_kb, brain, question)
    assert out["status"] == "answered", out.get("reason")
    assert cited(out) == [chunk]
    assert quote in out["final"] and frame in out["final"]
    assert out["final"].endswith("[1]") or "[" in out["final"]
    passage = out["passages"][out["cited"][0] - 1]
    assert len(out["final"]) < len(passage.text) + 80  # the answering sentences, not the passage pasted
    assert "Every claim of the draft is in the cited passages" in out["reflection_thought"]
    assert logged == []


@pytest.mark.parametrize(
    ("question", "chunk", "quote", "frame"),
    [
        (
            "セッションは何分で自動的にサインアウトされますか",
            "guide/security.html#2",
            "after 30 minutes",
            "によると、「",
        ),
        (
            "緊急停止ボタンはどこにありますか",
            "papers/maintenance.pdf#0",
            "left side of the control panel",
            "とのことです",
        ),
        ("緊急停止ボタンはどこ？", "papers/maintenance.pdf#0", "left side of the control panel", "の英語の記述"),
        (
            "How often should the filter be replaced?",
            "papers/maintenance.pdf#0",
            "フィルターは3か月ごとに交換する",
            "a Japanese document (quoted in its own words)",
        ),
        ("Within how many days can I return an item?", "notes/returns.txt#0", "14日以内", "a Japanese document"),
    ],
)
def test_it_answers_across_languages(
    e5_kb: KnowledgeBase,  # noqa: F811
    brain: OfflineKnowledgeBrain,
    question: str,
    chunk: str,
    quote: str,
    frame: str,
) -> None:
    out, _ = ask(e5_kb, brain, question)
    assert out["status"] == "answered", out.get("reason")
    assert cited(out) == [chunk]
    assert quote in out["final"] and frame in out["final"]


@pytest.mark.parametrize(
    "question", ["消費税率は何パーセントですか", "社員食堂の営業時間は？", "Who won the 2020 World Cup?"]
)
def test_it_abstains_and_logs_when_no_passage_supports_an_answer(
    e5_kb: KnowledgeBase,  # noqa: F811
    brain: OfflineKnowledgeBrain,
    question: str,
) -> None:
    out, logged = ask(e5_kb, brain, question)
    assert out["status"] == "unanswered"
    assert out["cited"] == []
    # the question; the question by meaning alone (across languages); its keywords
    assert [search.mode for search in out["searches"]] == ["hybrid", "dense", "hybrid"]
    assert out["draft"].startswith(NO_ANSWER)
    assert len(logged) == 1 and logged[0]["question"] == question and logged[0]["collections"] == ["docs"]
    kinds = [thought.kind for thought in out["thoughts"]]
    assert kinds == ["thought", "tool_call", "observation"] * 3 + ["draft"]


def passage(number: int, text: str, heading: str = "Options") -> Passage:
    return Passage(
        number=number,
        collection="docs",
        source="cli.md",
        title="CLI",
        heading=heading,
        chunk_id=f"cli.md#{number}",
        score=0.5,
        text=text,
    )


def test_units_are_lines_options_and_sentences_not_code_or_titles() -> None:
    text = (
        "--timeout SECONDS: how long a cell may run.\n"
        "- `--memory MB`: the memory limit of the sandbox\n"
        "def main(argv):\n"
        "    return run(argv)\n"
        "Run the command. Then check the output,\n"
        "which lists every cell."
    )
    units = [unit.text for unit in units_of(passage(1, text))]
    assert units == [
        "--timeout SECONDS: how long a cell may run.",
        "`--memory MB`: the memory limit of the sandbox",
        "Run the command.",
        "Then check the output, which lists every cell.",
    ]


def test_an_option_or_setting_line_is_one_unit_and_a_short_line_heads_the_block_below_it() -> None:
    text = (
        "Paper\n"
        "1. Pull out the tray.\n"
        "2. Load the paper.\n"
        "\n"
        "E09: The printer is too hot. Switch it off and wait 30 minutes.\n"
        "Sleep: the idle time before power saving. The default is 5 minutes."
    )
    units = units_of(passage(1, text, heading=""))
    assert [unit.text for unit in units] == [
        "1. Pull out the tray.",
        "2. Load the paper.",
        "E09: The printer is too hot. Switch it off and wait 30 minutes.",
        "Sleep: the idle time before power saving. The default is 5 minutes.",
    ]
    assert [unit.context for unit in units] == ["CLI\nPaper", "CLI\nPaper", "CLI", "CLI"]


def test_a_step_is_answered_with_its_whole_numbered_list() -> None:
    brain = OfflineKnowledgeBrain()
    text = "Loading paper\n1. Pull out the tray.\n2. Load the paper.\n3. Push the tray back in."
    picked = brain.best("How do I load paper?", [passage(1, text, heading="")])
    assert [item.unit.text for item in picked] == [
        "1. Pull out the tray.",
        "2. Load the paper.",
        "3. Push the tray back in.",
    ]
    assert any(item.supported for item in picked)


def test_a_code_or_number_the_question_names_must_be_in_the_passage() -> None:
    brain = OfflineKnowledgeBrain()
    codes = passage(1, "E02: paper jam. Open the back cover.\nE05: the ink is low.", heading="Error codes")
    assert brain.best("What does error code E05 mean?", [codes])[0].unit.text == "E05: the ink is low."
    assert not brain.best("What does error code E07 mean?", [codes])[0].supported


def test_reflection_drops_claims_the_cited_passage_does_not_contain() -> None:
    checker = OfflineKnowledgeBrain()
    cli = passage(1, "--timeout SECONDS: how long a cell may run.")

    def check(draft: str) -> str:
        view = KnowledgeView(question="q", language="en", collections=["docs"], passages=[cli], draft=draft)
        return checker.reflect(view)

    good = "According to CLI (Options): “--timeout SECONDS: how long a cell may run.” [1]"
    assert check(good).endswith(f"Final Answer: {good}")
    invented = "According to CLI (Options): “--timeout SECONDS: how long a cell may run.” “The default is 60.” [1]"
    assert check(invented).endswith(f"Final Answer: {good}")
    assert "not in the cited passages: The default is 60." in check(invented)
    embellished = "According to CLI (Options), which is always fast: “--timeout SECONDS: how long a cell may run.” [1]"
    assert "words the passages do not contain: alway, fast" in check(embellished)  # terms, plural-stripped
    assert check("“The default is 60.” [1]").split("Final Answer: ")[1].startswith(NO_ANSWER)
    assert check('"The default is 60." [1]').split("Final Answer: ")[1].startswith(NO_ANSWER)  # plain quotes too


def test_more_candidate_sentences_than_the_vector_cache_holds_are_all_scored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bunseki.brain.knowledge import offline
    from tests.rag.conftest import BigramEmbedder

    monkeypatch.setattr(offline, "_CACHE_SIZE", 4)  # a long session over a large collection, in small
    brain = OfflineKnowledgeBrain(embedder=BigramEmbedder(), lexicon=offline.Lexicon())
    first = [passage(number, f"--option-{number}: sets the value number {number}.") for number in range(1, 4)]
    second = [passage(number, f"--flag-{number}: turns feature {number} on.") for number in range(1, 7)]
    assert brain.best("Which option sets the value number 2?", first)
    # every sentence of the first turn is still cached when the second needs more than the cache holds
    best = brain.best("Which flag turns feature 5 on?", [*first, *second])
    assert best and "--flag-5" in best[0].unit.text


def test_asked_which_option_a_sentence_naming_none_is_no_answer() -> None:
    brain = OfflineKnowledgeBrain(embedder=None)
    about = passage(1, "The password of an account should be at least eight characters long.", heading="passwd")
    named = passage(2, "-l, --lock: lock the password of the named account.", heading="passwd")
    assert not brain.best("Which passwd option locks the password of an account?", [about])[0].supported
    picked = brain.best("Which passwd option locks the password of an account?", [about, named])
    assert picked[0].supported and picked[0].unit.text.startswith("-l, --lock")
