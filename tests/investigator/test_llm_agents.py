"""Every agent of the investigator over a scripted chat model: good answers, bad answers, false claims.

The model words and proposes; execution decides and supplies the numbers. Each test runs a real
investigation in the sandbox with `AgentChatModel`, which answers each agent from its own queue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import yaml
from langchain_core.messages import AIMessage

from bunseki.brain.investigator.contract import ColumnNote, EditProposal, ProposedEdit
from bunseki.brain.investigator.llm import (
    ColumnNotes,
    HypothesisList,
    LLMInvestigatorBrain,
    Narrative,
    ProposedHypothesis,
    RootCause,
)
from bunseki.investigation.grounding import numbers_in, ungrounded
from bunseki.service.investigations import DatasetResultView, InvestigationService, InvestigationView
from bunseki.settings import Settings
from tests.fakes.chat import tool_call, tool_reply
from tests.investigator.builder import build_case
from tests.investigator.cases import DEFECTS, MEDIAN_FILTERED, THRESHOLD, spikes
from tests.investigator.chat import AgentChatModel, agents
from tests.investigator.embedder import TrigramEmbedder

EVAL_SPEC = """# Evaluation environment

The output CSV has one row per frame.

`z` is the detection flag: 1 while an event is detected, 0 otherwise.

