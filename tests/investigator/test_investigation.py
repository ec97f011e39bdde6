"""Whole investigations in a real sandbox: each defect found and fixed by execution, or honestly not."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunseki.brain.investigator import Hypothesis
from bunseki.brain.investigator_llm import HypothesisList, LLMInvestigatorBrain, ProposedHypothesis
from bunseki.cli import app
from bunseki.service.investigations import InvestigationService, InvestigationView
from bunseki.settings import Settings
from tests.fakes.chat import scripted, tool_reply
from tests.investigator.builder import build_case
from tests.investigator.cases import ABS, DEFECTS, HYSTERESIS, plateaus

SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "case.yaml"


def _run(settings: Settings, manifest: Path, **kwargs: object) -> InvestigationView:
    events: list[dict[str, object]] = []
    view = InvestigationService(settings).run(manifest, on_event=events.append, **kwargs)  # type: ignore[arg-type]
    assert events and events[0]["node"] == "initialize" and events[-1]["node"] == "summarizer"
    return view


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_defect_is_found_and_fixed_by_execution(defect: str, settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals = DEFECTS[defect]
    manifest = build_case(tmp_path / defect, buggy=buggy, correct=correct, signals={"d": signals})
    view = _run(settings, manifest)
    assert view.status == "completed"
    (dataset,) = view.datasets
    assert dataset.status == "inconsistent" and dataset.mismatched_frames
    verified = [h for h in dataset.hypotheses if h.verified]
    assert len(verified) == 1, [h.evidence for h in dataset.hypotheses]
    assert dataset.fix and dataset.fix.startswith("--- a/algo.py")
    assert "Root cause" in dataset.conclusion
    assert all(h.iterations <= 10 for h in dataset.hypotheses)
    report = Path(view.report_path or "").read_text(encoding="utf-8")
    assert "```diff" in report and "| verified |" in report


def test_wrong_threshold_default_prefers_the_documented_value(settings: Settings, tmp_path: Path) -> None:
    manifest = build_case(
        tmp_path / "threshold",
        buggy=HYSTERESIS.replace("on=0.8", "on=0.85"),
        correct=HYSTERESIS,
        signals={"d": plateaus([(10, 19, 0.82), (50, 59, 0.9)])},
        spec="z turns on when x stays at or above the on-threshold 0.8 for 3 frames; off below 0.4.",
    )
    (dataset,) = _run(settings, manifest).datasets
    assert dataset.status == "inconsistent"
    assert "+def detect(frame, on=0.8, off=0.4, min_run=3):" in (dataset.fix or ""), dataset.fix
    assert any(h.verified and h.kind == "parameter" for h in dataset.hypotheses)


def test_correct_algorithm_is_consistent_and_nothing_is_claimed(settings: Settings, tmp_path: Path) -> None:
    manifest = build_case(
        tmp_path / "ok", buggy=HYSTERESIS, correct=HYSTERESIS, signals={"d": plateaus([(10, 19, 0.9)])}
    )
    view = _run(settings, manifest)
    (dataset,) = view.datasets
    assert dataset.status == "consistent" and not dataset.hypotheses and dataset.fix is None
    assert dataset.mismatched_frames == []


def test_nothing_testable_is_said_plainly(settings: Settings, tmp_path: Path) -> None:
    buggy = ABS.replace("np.abs(x)", "x")
    signals = {"x": plateaus([(10, 19, -0.9), (30, 35, 0.9)])["x"]}
    manifest = build_case(tmp_path / "abs", buggy=buggy, correct=ABS, signals={"d": signals})
    view = _run(settings, manifest)
    (dataset,) = view.datasets
    assert dataset.status == "inconsistent"
    assert not any(h.verified for h in dataset.hypotheses)
    assert any(h.verified is False for h in dataset.hypotheses)
    assert "No edit the investigator can test explains the difference" in dataset.conclusion
    assert dataset.fix is None


def test_output_not_produced_by_the_given_code_is_said(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals = DEFECTS["operator_at_threshold"]
    folder = tmp_path / "foreign"
    manifest = build_case(folder, buggy=buggy, correct=correct, signals={"d": signals})
    (folder / "algo.py").write_text(correct, encoding="utf-8")  # the output came from another version
    (dataset,) = _run(settings, manifest).datasets
    assert dataset.status == "inconsistent" and dataset.fix is None
    assert "not produced by this code" in dataset.conclusion
    assert not any(h.verified for h in dataset.hypotheses)


def test_a_failing_eval_func_makes_that_dataset_an_error(settings: Settings, tmp_path: Path) -> None:
    env = "def eval_func(output, expected):\n    raise RuntimeError('the evaluation broke')\n"
    manifest = build_case(
        tmp_path / "broken", buggy=HYSTERESIS, correct=HYSTERESIS, signals={"d": plateaus([(5, 9, 0.9)])}, env=env
    )
    view = _run(settings, manifest)
    assert view.status == "completed"
    (dataset,) = view.datasets
    assert dataset.status == "error" and "the evaluation broke" in dataset.conclusion


def test_sandboxed_verifier_cannot_write_into_the_case_directory(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals = DEFECTS["operator_at_threshold"]
    folder = tmp_path / "case"
    manifest = build_case(folder, buggy=buggy, correct=correct, signals={"d": signals})
    folder.chmod(0o777)  # even a directory open to everyone is out of the sandbox's sight
    target = folder / "written_by_sandbox.txt"
    attack = f"\ntry:\n    open({str(target)!r}, 'w').write('x')\nexcept OSError:\n    pass\n"
    (folder / "algo.py").write_text(buggy + attack, encoding="utf-8")
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    view = _run(settings, manifest)
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    assert not target.exists() and before == after
    assert view.datasets[0].fix  # the verifier still worked, on its own copy in the workspace


def test_llm_brain_with_a_scripted_model(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals = DEFECTS["wrong_default"]
    manifest = build_case(tmp_path / "llm", buggy=buggy, correct=correct, signals={"d": signals})
    answer = HypothesisList(
        hypotheses=[
            ProposedHypothesis(
                kind="parameter",
                statement="min_run defaults to 5 but the runs start 2 frames late: it should be 3.",
                test="Re-run with min_run=3.",
                edit_ids=["default@6:43:5->3", "made-up-edit"],
            ),
            ProposedHypothesis(kind="unexpected", statement="Noise.", test="None.", edit_ids=[]),
        ]
    )
    model = scripted(tool_reply(answer))
    view = _run(settings, manifest, brain=LLMInvestigatorBrain(model, name="fake:scripted"))
    (dataset,) = view.datasets
    first = dataset.hypotheses[0]
    assert first.kind == "parameter" and first.verified is True, first.evidence
    assert "min_run=3" in (dataset.fix or "")
    assert dataset.hypotheses[1].verified is None  # nothing to run: neither verified nor refuted
    prompt = "\n".join(str(m.content) for m in model.received[0])
    assert "min_run" in prompt and "default@6:43:5->3" in prompt and "Spec" in prompt


def test_cli_json_contract(settings: Settings) -> None:
    done = CliRunner().invoke(
        app, ["investigate", str(SAMPLE), "--workspace-root", str(settings.workspace_root), "--format", "json"]
    )
    assert done.exit_code == 0, done.output
    payload = json.loads(done.stdout[done.stdout.index("{") :])
    assert set(payload) >= {"status", "case", "datasets", "summary", "report_path", "workspace_dir"}
    assert payload["status"] == "completed" and payload["case"] == "hysteresis-detector"
    boundary, clean = payload["datasets"]
    assert set(boundary) >= {"name", "status", "mismatched_frames", "hypotheses", "conclusion", "fix", "charts"}
    assert boundary["status"] == "inconsistent" and boundary["mismatched_frames"] == list(range(22, 30))
    assert set(boundary["hypotheses"][0]) == {"id", "kind", "statement", "verified", "evidence", "iterations"}
    assert boundary["hypotheses"][0]["verified"] is True and ">=" in boundary["fix"]
    assert clean["status"] == "consistent" and clean["hypotheses"] == []
    assert Path(payload["report_path"]).is_file()
    assert all((Path(payload["workspace_dir"]) / c).is_file() for c in boundary["charts"])


def test_cli_names_a_manifest_problem(tmp_path: Path) -> None:
    bad = tmp_path / "case.yaml"
    bad.write_text("name: x\ncodes: [nothing.py]\ndatasets: []\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["investigate", str(bad)])
    assert done.exit_code == 3 and "nothing.py" in done.output  # 3: the input cannot be used


def test_hypothesis_model_defaults() -> None:
    assert Hypothesis(id="H1", kind="unexpected", statement="s", test="t").verified is None
