"""Brains from a ``provider:model`` spec: offline rules, or an LLM brain over a factory-built chat model.

The direction is one way: this module asks `bunseki.llm.create_chat_model` for a chat model and
hands it to a brain; `bunseki.llm` knows nothing of brains, and no brain knows which provider it
talks to (how to ask a provider for structured output is recorded on the model by the factory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunseki.llm import ModelSpec, create_chat_model, parse_model_spec

if TYPE_CHECKING:
    from bunseki.brain.analyst.contract import AnalystBrain
    from bunseki.brain.eda.contract import EdaBrain
    from bunseki.brain.investigator.contract import InvestigatorBrain
    from bunseki.brain.knowledge.contract import KnowledgeBrain
    from bunseki.rag import Embedder, Lexicon
    from bunseki.settings import Settings

# The offline brains and the LLM brains are imported where they are chosen: a process that
# only ever uses one kind does not pay for importing the other.


def create_analyst_brain(spec: str | None, settings: Settings) -> AnalystBrain:
    """The analyst's brain for ``spec`` (``settings.model`` when None): offline, or an `LLMAnalystBrain`."""
    parsed = _spec(spec, settings)
    if parsed.is_offline:
        from bunseki.brain.analyst.offline import OfflineAnalystBrain

        return OfflineAnalystBrain()
    from bunseki.brain.analyst.llm import LLMAnalystBrain

    return LLMAnalystBrain(create_chat_model(parsed, settings), name=str(parsed))


def create_eda_brain(spec: str | None, settings: Settings) -> EdaBrain:
    """The EDA pipeline's brain for ``spec``, as `create_analyst_brain` chooses: offline, or over a chat model."""
    parsed = _spec(spec, settings)
    if parsed.is_offline:
        from bunseki.brain.eda.offline import OfflineEdaBrain

        return OfflineEdaBrain()
    from bunseki.brain.eda.llm import LLMEdaBrain

    return LLMEdaBrain(create_chat_model(parsed, settings), name=str(parsed))


def create_investigator_brain(spec: str | None, settings: Settings) -> InvestigatorBrain:
    """The investigator's brain for ``spec``, as `create_analyst_brain` chooses: offline, or over a chat model."""
    parsed = _spec(spec, settings)
    if parsed.is_offline:
        from bunseki.brain.investigator.offline import OfflineInvestigatorBrain

        return OfflineInvestigatorBrain()
    from bunseki.brain.investigator.llm import LLMInvestigatorBrain

    return LLMInvestigatorBrain(create_chat_model(parsed, settings), name=str(parsed))


def create_knowledge_brain(
    spec: str | None, settings: Settings, *, embedder: Embedder | None = None, lexicon: Lexicon | None = None
) -> KnowledgeBrain:
    """The knowledge chat's brain for ``spec`` (``settings.model`` when None): the offline extractive
    answerer (which scores sentences with ``embedder`` and ``lexicon``), or a chat model with the tools bound."""
    parsed = _spec(spec, settings)
    if parsed.is_offline:
        from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain

        return OfflineKnowledgeBrain(embedder=embedder, lexicon=lexicon)
    from bunseki.brain.knowledge.llm import LLMKnowledgeBrain

    return LLMKnowledgeBrain(create_chat_model(parsed, settings), name=str(parsed))


def _spec(spec: str | None, settings: Settings) -> ModelSpec:
    return parse_model_spec(settings.model if spec is None else spec)
