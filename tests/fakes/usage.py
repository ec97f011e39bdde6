"""A scripted LLM turn whose model calls report their tokens, as providers do in usage_metadata."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from bunseki.brain.analyst.contract import CodeGenOutput, ReasonOutput
from bunseki.domain import ReportOutput, ReportSection
from bunseki.settings import ModelPrice
from tests.fakes.chat import tool_call, tool_reply

MODEL = "openai:gpt-4o-mini"
PRICES = {"gpt-4o-mini": ModelPrice(prompt=0.15, completion=0.6)}  # listed by bare model name
QUESTION = "数量の合計は？"
# (prompt, completion) tokens of each call of `turn_replies`, in order
TOKENS = [(1000, 5), (1100, 40), (900, 20), (1200, 15), (1300, 80)]
PROMPT_TOKENS = sum(prompt for prompt, _ in TOKENS)
COMPLETION_TOKENS = sum(completion for _, completion in TOKENS)
COST = (PROMPT_TOKENS * 0.15 + COMPLETION_TOKENS * 0.6) / 1_000_000


def counted(reply: AIMessage, prompt: int, completion: int) -> AIMessage:
    """``reply`` as a provider reports it: with the tokens the call took."""
    reply.usage_metadata = {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion}
    return reply


def turn_replies() -> list[Any]:
    """One turn for `QUESTION`: an unusable decision (asked again), act, code, finalize, report."""
    report = ReportOutput(
        title="数量の合計",
        conclusion="数量の合計を計算しました。",
        sections=[ReportSection(section_type="text", content="実行結果のとおりです。")],
    )
    replies = [
        tool_call("ReasonOutput", {"next_action": "dance"}),
        tool_reply(ReasonOutput(next_action="act", instruction="数量の合計", rationale="計算")),
        tool_reply(CodeGenOutput(code="print(df['数量'].sum())")),
        tool_reply(ReasonOutput(next_action="finalize", rationale="答えが出た")),
        tool_reply(report),
    ]
    return [counted(reply, *tokens) for reply, tokens in zip(replies, TOKENS, strict=True)]
