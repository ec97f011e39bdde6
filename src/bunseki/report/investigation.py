"""The investigator's reports as self-contained HTML, through the one report model and its renderer.

The Reporter writes Markdown per dataset and a summary; this module turns the same dataset
records into `ReportOutput`s and renders them with `render_html`, so the pages look like every
other Bunseki report. Everything that comes from a case (names, expectations, statements, code)
is Markdown-escaped before it is rendered, so it shows as written and can never become markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

from bunseki.domain import Language, ReportOutput, ReportSection
from bunseki.report.html import render_html
from bunseki.report.save import write_atomically

_PUNCTUATION: Final = re.compile(r"([!-/:-@\[-`{-~])")  # CommonMark lets a backslash escape any of these


@dataclass(frozen=True)
class Words:
    """The fixed wording of an investigation report in one language."""

    dataset: str
    investigation: str
    overview: str
    overview_text: str  # {status} {mismatched} {hypotheses} {iterations} {expected} {eval}
    data_check: str
    inconsistencies: str
    hypotheses: str
    root_cause: str
    fix: str
    no_fix: str
    chart: str
    model_notes: str  # model answers that were not used, and why
    datasets: str
    outcome: dict[str, str]  # verified / refuted / untested
    columns: tuple[str, ...]  # id, kind, statement, result, evidence, iterations
    summary_columns: tuple[str, ...]  # dataset, status, mismatched frames, conclusion


WORDS: Final[dict[Language, Words]] = {
    "en": Words(
        dataset="Dataset",
        investigation="Investigation",
        overview="Overview",
        overview_text=(
            "Status **{status}**. Expected: {expected}. eval_func passed: {eval}. {mismatched} frame(s) differ "
            "from the expectation; {hypotheses} hypothesis(es), {iterations} verification iteration(s)."
        ),
        data_check="Data check",
        inconsistencies="Inconsistencies",
        hypotheses="Hypotheses",
        root_cause="Root cause",
        fix="Suggested fix",
        no_fix="No change to the code is proposed.",
        chart="Output against the reference, the expected region marked",
        model_notes="Model answers not used",
        datasets="Datasets",
        outcome={"verified": "verified", "refuted": "refuted", "untested": "untested"},
        columns=("id", "kind", "statement", "result", "evidence", "iterations"),
        summary_columns=("dataset", "status", "mismatched frames", "conclusion"),
    ),
    "ja": Words(
        dataset="データセット",
        investigation="調査",
        overview="概要",
        overview_text=(
            "状態 **{status}**。期待: {expected}。eval_func の判定: {eval}。期待と異なるフレーム {mismatched} 件、"
            "仮説 {hypotheses} 件、検証 {iterations} 回。"
        ),
        data_check="データの確認",
        inconsistencies="不整合",
        hypotheses="仮説",
        root_cause="根本原因",
        fix="修正案",
        no_fix="コードの修正案はありません。",
        chart="出力と参照の比較（期待する区間を表示）",
        model_notes="使わなかったモデルの回答",
        datasets="データセット一覧",
        outcome={"verified": "検証済み", "refuted": "否定", "untested": "未検証"},
        columns=("ID", "種類", "仮説", "結果", "根拠", "検証回数"),
        summary_columns=("データセット", "状態", "不一致フレーム数", "結論"),
    ),
}


def plain(text: object) -> str:
    """Text shown literally in Markdown: every punctuation mark escaped, so nothing becomes markup."""
    return _PUNCTUATION.sub(r"\\\1", str(text))


def dataset_report(record: dict[str, Any], language: Language = "en") -> ReportOutput:
    """One dataset's record (as the Reporter keeps it) as a report."""
    words = WORDS[language]
    return ReportOutput(
        title=f"{words.dataset} {record['name']} — {record['status']}",
        conclusion=plain(record.get("conclusion") or record["status"]),
        sections=_sections(record, words),
        language=language,
    )


