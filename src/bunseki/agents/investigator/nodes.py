"""The nodes of the investigator's graph. Each emits progress through LangGraph's stream writer.

Files in the workspace: ``data/<ds>__output.csv`` and ``__core.csv``, ``data/case/`` (a copy of the
case's code and documents; all of ``data/`` is read-only in the sandbox), ``variants/`` (writable,
patched copies the verifier imports), ``charts/`` and ``reports/``. The case's own directory is
never mounted in the sandbox at all.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from bunseki.agents.investigator import consult
from bunseki.agents.investigator.context import InvestigatorContext
from bunseki.agents.investigator.state import MAX_ITERATIONS, InvestigatorState
from bunseki.brain.investigator.contract import ColumnsView, DatasetView, Hypothesis
from bunseki.investigation import cells
from bunseki.investigation.diagnostics import diagnose, runs, signal_shift
from bunseki.investigation.edits import (
    JOIN,
    UNIT_FACTORS,
    Edit,
    apply_all,
    candidate_edits,
    describe_all,
    numeric_constants,
    resolve,
    unified_diff,
)
from bunseki.investigation.facts import documented_values, ranges, read_facts
from bunseki.investigation.index import Passage
from bunseki.investigation.rewrites import structural_edits
from bunseki.sandbox.workspace import READ_ONLY_MODE, host_writes

SEGMENT_KEYS = ("specs", "codes", "env_specs", "env_codes")
MAX_VARIANTS = 60  # per verifier iteration
VARIANT_SECONDS = 3  # one variant on every dataset; an edit may make a loop endless
ITERATION_SECONDS = 120  # the variants' share of a cell's time limit


def _emit(node: str, state: InvestigatorState | None = None, **extra: Any) -> None:
    event: dict[str, Any] = {"event": "node_started", "node": node}
    if state is not None and state.current_ds:
        event["dataset"] = state.current_ds.get("name")
    get_stream_writer()({**event, **extra})


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "dataset"


def initialize(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    """Copy the case into the workspace's read-only ``data/``, split its documents into retrieval segments."""
    _emit("initialize")
    context, case = runtime.context, runtime.context.case
    data = context.workspace / "data"
    inputs: dict[str, Any] = {"name": case.name, "entry_function": case.entry_function}
    datasets = []
    with host_writes(data):
        target = data / "case"
        target.mkdir(exist_ok=True)
        target.chmod(0o755)
        for key in SEGMENT_KEYS:
            inputs[key] = []
            for path in getattr(case, key):
                shutil.copyfile(path, target / path.name)
                (target / path.name).chmod(0o444)
                inputs[key].append(f"data/case/{path.name}")
        target.chmod(READ_ONLY_MODE)  # the sandbox imports the case from here and cannot change it
        for ds in case.datasets:
            stem = _safe(ds.name)
            for role, source in (("output", ds.output_csv), ("core", ds.core_csv)):
                copy = data / f"{stem}__{role}.csv"
                shutil.copyfile(source, copy)
                copy.chmod(0o444)
            datasets.append(
                {
                    "name": ds.name,
                    "stem": stem,
                    "output": f"data/{stem}__output.csv",
                    "core": f"data/{stem}__core.csv",
                    "expected": ds.expected.text,
                    "expectation": ds.expected.as_dict(),
                }
            )
    inputs["entry_file"] = f"data/case/{case.entry_file.name}"
    for name in ("charts", "reports", "variants"):
        (context.workspace / name).mkdir(exist_ok=True)
        (context.workspace / name).chmod(0o777)
    index = context.index()
    return {
        "inputs": inputs,
        "datasets": datasets,
        "index": {
            "hash": index.key,
            "segments": index.segments,
            "chunks": index.chunks,
            "embedded": index.embedded,
            "cached": index.cached,
            "problems": index.problems,
        },
    }


