"""An investigation counts every model call of its agents; a background run keeps that usage and its
trace in its record.json (and the usage in result.json), however it ends."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from bunseki.brain.investigator.llm import HypothesisList, LLMInvestigatorBrain, ProposedHypothesis
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.service.investigations import InvestigationService, InvestigationView
from bunseki.settings import Settings
from tests.api.test_investigations_api import sample_case_zip
from tests.fakes.chat import tool_reply
from tests.fakes.usage import MODEL, PRICES, counted
from tests.investigator.chat import AgentChatModel, agents
from tests.investigator.embedder import TrigramEmbedder

HYPOTHESES = HypothesisList(
    hypotheses=[ProposedHypothesis(kind="unexpected", statement="Noise.", test="None.", edit_ids=[])]
)
TOKENS = (2000, 150)  # the hypotheses call's; the other agents' replies report none


class Unreachable(AgentChatModel):
    """Answers as `agents` does, except that the hypotheses agent's server cannot be reached."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        if self.asked[-1][0] == "hypotheses":
            raise ConnectionError("connection refused")
        return result


class LightInvestigator(InvestigationService):
    """The investigator with a small embedder, so that no e5 model is loaded."""

    def run(self, manifest: Path, **kwargs: Any) -> InvestigationView:
        return super().run(manifest, embedder=TrigramEmbedder(), **kwargs)


def _runs(settings: Settings, model: AgentChatModel) -> InvestigationRuns:
    priced = settings.model_copy(update={"llm_prices": PRICES})
    brain = LLMInvestigatorBrain(model, name=MODEL)
    return InvestigationRuns(priced, brains=lambda spec: brain, investigator=LightInvestigator(priced))


def _investigate(runs: InvestigationRuns) -> tuple[InvestigationView | Any, dict[str, Any]]:
    started = runs.start_from_upload("case.zip", io.BytesIO(sample_case_zip()), model=MODEL)
    view = runs.wait(started.investigation_id)
    record = json.loads((runs.root / view.investigation_id / "record.json").read_text(encoding="utf-8"))
    return view, record


def test_a_background_investigation_keeps_what_its_model_calls_cost(settings: Settings) -> None:
    model = agents(hypotheses=[counted(tool_reply(HYPOTHESES), *TOKENS)])
    with _runs(settings, model) as runs:
        view, record = _investigate(runs)
        result = runs.result(view.investigation_id)
        listed = runs.list()[0].usage
    assert view.status == "completed"
    usage = view.usage
    assert usage is not None and (usage.model, usage.calls) == (MODEL, len(model.asked))
    assert (usage.prompt_tokens, usage.completion_tokens) == TOKENS
    assert usage.cost is not None and abs(usage.cost - (2000 * 0.15 + 150 * 0.6) / 1_000_000) < 1e-12
    assert listed == usage and result["usage"] == usage.model_dump(mode="json") == record["usage"]
    trace = record["trace"]
    assert trace["status"] == "completed" and len(trace["model_calls"]) == len(model.asked)
    assert [(c["prompt_tokens"], c["completion_tokens"]) for c in trace["model_calls"] if c["prompt_tokens"]] == [
        TOKENS
    ]
    assert {"initialize", "summarizer"} <= {node["name"] for node in trace["nodes"]}


def test_a_failed_model_call_is_counted_in_the_failed_run(settings: Settings) -> None:
    model = Unreachable(messages=iter([]), queues={})
    with _runs(settings, model) as runs:
        view, record = _investigate(runs)
    assert view.status == "error" and "could not connect" in (view.error or "")
    assert view.usage is not None and view.usage.calls == len(model.asked) >= 1
    failed = [call for call in record["trace"]["model_calls"] if call["error"]]
    assert len(failed) == 1 and "connection refused" in failed[0]["error"]
    assert record["trace"]["status"] == "error"


def test_an_offline_investigation_says_offline(settings: Settings, tmp_path: Path) -> None:
    manifest = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "case.yaml"
    view = InvestigationService(settings).run(manifest, model="offline", embedder=TrigramEmbedder())
    assert view.usage is not None and view.usage.offline and view.as_dict()["usage"]["calls"] == 0
    assert view.trace is not None and view.trace["model_calls"] == [] and view.trace["nodes"]