def summary_report(case: str, records: Sequence[dict[str, Any]], language: Language = "en") -> ReportOutput:
    """Every dataset of an investigation in one report: a table of outcomes, then each dataset's sections."""
    words = WORDS[language]
    rows = [
        dict(
            zip(
                words.summary_columns,
                (r["name"], r["status"], len(r.get("mismatched_frames", [])), r.get("conclusion", "")),
                strict=True,
            )
        )
        for r in records
    ]
    sections = [ReportSection(section_type="table", content=json.dumps(rows, ensure_ascii=False))]
    for record in records:
        sections += _sections(record, words, prefix=f"{record['name']}: ")
    conclusion = "\n".join(
        f"- **{plain(r['name'])}** ({r['status']}): {plain(r.get('conclusion', ''))}" for r in records
    )
    return ReportOutput(
        title=f"{words.investigation}: {case}",
        conclusion=conclusion or words.no_fix,
        sections=sections,
        language=language,
    )


def write_investigation_html(
    workspace: Path, case: str, records: Sequence[dict[str, Any]], language: Language = "en"
) -> str:
    """Write ``reports/<dataset>.html`` beside each dataset's Markdown and ``reports/investigation.html``.

    Returns the summary's path relative to ``workspace``. Charts are read from the workspace
    without following links and embedded, so each page stands alone.
    """
    for record in records:
        markdown = record.get("report_path")
        if markdown:
            html = PurePosixPath(markdown).with_suffix(".html").as_posix()
            write_atomically(workspace / html, render_html(dataset_report(record, language), workspace))
    summary = "reports/investigation.html"
    write_atomically(workspace / summary, render_html(summary_report(case, records, language), workspace))
    return summary


def _sections(record: dict[str, Any], words: Words, *, prefix: str = "") -> list[ReportSection]:
    d = record.get("diagnostics") or {}
    overview = words.overview_text.format(
        status=plain(record["status"]),
        expected=plain(record.get("expected")),
        eval=plain(record.get("eval_passed"))
        + (f" ({plain(record['eval_error'])})" if record.get("eval_error") else ""),
        mismatched=len(record.get("mismatched_frames", [])),
        hypotheses=len(record.get("hypotheses", [])),
        iterations=record.get("iterations", 0),
    )
    inconsistencies = (
        f"mismatched runs: {plain(record.get('mismatched_runs') or '-')}; lag: {plain(d.get('lag', 0))}; "
        f"run start shifts: {plain(d.get('start_shifts'))}; end shifts: {plain(d.get('end_shifts'))}; "
        f"output runs: {plain(d.get('output_runs'))}; reference runs: {plain(d.get('reference_runs'))}."
    )
    if record.get("narrative"):  # the model's words, kept only when their numbers were executed output
        inconsistencies += "\n\n" + plain(record["narrative"])
    sections = [
        _text(overview, prefix + words.overview),
        _text(plain(record.get("data_check", "")), prefix + words.data_check),
        _text(inconsistencies, prefix + words.inconsistencies),
    ]
    if record.get("hypotheses"):
        sections.append(
            ReportSection(
                section_type="table",
                content=json.dumps([_hypothesis_row(h, words) for h in record["hypotheses"]], ensure_ascii=False),
                description=prefix + words.hypotheses,
            )
        )
    sections.append(_text(plain(record.get("conclusion", "")), prefix + words.root_cause))
    fix = record.get("fix")
    sections.append(_text(_fenced(fix, "diff") if fix else words.no_fix, prefix + words.fix))
    if record.get("model_notes"):
        notes = "\n".join(f"- {plain(n)}" for n in record["model_notes"])
        sections.append(_text(notes, prefix + words.model_notes))
    for chart in record.get("charts", []):
        sections.append(ReportSection(section_type="image", content=chart, description=prefix + words.chart))
    return sections


def _hypothesis_row(hypothesis: dict[str, Any], words: Words) -> dict[str, Any]:
    outcome = {True: "verified", False: "refuted", None: "untested"}[hypothesis.get("verified")]
    values = (
        hypothesis.get("id"),
        hypothesis.get("kind"),
        hypothesis.get("statement"),
        words.outcome[outcome],
        hypothesis.get("evidence"),
        hypothesis.get("iterations"),
    )
    return dict(zip(words.columns, values, strict=True))


def _text(content: str, heading: str) -> ReportSection:
    return ReportSection(section_type="text", content=content, description=heading)


def _fenced(text: str, language: str) -> str:
    """A code block no line of ``text`` can close: its fence is longer than any run of backticks in it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"