def next_dataset(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    done = {r["name"] for r in state.results}
    for ds in state.datasets:
        if ds["name"] not in done:
            return {"current_ds": dict(ds), "hypotheses": [], "success": False, "iteration": 0}
    return {"current_ds": {}}


def _expected_flags(frames: np.ndarray, expectation: dict[str, Any]) -> np.ndarray:
    inside = np.zeros(len(frames), dtype=bool)
    for start, end in expectation["ranges"]:
        inside |= (frames >= start) & (frames <= end)
    return inside


def data_checker(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    """Summaries of both CSVs and a chart of output vs reference with the expected region, in the sandbox."""
    _emit("data_checker", state)
    context, ds = runtime.context, dict(state.current_ds)
    chart = f"charts/{ds['stem']}_overview.png"
    spec = {
        "output": ds["output"],
        "core": ds["core"],
        "column": ds["expectation"]["column"],
        "frame_column": context.case.frame_column,
        "ranges": ds["expectation"]["ranges"],
        "chart": chart,
        "title": f"{ds['name']}: {ds['expected']}",
        "env_codes": state.inputs.get("env_codes", []),
        "expected": ds["expected"],  # the text, as the manifest writes it
    }
    result = context.sandbox().run(cells.check_cell(spec), check_policy=False)
    summary = cells.parse_result(result.stdout) if result.success else None
    if summary is None:
        ds.update(status="error", error=result.error or "the data check printed no result")
        return {"current_ds": ds}
    columns = [str(c) for c in summary.get("output", {}).get("columns", [])]
    meanings = [m.as_dict() for m in context.index().column_meanings(columns)]
    if context.brain is not context.rules:  # the rules have no words to add
        passages = _column_passages(context, columns)
        notes = consult.consult(
            ds,
            "column meanings",
            lambda: context.brain.column_meanings(ColumnsView(columns=columns, passages=_labelled(passages))),
        )
        if notes:
            meanings = consult.merge_meanings(ds, meanings, notes, passages)
    ds.update(
        summary=summary,
        column_meanings=meanings,
        charts=[chart] if (context.workspace / chart).is_file() else [],
    )
    return {"current_ds": ds}


def _column_passages(context: InvestigatorContext, columns: list[str]) -> list[Passage]:
    """Passages about the columns: the evaluation environment's first (it defines the CSVs)."""
    found: dict[tuple[str, str], Passage] = {}
    for column in columns:
        question = f"column {column} meaning / 列 {column} の意味"
        for passage in [
            *context.index().search(question, ["environment"], k=2),
            *context.index().search(question, ["algorithm"], k=1),
        ]:
            found.setdefault((passage.source, passage.text), passage)
    return list(found.values())


def _labelled(passages: list[Passage]) -> list[str]:
    return [f"[{p.segment}/{p.source}] {p.text}" for p in passages]


def consistency_checker(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    """Expected vs output vs reference, plus the case's eval_func (run by data_checker in the sandbox)."""
    _emit("consistency_checker", state)
    ds = dict(state.current_ds)
    if ds.get("status") == "error":
        return {"current_ds": ds}
    context = runtime.context
    column, value = ds["expectation"]["column"], ds["expectation"]["value"]
    frame_col = context.case.frame_column
    out = pd.read_csv(context.workspace / ds["output"])
    core = pd.read_csv(context.workspace / ds["core"])
    frames = out[frame_col].to_numpy()
    flagged = out[column].to_numpy(dtype=float) == value
    expected = _expected_flags(frames, ds["expectation"])
    mismatch = [int(f) for f in frames[flagged != expected]]
    ref = core.set_index(frame_col)[column].reindex(frames).to_numpy(dtype=float) == value
    eval_result = (ds.get("summary") or {}).get("eval") or {}
    passed = eval_result.get("passed")
    if eval_result.get("error"):  # the comparison with the expectation and the reference still stands
        ds["eval_error"] = eval_result["error"]
    ds["mismatched_frames"] = mismatch
    ds["mismatched_runs"] = [list(r) for r in runs(mismatch)]
    ds["reference_mismatches"] = [int(f) for f in frames[flagged != ref]]
    ds["eval_passed"] = passed
    ds["status"] = "consistent" if not mismatch and passed is not False else "inconsistent"
    inputs = {
        c: out[c].to_numpy()
        for c in out.columns
        if c not in (frame_col, column) and pd.api.types.is_numeric_dtype(out[c])
    }
    near = np.isin(frames, [f + k for f in ds["reference_mismatches"] or mismatch for k in (-2, -1, 0)])
    values = sorted({float(v) for c in inputs.values() for v in c[near].astype(float) if np.isfinite(v)})
    ds["values_near_mismatch"] = values[:: max(1, len(values) // 8)][:8]
    source = (context.workspace / state.inputs["entry_file"]).read_text(encoding="utf-8")
    reference = ref if ref.any() or not expected.any() else expected
    diagnostics = diagnose(frames, flagged.astype(int), reference.astype(int), inputs, numeric_constants(source))
    aligned = core.set_index(frame_col).reindex(frames)
    diagnostics["signal_shift"] = {  # columns the algorithm wrote besides the flag, against the reference's
        name: found
        for name in inputs
        if name in aligned.columns
        and pd.api.types.is_numeric_dtype(aligned[name])
        and (found := signal_shift(out[name].to_numpy(dtype=float), aligned[name].to_numpy(dtype=float)))
    }
    ds["diagnostics"] = diagnostics
    if ds["status"] == "inconsistent":
        ds["narrative"] = consult.narrative(context.brain, ds)
    return {"current_ds": ds}


def hypothesis_generator(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    _emit("hypothesis_generator", state)
    context, ds = runtime.context, state.current_ds
    source = (context.workspace / state.inputs["entry_file"]).read_text(encoding="utf-8")
    diagnostics = ds["diagnostics"]
    sizes = {abs(s) for s in (*diagnostics["start_shifts"], *diagnostics["end_shifts"], diagnostics["lag"]) if s}
    signals = [shift for shift in diagnostics.get("signal_shift", {}).values() if shift.get("exact")]
    sizes |= {abs(shift["lag"]) for shift in signals if shift["lag"]}
    deltas = tuple(sorted({1, 2, *sizes, *diagnostics.get("edge_run_lengths", [])}))
    documents = [*state.inputs.get("specs", []), *state.inputs.get("env_specs", [])]
    facts = read_facts(
        {Path(d).name: (context.workspace / d).read_text(encoding="utf-8", errors="replace") for d in documents}
    )
    stated = documented_values(facts)
    decimals = _documented_numbers(context.workspace, documents, decimals=True)
    floats = tuple(dict.fromkeys([*decimals, *stated, *ds.get("values_near_mismatch", [])]))
    scales = [f for shift in diagnostics.get("threshold_shift", {}).values() for f in shift["factors"]]
    scales += [shift["scale"] for shift in signals if shift["scale"] not in (0.0, 1.0)]
    scales += UNIT_FACTORS
    offsets = {o for shift in signals if shift["offset"] for o in (shift["offset"], -shift["offset"])}
    edits = candidate_edits(
        source,
        deltas=(*deltas, *(-d for d in deltas)),
        float_values=floats,
        factors=tuple(sorted({x for f in scales for x in (f, 1 / f)})),
        offsets=tuple(sorted(offsets)),
        int_values=tuple(stated),
    )
    columns = [c for c in ds.get("summary", {}).get("inputs", []) if c != context.case.frame_column]
    edits += [
        edit
        for edit in structural_edits(source, columns=columns, ranges=ranges(facts))
        if JOIN not in edit.id  # a change's id joins its edits' ids with JOIN
    ]
    query = " ".join([ds["expected"], *ds.get("summary", {}).get("inputs", []), "threshold window default"])
    index = context.index()  # both the algorithm's and the evaluation environment's documents and code
    passages = [*index.search(query, ["algorithm"], k=4), *index.search(query, ["environment"], k=3)]
    view = DatasetView(
        name=ds["name"],
        expected=ds["expected"],
        diagnostics=diagnostics,
        source_name=Path(state.inputs["entry_file"]).name,
        source=source,
        edits=[e.__dict__ for e in edits],
        passages=_labelled(passages),
        documented=_documented_numbers(context.workspace, documents, decimals=False),
        facts=[fact.as_dict() for fact in facts],
    )
    ds = {**ds, "edits": [e.__dict__ for e in edits], "view": view.model_dump()}
    return {"hypotheses": _hypotheses(context, ds, view, edits), "current_ds": ds}


def _hypotheses(
    context: InvestigatorContext, ds: dict[str, Any], view: DatasetView, edits: list[Edit]
) -> list[Hypothesis]:
    """The brain's hypotheses with only edits found in the AST; the offline ones when it has none to run."""
    offline = context.rules
    hypotheses = consult.consult(ds, "hypotheses", lambda: context.brain.hypotheses(view))
    if hypotheses is None:
        return offline.hypotheses(view)
    by_id = {e.id: e for e in edits}
    dropped = 0
    for hypothesis in hypotheses:  # only changes made of edits found in the AST can be run
        runnable = [i for i in hypothesis.edit_ids if resolve(i, by_id) is not None]
        dropped += len(hypothesis.edit_ids) - len(runnable)
        hypothesis.edit_ids = runnable
    if dropped:
        consult.note(ds, f"hypotheses: {dropped} edit id(s) the model named are not edits of the code; dropped.")
    if context.brain is not context.rules and not any(h.edit_ids for h in hypotheses):
        consult.note(ds, "hypotheses: none of the model's hypotheses can be run; the offline ones were added.")
        more = offline.hypotheses(view)
        hypotheses += [h.model_copy(update={"id": f"H{len(hypotheses) + n}"}) for n, h in enumerate(more, 1)]
    return hypotheses


def _documented_numbers(workspace: Path, documents: list[str], *, decimals: bool) -> list[float]:
    """Numbers the specifications state (thresholds, defaults), in order of appearance; with
    ``decimals`` only those written with a decimal point (candidate values for float constants)."""
    pattern = r"(?<![\w.])-?\d+\.\d+(?![\w.])" if decimals else r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])"
    found: list[float] = []
    for document in documents:
        text = (workspace / document).read_text(encoding="utf-8", errors="replace")
        found += [float(m) for m in re.findall(pattern, text)]
    return list(dict.fromkeys(found))[: 12 if decimals else 200]


def verifier(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    """Test the next hypothesis by execution: patched copies of the algorithm, re-run, compared, re-evaluated."""
    context, ds = runtime.context, dict(state.current_ds)
    hypotheses = [h.model_copy() for h in state.hypotheses]
    pending = [h for h in hypotheses if h.pending]
    if not pending:  # nothing to run (no hypotheses, or none with an edit): not an iteration
        return {"hypotheses": hypotheses}
    iteration = state.iteration + 1
    _emit("verifier", state, iteration=iteration)
    hypothesis = pending[0]
    by_id = {Edit(**e).id: Edit(**e) for e in ds["edits"]}
    source_path = context.workspace / state.inputs["entry_file"]
    source = source_path.read_text(encoding="utf-8")
    base = context.workspace / "variants" / ds["stem"] / f"i{iteration}"
    variants: list[tuple[str, str]] = []
    batch = hypothesis.edit_ids[hypothesis.tested : hypothesis.tested + MAX_VARIANTS]
    chosen = [(i, change) for i in batch if (change := resolve(i, by_id)) is not None]
    for number, (change_id, change) in enumerate([("baseline", []), *chosen]):
        folder = base / f"v{number}"
        folder.mkdir(parents=True, exist_ok=True)
        for code in state.inputs["codes"]:
            shutil.copyfile(context.workspace / code, folder / Path(code).name)
        (folder / source_path.name).write_text(apply_all(source, change), encoding="utf-8")
        for path in (base, folder, *folder.iterdir()):
            path.chmod(0o777 if path.is_dir() else 0o666)
        variants.append((change_id, str((folder / source_path.name).relative_to(context.workspace))))
    spec = {
        "output": ds["output"],
        "core": ds["core"],
        "column": ds["expectation"]["column"],
        "function": state.inputs["entry_function"],
        "variants": variants,
        "others": [{"output": o["output"], "core": o["core"]} for o in state.datasets if o["name"] != ds["name"]],
        "env_codes": state.inputs.get("env_codes", []),
        "expected": ds["expected"],  # the text, as the manifest writes it
        "variant_seconds": VARIANT_SECONDS,
        "budget_seconds": ITERATION_SECONDS,
    }
    result = context.sandbox().run(cells.variants_cell(spec), check_policy=False)
    outcome = cells.variant_results(result.stdout, variants) if result.success else None
    hypothesis.iterations += 1
    hypothesis.tested += len(batch)
    if not isinstance(outcome, dict):
        hypothesis.verified = None
        hypothesis.evidence = f"the verification cell failed: {(result.error or '')[-400:]}"
        return {"iteration": iteration, "hypotheses": hypotheses}
    baseline = outcome.get("baseline", {})
    ds["baseline_reproduces_output"] = baseline.get("reproduces_output")
    ds["baseline_matches_reference"] = baseline.get("matches_reference")
    if baseline.get("ok") is False:  # every variant would fail the same way: say why, test nothing
        hypothesis.iterations -= 1
        hypothesis.tested -= len(batch)
        ds["run_error"] = str(baseline.get("error"))
        hypothesis.evidence = f"Not tested: the unchanged code cannot be run: {ds['run_error']}"
        return {"iteration": iteration, "hypotheses": hypotheses, "current_ds": ds}
    if baseline.get("matches_reference") and not baseline.get("reproduces_output"):
        hypothesis.iterations -= 1
        hypothesis.tested -= len(batch)
        hypothesis.evidence = "Not tested: the unchanged code already reproduces the reference when re-run."
        return {"iteration": iteration, "hypotheses": hypotheses, "current_ds": ds}
    winners = [
        (change_id, change)
        for change_id, change in chosen
        if outcome.get(change_id, {}).get("matches_reference")
        and outcome[change_id].get("others_match", True)
        and outcome[change_id].get("signals_match", True)
        and (outcome[change_id].get("eval") or {}).get("passed") is not False
    ]
    tried = len(chosen)
    if winners:
        fix_id, fix = winners[0]
        hypothesis.verified = True
        hypothesis.fix_edit = fix_id
        reproduces = "reproduces" if baseline.get("reproduces_output") else "does not reproduce"
        others = ""
        if len(winners) > 1:  # the datasets cannot tell these apart: say which, so a person can
            named = "; ".join(describe_all(change) for _, change in winners[1:3])
            others = f" ({len(winners) - 1} other change(s) also did, which these datasets cannot tell apart: {named})"
        together = f"{len(fix)} edits together: " if len(fix) > 1 else ""
        hypothesis.evidence = (
            f"Re-running with {together}{describe_all(fix)} reproduces the reference on every frame (and on the "
            f"case's other datasets) and the evaluation passes{others}; the unchanged code {reproduces} the "
            "recorded output."
        )
        if fix_id in ds.get("proposed", {}):
            hypothesis.evidence += " The change was the model's proposal; the re-run, not the model, verified it."
        ds["fix"] = unified_diff(source, apply_all(source, fix), source_path.name)
        ds["fix_edit"] = describe_all(fix)
        return {"iteration": iteration, "hypotheses": hypotheses, "current_ds": ds, "success": True}
    best = min((outcome.get(i, {}).get("mismatches", 10**9) for i, _ in chosen), default=None)
    failures = sum(1 for i, _ in chosen if not outcome.get(i, {}).get("ok"))
    flag_only = sum(
        1
        for i, _ in chosen
        if outcome.get(i, {}).get("matches_reference") and not outcome[i].get("signals_match", True)
    )
    finished = hypothesis.tested >= len(hypothesis.edit_ids)
    hypothesis.verified = False if finished else None
    hypothesis.evidence = (
        f"{hypothesis.tested} of {len(hypothesis.edit_ids)} edit(s) re-run ({tried} in this iteration); none "
        f"reproduces the reference (fewest mismatching frames: {best}; baseline mismatches: "
        f"{baseline.get('mismatches')}; {failures} variant(s) failed to run"
        + (f"; {flag_only} matched the flag but not the other column(s) the algorithm writes" if flag_only else "")
        + ")."
    )
    claimed = [describe_all(change) for i, change in chosen if i in ds.get("proposed", {})]
    if claimed:  # the model's claim does not count: execution refuted it
        hypothesis.evidence += f" The model's proposed change ({'; '.join(claimed)}) was re-run and refuted."
    if finished and (proposal := consult.propose(context.brain, ds, hypothesis, source)):
        proposed, edits = proposal
        known = {Edit(**e).id for e in ds["edits"]}
        ds["edits"] = [*ds["edits"], *(e.__dict__ for e in edits if e.id not in known)]
        hypothesis.edit_ids.append(proposed)
        hypothesis.verified = None
        hypothesis.evidence += f" The brain proposed {describe_all(edits)}; it is re-run next."
    return {"iteration": iteration, "hypotheses": hypotheses, "current_ds": ds}


def reporter(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    """Per dataset Markdown: overview, data check, inconsistencies, hypotheses, root cause, fix, charts."""
    _emit("reporter", state)
    context, ds = runtime.context, dict(state.current_ds)
    facts = consult.report_facts(ds, state.hypotheses)
    hypotheses = consult.redact_statements(ds, state.hypotheses, facts)
    verified = [h for h in hypotheses if h.verified]
    foreign = ds.get("baseline_matches_reference") and not ds.get("baseline_reproduces_output")
    wording = None
    if ds.get("status") == "inconsistent" and not foreign:  # words only; numbers, tables and diff are executed
        wording = consult.root_cause(context.brain, ds, hypotheses, facts)
    if ds.get("status") == "error":
        conclusion = f"The dataset could not be checked: {ds.get('error')}"
    elif ds.get("status") == "consistent":
        conclusion = "The output meets the expectation; nothing to investigate."
    elif foreign:
        conclusion = (
            "The given code, re-run on this dataset, already reproduces the reference: the recorded output "
            "was not produced by this code (another version or other parameters). No edit is proposed."
        )
    elif ds.get("run_error"):
        conclusion = (
            f"The algorithm could not be run, so no edit could be tested: {state.inputs['entry_function']}() "
            f"of {Path(state.inputs['entry_file']).name} on this dataset's table raised {ds['run_error']}"
        )
    elif verified:
        conclusion = f"Root cause: {wording or verified[0].statement} Fix verified by execution: {ds.get('fix_edit')}."
    else:
        conclusion = (
            "No edit the investigator can test explains the difference "
            f"({len(hypotheses)} hypotheses, {state.iteration} verification iteration(s)); "
            "the cause needs a person's look."
        )
        if wording:
            conclusion += f" The model's reading (not verified by execution): {wording}"
    if ds.get("baseline_reproduces_output") is False and not ds.get("baseline_matches_reference"):
        conclusion += " Note: the given code does not reproduce the recorded output."
    if ds.get("eval_error"):
        conclusion += (
            f" The case's eval_func could not judge this dataset ({ds['eval_error']}); the comparison with the "
            "expectation and the reference stood in for it."
        )
    if ds.get("model_notes"):
        conclusion += " Some model answers could not be used; the offline diagnostics stood in (see the model notes)."
    record = {
        "name": ds["name"],
        "status": ds.get("status", "error"),
        "expected": ds.get("expected"),
        "mismatched_frames": ds.get("mismatched_frames", []),
        "mismatched_runs": ds.get("mismatched_runs", []),
        "eval_passed": ds.get("eval_passed"),
        "eval_error": ds.get("eval_error"),
        "diagnostics": ds.get("diagnostics", {}),
        "hypotheses": [h.model_dump() for h in hypotheses],
        "conclusion": conclusion,
        "narrative": ds.get("narrative"),
        "model_notes": ds.get("model_notes", []),
        "fix": ds.get("fix"),
        "charts": ds.get("charts", []),
        "iterations": state.iteration,
        "data_check": _data_check(ds.get("summary") or {}),
        "column_meanings": ds.get("column_meanings", []),
        "baseline_reproduces_output": ds.get("baseline_reproduces_output"),
    }
    path = context.workspace / "reports" / f"{ds['stem']}.md"
    path.write_text(dataset_markdown(record), encoding="utf-8")
    record["report_path"] = str(path.relative_to(context.workspace))
    return {"results": [*state.results, record], "current_ds": {}}


def _data_check(summary: dict[str, Any]) -> str:
    if not summary:
        return "not available"
    out, core = summary.get("output", {}), summary.get("core", {})
    return (
        f"output: {out.get('rows')} rows, columns {out.get('columns')}, {out.get('missing')} missing value(s); "
        f"reference: {core.get('rows')} rows, {core.get('missing')} missing value(s); "
        f"signal column(s): {summary.get('inputs')}; eval_func on the output: {summary.get('eval')}."
    )


def _column_lines(meanings: list[dict[str, Any]]) -> list[str]:
    """What each column means, as the documents say (retrieved), or that they do not say."""
    if not meanings:
        return []
    lines = ["| column | meaning (from the documents) | source |", "|---|---|---|"]
    for m in meanings:
        meaning = (m.get("meaning") or "not described in the documents").replace("|", "/")
        source = f"{m['segment']}/{m['source']}" if m.get("source") else "—"
        lines.append(f"| {m['column']} | {meaning} | {source} |")
    return [*lines, ""]


def summarizer(state: InvestigatorState, runtime: Runtime[InvestigatorContext]) -> dict[str, Any]:
    _emit("summarizer")
    context = runtime.context
    context.close()  # the retrieval segments are no longer needed
    lines = [f"# Investigation: {state.inputs.get('name')}", ""]
    for record in state.results:
        lines.append(f"- **{record['name']}** ({record['status']}): {record['conclusion']}")
    for problem in state.index.get("problems", []):  # said once, for the whole case
        lines.append(f"- Document not searched (retrieval could not read it): {problem}")
    summary = "\n".join(lines[2:])
    body = "\n".join(lines) + "\n\n" + "\n\n".join(dataset_markdown(r) for r in state.results)
    path = context.workspace / "reports" / "investigation.md"
    path.write_text(body, encoding="utf-8")
    return {"summary": summary, "report_path": str(path.relative_to(context.workspace))}


def dataset_markdown(record: dict[str, Any]) -> str:
    d = record.get("diagnostics", {})
    parts = [
        f"## Dataset {record['name']} — {record['status']}",
        "",
        f"**Expected:** {record.get('expected')}  ",
        f"**eval_func passed:** {record.get('eval_passed')}"
        + (f" (it could not judge: {record['eval_error']})" if record.get("eval_error") else ""),
        "",
        "### Overview",
        f"Status **{record['status']}**; {len(record['mismatched_frames'])} frame(s) differ from the expectation; "
        f"{len(record['hypotheses'])} hypothesis(es), {record.get('iterations', 0)} verification iteration(s).",
        "",
        "### Data check",
        str(record.get("data_check", "")),
        "",
        *_column_lines(record.get("column_meanings", [])),
        f"Output runs: {d.get('output_runs')}; reference runs: {d.get('reference_runs')}.",
        "",
        "### Inconsistencies",
        f"Mismatched frames (vs expectation): {record['mismatched_runs'] or 'none'}. "
        f"Best lag vs reference: {d.get('lag', 0)}; run start shifts {d.get('start_shifts')}, "
        f"end shifts {d.get('end_shifts')}; values exactly at a code constant near mismatches: "
        f"{[(h['column'], h['value']) for h in d.get('at_threshold', [])] or 'none'}.",
        "",
        *([str(record["narrative"]), ""] if record.get("narrative") else []),
    ]
    if record["hypotheses"]:
        parts += ["### Hypotheses", "", "| id | kind | statement | verified | evidence |", "|---|---|---|---|---|"]
        for h in record["hypotheses"]:
            cell = {True: "verified", False: "refuted", None: "untested"}[h["verified"]]
            text = h["statement"].replace("|", "/")
            parts.append(f"| {h['id']} | {h['kind']} | {text} | {cell} | {h['evidence'].replace('|', '/')} |")
        parts.append("")
    parts += ["### Root cause", record["conclusion"], ""]
    if record.get("fix"):
        parts += ["### Fix", "```diff", record["fix"].rstrip(), "```", ""]
    if record.get("model_notes"):
        parts += ["### Model notes", *(f"- {n}" for n in record["model_notes"]), ""]
    for chart in record.get("charts", []):
        parts.append(f"![{record['name']}](../{chart})")
    return "\n".join(parts) + "\n"


__all__ = ["MAX_ITERATIONS"]