`x` is the sensor level the algorithm reads.
"""
BROKEN_JSON = AIMessage('{"columns": [{"column": "z", "meaning": "the fl')  # cut off mid-answer
TOO_LATE = "default@6:43:5->4"  # min_run 5 → 4: still one frame late, so execution refutes it
RIGHT = "default@6:43:5->3"


def _case(tmp_path: Path) -> tuple[Path, list[int]]:
    """The wrong-default case (min_run 5 where 3 is meant) with an evaluation spec; its mismatched frames."""
    case = DEFECTS["wrong_default"]
    folder = tmp_path / "case"
    manifest = build_case(folder, buggy=case.buggy, correct=case.correct, signals={"d": case.signals})
    (folder / "eval_spec.md").write_text(EVAL_SPEC, encoding="utf-8")
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    manifest.write_text(yaml.safe_dump({**data, "env_specs": ["eval_spec.md"]}, sort_keys=False), encoding="utf-8")
    out, core = pd.read_csv(folder / "d_output.csv"), pd.read_csv(folder / "d_core.csv")
    return manifest, [int(f) for f in out.loc[out["z"] != core["z"], "frame"]]


def _run(settings: Settings, manifest: Path, model: AgentChatModel) -> tuple[InvestigationView, DatasetResultView, str]:
    brain = LLMInvestigatorBrain(model, name="fake:scripted")
    view = InvestigationService(settings).run(manifest, brain=brain, embedder=TrigramEmbedder())
    assert view.status == "completed", view.error
    (dataset,) = view.datasets
    report = (Path(view.workspace_dir or "") / "reports" / "d.md").read_text(encoding="utf-8")
    return view, dataset, report


def _hypotheses(*edit_ids: list[str], statement: str = "min_run is too long.") -> AIMessage:
    return tool_reply(
        HypothesisList(
            hypotheses=[
                ProposedHypothesis(
                    kind="parameter", statement=statement, test="Re-run with another min_run.", edit_ids=ids
                )
                for ids in edit_ids
            ]
        )
    )


def test_every_agent_answers_well(settings: Settings, tmp_path: Path) -> None:
    manifest, frames = _case(tmp_path)
    meaning = "The detection flag: 1 while an event is detected, 0 otherwise."
    story = f"フラグの立ち上がりが遅れ、フレーム{frames[0]}と{frames[1]}が期待とも参照とも異なります。"
    cause = "min_run defaults to 5 where the reference waits 3 frames, so every run starts 2 frames late."
    model = agents(
        columns=[
            tool_reply(
                ColumnNotes(columns=[ColumnNote(column="z", meaning=meaning, source="[environment/eval_spec.md]")])
            )
        ],
        narrative=[tool_reply(Narrative(text=story))],
        hypotheses=[_hypotheses([RIGHT])],
        root_cause=[tool_reply(RootCause(text=cause))],
    )
    _, dataset, report = _run(settings, manifest, model)
    assert dataset.status == "inconsistent" and dataset.hypotheses[0].verified is True
    assert dataset.conclusion.startswith(f"Root cause: {cause} Fix verified by execution: line 6")
    assert f"| z | {meaning} | environment/eval_spec.md |" in report and story in report
    assert "Model notes" not in report and "could not be used" not in dataset.conclusion
    # Each agent saw the retrieved passages it needs: the evaluation spec; both segments; the executed diff.
    (columns,) = model.prompts_of("columns")
    (hypotheses,) = model.prompts_of("hypotheses")
    (root,) = model.prompts_of("root_cause")
    assert "`z` is the detection flag" in columns
    assert "[algorithm/" in hypotheses and "[environment/eval_spec.md]" in hypotheses
    assert "+def detect(frame, on=0.8, off=0.4, min_run=3):" in root and "verified" in root
    assert str(frames[0]) in model.prompts_of("narrative")[0]


def test_malformed_and_ungrounded_answers_fall_back_and_are_noted(settings: Settings, tmp_path: Path) -> None:
    manifest, _ = _case(tmp_path)
    model = agents(
        columns=[BROKEN_JSON, tool_call("ColumnNotes", {"columns": "z"})],  # malformed, then off-schema
        narrative=[tool_reply(Narrative(text="The output misses 4242.5 frames."))],  # a number nobody computed
        hypotheses=[_hypotheses([RIGHT], statement="min_run should be 3; 977 frames are off.")],
        root_cause=[tool_reply(RootCause(text="The on-threshold is 0.123 too high."))],
    )
    view, dataset, report = _run(settings, manifest, model)
    (verified,) = [h for h in dataset.hypotheses if h.verified]
    assert verified.statement == "min_run should be 3; [?] frames are off."  # the model's words, its number not
    assert "| z | `z` is the detection flag: 1 while an event is detected, 0 otherwise. |" in report  # retrieval's
    notes = report[report.index("### Model notes") :]
    assert "column meanings: the model's answer was unusable" in notes
    assert "consistency narrative: the model's text was not used, its numbers ['4242.5']" in notes
    assert "root cause: the model's text was not used, its numbers ['0.123']" in notes
    assert "could not be used" in dataset.conclusion
    html = (Path(view.workspace_dir or "") / "reports" / "d.html").read_text(encoding="utf-8")
    assert "Model answers not used" in html and "4242.5" not in html.split("Model answers not used")[0]
    for invented in ("4242.5", "977", "0.123"):
        assert invented not in json.dumps(view.as_dict()) and invented not in report.split("### Model notes")[0]
    # Whatever number the conclusion states was produced by execution (the evidence, the diff, the frames).
    executed = " ".join([*(h.evidence for h in dataset.hypotheses), dataset.fix or "", str(dataset.mismatched_frames)])
    assert numbers_in(dataset.conclusion) and not ungrounded(dataset.conclusion, executed)


def test_a_fix_the_model_claims_is_refuted_by_execution(settings: Settings, tmp_path: Path) -> None:
    manifest, _ = _case(tmp_path)
    claim = EditProposal(
        edits=[ProposedEdit(line=6, old="0.8", new="0.7")], claim="Verified: on=0.7 reproduces every frame."
    )
    model = agents(hypotheses=[_hypotheses([TOO_LATE])], edit=[tool_reply(claim)])
    _, dataset, report = _run(settings, manifest, model)
    (hypothesis,) = dataset.hypotheses
    assert hypothesis.verified is False and dataset.fix is None
    assert (
        "The model's proposed change (line 6 (detect(on=…)): 0.8 → 0.7) was re-run and refuted" in hypothesis.evidence
    )
    assert "No edit the investigator can test explains the difference" in dataset.conclusion
    assert "reproduces every frame" not in report  # the claim itself is never reported
    (asked,) = model.prompts_of("edit")
    assert "none reproduces the reference" in asked and "0.8" in asked


def test_a_proposed_edit_is_verified_only_by_running_it(settings: Settings, tmp_path: Path) -> None:
    manifest, _ = _case(tmp_path)
    not_an_edit = EditProposal(edits=[ProposedEdit(line=6, old="min_run", new="3")])  # a name, not a number
    right = EditProposal(edits=[ProposedEdit(line=6, old="5", new="3")], claim="This is it.")
    model = agents(
        hypotheses=[_hypotheses([TOO_LATE], ["default@6:43:5->6"])], edit=[tool_reply(not_an_edit), tool_reply(right)]
    )
    _, dataset, report = _run(settings, manifest, model)
    first, second = dataset.hypotheses
    assert first.verified is False and second.verified is True
    assert "Re-running with line 6 (detect(min_run=…)): 5 → 3 reproduces the reference" in second.evidence
    assert "the re-run, not the model, verified it" in second.evidence
    assert "+def detect(frame, on=0.8, off=0.4, min_run=3):" in (dataset.fix or "")
    assert "the model's change (line 6: min_run → 3) is not a simple edit of the code; not run" in report


MEDIAN_PATCH = """--- a/algo.py
+++ b/algo.py
@@ -4,3 +4,3 @@
 def detect(frame, level=0.8):
