"""The EDA page: hand over a table, review and edit the plan, review the results, take the report.

Everything goes through `EdaService`; runs live in the store, so a run started from the CLI (or
another browser) can be opened and reviewed here. Work runs in the script thread with its
progress drawn node by node in an ``st.status``.
"""

from __future__ import annotations

from typing import Any, Literal

import pandas as pd
import streamlit as st

from bunseki.domain import EdaRunDetails
from bunseki.service import UPLOAD_SUFFIXES
from bunseki.service.eda import EdaService
from bunseki.ui import context, notices, render, runs
from bunseki.ui.texts import Texts

KEY_RUN = "eda_run_id"
KEY_UPLOAD = "eda_upload"
KEY_GOAL = "eda_goal"
KEY_FEEDBACK = "eda_feedback"
KEY_KEEP = "eda_keep"
KEY_PICK = "eda_pick"
REPORTS: tuple[tuple[Literal["md", "html", "ipynb"], str, str], ...] = (
    ("md", "text/markdown", "eda_download_md"),
    ("html", "text/html", "eda_download_html"),
    ("ipynb", "application/x-ipynb+json", "eda_download_ipynb"),
)
PAGE = runs.RunPage(
    run_key=KEY_RUN,
    pick_key=KEY_PICK,
    widgets="eda",
    title="eda_title",
    caption="eda_caption",
    heading="eda_runs",
    new="eda_new_run",
    pick="eda_pick_run",
    open="eda_open_run",
    empty="eda_no_runs",
)


def show() -> None:
    texts = context.texts()
    eda = notices.attempt(context.get_eda_service, texts)
    if eda is None:
        return
    run = PAGE.opened(eda.get)
    _top(eda, run, texts)
    if run is None:
        _start(eda, texts)
        return
    _header(run, texts)
    if run.status == "awaiting_plan_review":
        _plan_review(eda, run, texts)
    elif run.status == "awaiting_results_review":
        _findings(eda, run, texts)
        _results_review(eda, run, texts)
    else:
        _findings(eda, run, texts)
        _report(eda, run, texts)


def _top(eda: EdaService, run: EdaRunDetails | None, texts: Texts) -> None:
    """The runs in the sidebar (how many wait for a review above them), then the page's title."""
    listed = eda.list()
    waiting = [item for item in listed if item.status.startswith("awaiting")]
    labels = {
        item.run_id: render.list_label(
            texts("eda_status_" + item.status), item.source, when=item.updated_at, item_id=item.run_id
        )
        for item in listed
    }
    note = texts("eda_waiting", count=len(waiting)) if waiting else None
    PAGE.top(labels, run.run_id if run is not None else None, texts, note=note)


# --- starting a run -------------------------------------------------------------------------------


def _start(eda: EdaService, texts: Texts) -> None:
    st.info(texts("eda_welcome"), icon=":material/upload_file:")
    with st.form("eda-start"):
        upload = st.file_uploader(
            texts("upload_label"), type=[suffix.lstrip(".") for suffix in UPLOAD_SUFFIXES], key=KEY_UPLOAD
        )
        goal = st.text_input(texts("eda_goal"), key=KEY_GOAL, placeholder=texts("eda_goal_placeholder"))
        models = eda.available_models()
        model = st.selectbox(texts("model"), models, help=texts("model_help"))
        started = st.form_submit_button(texts("eda_start"), type="primary")
    if not started:
        return
    if upload is None:
        st.warning(texts("eda_no_file"))
        return
    view = _with_progress(
        texts,
        lambda on_event: eda.start_from_upload(
            upload.name, upload, goal=goal.strip() or None, model=model, on_event=on_event
        ),
    )
    if view is not None:
        PAGE.open_run(view.run_id)
        st.rerun()


# --- what a run shows ----------------------------------------------------------------------------


def _header(run: EdaRunDetails, texts: Texts) -> None:
    st.subheader(f"{run.source}")
    st.markdown(texts("eda_run_line", status=texts("eda_status_" + run.status), run_id=run.run_id))
    if run.goal:
        st.markdown(texts("eda_goal_line", goal=run.goal))
    render.usage_line(run.usage, texts)
    if run.error:
        st.error(texts("eda_error", error=run.error))
    if run.profile is not None:
        with st.expander(texts("eda_profile", rows=run.profile.rows, columns=len(run.profile.columns))):
            for problem in run.problems:
                st.markdown(f"- {problem}")
            table = pd.DataFrame(
                [
                    {
                        "name": column.name,
                        "kind": column.kind,
                        "missing": column.missing,
                        "distinct": column.distinct,
                        "mean": column.mean,
                        "min": column.min if not isinstance(column.min, str) else None,
                        "max": column.max if not isinstance(column.max, str) else None,
                        "outliers": column.outliers,
                    }
                    for column in run.profile.columns
                ]
            )
            st.dataframe(table, hide_index=True)


