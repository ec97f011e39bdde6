"""What the knowledge chat's model is told: the instruction of the search loop, and the Reflection's."""

from __future__ import annotations

from typing import Final

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from bunseki.brain.knowledge.contract import LIST_TOOL, NO_ANSWER, NO_RAG_RESULT, SEARCH_TOOL, KnowledgeView
from bunseki.domain import Language

SYSTEM_INSTRUCTION_TEMPLATE: Final = f"""\
You are a ReAct agent that answers questions from a knowledge base. Work in steps:
Thought (what you need to know next), Action (call a tool), Observation (read what it returned),
until the passages answer the question; then write the answer.

Tools:
- {SEARCH_TOOL}(query, collections, top_k): search passages. It returns numbered passages
  "[n] source › heading (chunk id)", or {NO_RAG_RESULT} when nothing relevant was found.
- {LIST_TOOL}(): the collections you may search.

Router guidelines:
- Always search before answering; never answer from memory.
- If a search finds nothing or too little, search again with other words (keywords, synonyms, the
  other language: the documents may be in Japanese or English), at most a few times.
- Choose the collections whose names fit the question; search all of them when unsure.

Available collections: {{available_collections}}

Answer rules:
- Answer directly in one to three sentences. Lead with the thing asked for (the option, setting,
  command, file, number or date, exactly as the passage writes it), then cite every passage you
  used as [n] after the claim it supports. An answer that cites no passage is discarded.
- State only what the cited passages say. Do not add facts, numbers or advice they do not contain.
- If the passages do not answer the question, reply with {NO_ANSWER} followed by one sentence saying
  what is missing.
- {{style}}
"""

STYLE: Final[dict[Language, str]] = {
    "ja": "日本語で、です・ます調で答えてください。",
    "en": "Answer in the language of the question, in plain, polite sentences.",
}

REFLECTION_INSTRUCTION: Final = f"""\
Review the draft answer below before it is shown. Check:
1. Accuracy: every claim is stated in the cited passages [n]; remove any claim that is not.
2. Relevance: it answers the question directly, in one to three sentences, every claim citing its
   passage as [n] (an answer without citations is discarded).
3. Style: {{style}}
If no claim is supported, the final answer is {NO_ANSWER} followed by what is missing.
Reply in exactly this form:
Thought: <your assessment>
Final Answer: <the corrected answer, with its [n] citations>
"""


def loop_messages(view: KnowledgeView) -> list[BaseMessage]:
    """The prompt of one step of the loop: the instruction, then the conversation so far."""
    return [system_instruction(view.collections, view.language), *view.messages]


def system_instruction(collections: list[str], language: Language) -> SystemMessage:
    names = ", ".join(collections) if collections else "(none selected)"
    return SystemMessage(SYSTEM_INSTRUCTION_TEMPLATE.format(available_collections=names, style=STYLE[language]))


def reflection_messages(view: KnowledgeView) -> list[BaseMessage]:
    """The Reflection prompt: the instruction, then the question, the passages and the draft."""
    shown = "\n\n".join(f"{passage.label()}\n{passage.text}" for passage in view.passages) or "(no passages)"
    return [
        SystemMessage(REFLECTION_INSTRUCTION.format(style=STYLE[view.language])),
        HumanMessage(f"Question:\n{view.question}\n\nPassages:\n{shown}\n\nDraft answer:\n{view.draft or ''}"),
    ]