-    x = frame["x"].to_numpy(dtype=float)
+    x = frame["x"].rolling(5, center=True, min_periods=1).median().to_numpy()
     return (x >= level).astype(int)
"""


def _spiky_case(tmp_path: Path) -> Path:
    """A plain threshold where the reference filters one-frame spikes with a median: no simple edit fixes it."""
    return build_case(tmp_path / "spiky", buggy=THRESHOLD, correct=MEDIAN_FILTERED, signals={"d": spikes()})


def test_a_models_patch_is_run_on_a_copy_and_counts_only_when_the_re_run_reproduces_the_reference(
    settings: Settings, tmp_path: Path
) -> None:
    manifest = _spiky_case(tmp_path)
    elsewhere = MEDIAN_PATCH.replace(" def detect(frame, level=0.8):", " def detect(frame, level=0.9):")
    wrong = MEDIAN_PATCH.replace(".median()", ".max()")
    model = agents(
        hypotheses=[_hypotheses([], [], [], statement="Spikes of one frame should not count.")],
        edit=[
            tool_reply(EditProposal(diff=elsewhere, claim="fixed")),  # its context is not in the code
            tool_reply(EditProposal(diff=wrong, claim="A max filter fixes it.")),
            tool_reply(EditProposal(diff=MEDIAN_PATCH, claim="A median filter fixes it.")),
        ],
    )
    _, dataset, report = _run(settings, manifest, model)
    assert [h.verified for h in dataset.hypotheses].count(True) == 1
    verified = next(h for h in dataset.hypotheses if h.verified)
    assert "the model's patch (2 changed line(s)) reproduces the reference" in verified.evidence
    assert "the re-run, not the model, verified it" in verified.evidence
    assert '+    x = frame["x"].rolling(5, center=True, min_periods=1).median().to_numpy()' in (dataset.fix or "")
    refuted = [h for h in dataset.hypotheses if "was re-run and refuted" in h.evidence]
    assert refuted and "the model's patch (2 changed line(s))" in refuted[0].evidence  # the max filter
    assert "the model's patch does not apply to the code (hunk 1 does not match the file" in report
    algo = (tmp_path / "spiky" / "algo.py").read_text(encoding="utf-8")
    assert algo == THRESHOLD  # the case's own code is never changed