def _plan_review(eda: EdaService, run: EdaRunDetails, texts: Texts) -> None:
    st.markdown(f"### {texts('eda_plan')}")
    if run.review is not None and run.review.note:
        st.warning(run.review.note)
    plan = pd.DataFrame(
        [
            {
                "keep": True,
                "id": step.id,
                "title": step.title,
                "kind": step.kind,
                "columns": ", ".join(step.columns),
                "rationale": step.rationale,
            }
            for step in run.plan
        ]
    )
    edited = st.data_editor(
        plan,
        key=f"{KEY_KEEP}-{run.run_id}-{len(run.plan)}-{hash(tuple(s.title for s in run.plan))}",
        hide_index=True,
        disabled=["id", "title", "kind", "columns", "rationale"],
        column_config={"keep": st.column_config.CheckboxColumn(texts("eda_keep"))},
    )
    dropped = [int(step_id) for step_id, keep in zip(edited["id"], edited["keep"], strict=True) if not keep]
    feedback = _review_buttons(eda, run, texts, allowed=run.review is None or run.review.feedback_allowed)
    if feedback is not None:
        _send(eda, run, texts, feedback, dropped)


def _results_review(eda: EdaService, run: EdaRunDetails, texts: Texts) -> None:
    st.markdown(f"### {texts('eda_results_review')}")
    if run.review is not None and run.review.note:
        st.warning(run.review.note)
    if run.review is not None and run.review.failed_steps:
        st.warning(texts("eda_failed_steps", steps=", ".join(map(str, run.review.failed_steps))))
    feedback = _review_buttons(eda, run, texts, allowed=run.review is None or run.review.feedback_allowed)
    if feedback is not None:
        _send(eda, run, texts, feedback, [])


def _review_buttons(eda: EdaService, run: EdaRunDetails, texts: Texts, *, allowed: bool) -> str | None:
    """Approve or stop here; returns the feedback when it is sent."""
    text = st.text_area(
        texts("eda_feedback"),
        key=f"{KEY_FEEDBACK}-{run.run_id}-{run.status}",
        placeholder=texts("eda_feedback_placeholder"),
        disabled=not allowed,
    )
    approve, send, stop = st.columns(3)
    if approve.button(texts("eda_approve"), key="eda-approve", type="primary", icon=":material/check:"):
        _resume(eda, run, texts, {"action": "approve"})
    if stop.button(texts("eda_stop"), key="eda-stop", icon=":material/stop:"):
        _resume(eda, run, texts, {"action": "stop"})
    if send.button(texts("eda_send_feedback"), key="eda-send", disabled=not allowed, icon=":material/edit:"):
        return text
    return None


def _send(eda: EdaService, run: EdaRunDetails, texts: Texts, text: str, dropped: list[int]) -> None:
    """The feedback as the planner reads it: the steps unticked in the list, then what was typed."""
    parts = [texts("eda_drop_steps", steps=", ".join(map(str, dropped)))] if dropped else []
    if text.strip():
        parts.append(text.strip())
    if not parts:
        st.warning(texts("eda_empty_feedback"))
        return
    _resume(
        eda,
        run,
        texts,
        {"action": "feedback", "feedback": "。".join(parts) if texts.language == "ja" else ". ".join(parts)},
    )


def _resume(eda: EdaService, run: EdaRunDetails, texts: Texts, answer: dict[str, Any]) -> None:
    view = _with_progress(texts, lambda on_event: eda.resume(run.run_id, answer, on_event=on_event))
    if view is not None:
        st.rerun()


def _findings(eda: EdaService, run: EdaRunDetails, texts: Texts) -> None:
    if not run.findings:
        return
    st.markdown(f"### {texts('eda_findings')}")
    for finding in run.findings:
        with st.container(border=True):
            mark = "" if finding.success else "❌ "
            st.markdown(f"**{mark}{finding.step_id}. {finding.title}**")
            st.markdown(finding.text)
            runs.charts(finding.artifacts, lambda path: eda.artifact(run.run_id, path), "eda_missing_file", texts)


def _report(eda: EdaService, run: EdaRunDetails, texts: Texts) -> None:
    if run.status != "completed" or not run.report_markdown:
        if run.status == "stopped":
            st.info(texts("eda_stopped"))
        return
    st.markdown(f"### {texts('eda_report')}")
    runs.report_downloads(REPORTS, lambda kind: eda.report_file(run.run_id, kind), "eda", texts)
    with st.expander(texts("eda_report_markdown"), expanded=False):
        st.markdown(run.report_markdown)


# --- progress ----------------------------------------------------------------------------------------


def _with_progress(texts: Texts, work: runs.Work[EdaRunDetails]) -> EdaRunDetails | None:
    """Run ``work`` with its steps drawn one by one; a refusal becomes a notice, not a traceback."""
    return runs.with_progress(texts, "eda_working", work, step=_step, note=_execution)


def _step(event: dict[str, Any], texts: Texts) -> str | None:
    """What a node that starts does (and on which step of the plan); None for other events."""
    if event.get("event") != "node_started":
        return None
    node = str(event.get("node"))
    step = f" ({texts('eda_step', step=event['step'])})" if event.get("step") else ""
    return texts.get(f"eda_node_{node}", node) + step


def _execution(event: dict[str, Any], texts: Texts) -> str | None:
    """How a step's code ran; None for other events."""
    if event.get("event") != "execution":
        return None
    return texts("progress_ok") if event.get("success") else texts("eda_step_failed")
