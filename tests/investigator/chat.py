"""A scripted chat model for the investigator: one queue of replies per agent.

The agent is told by its task in the system prompt, so a test scripts only the agents it is
about; an agent whose queue is empty gets a reply with no answer in it (an unusable one), which
the investigator must survive with its offline diagnostics.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from bunseki.brain.investigator import prompts
from tests.fakes.chat import ScriptedChatModel

TASKS = {
    "columns": prompts.COLUMNS_TASK,
    "narrative": prompts.NARRATIVE_TASK,
    "hypotheses": prompts.HYPOTHESES_TASK,
    "edit": prompts.EDIT_TASK,
    "root_cause": prompts.ROOT_CAUSE_TASK,
}
NO_ANSWER = "I would rather not say."


class AgentChatModel(ScriptedChatModel):
    """Replies from ``queues[agent]`` in order; ``asked`` holds (agent, prompt) for every call."""

    queues: dict[str, list[AIMessage]] = Field(default_factory=dict)
    asked: list[tuple[str, list[BaseMessage]]] = Field(default_factory=list)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        system = str(messages[0].content)
        agent = next((name for name, task in TASKS.items() if task in system), None)
        if agent is None:
            raise AssertionError(f"a prompt of no known agent: {system[:120]}")
        self.received.append(list(messages))
        self.asked.append((agent, list(messages)))
        queue = self.queues.get(agent, [])
        reply = queue.pop(0) if queue else AIMessage(NO_ANSWER)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def prompts_of(self, agent: str) -> list[str]:
        return ["\n".join(str(m.content) for m in messages) for name, messages in self.asked if name == agent]


def agents(**queues: list[AIMessage]) -> AgentChatModel:
    unknown = set(queues) - set(TASKS)
    assert not unknown, unknown
    return AgentChatModel(messages=iter([]), queues={k: list(v) for k, v in queues.items()})
