"""The investigator page: upload a case archive, watch each dataset go agent by agent, read the reports.

Everything goes through `InvestigationRuns`: the investigation runs on the service's worker
thread, so closing the browser does not stop it, and an investigation started through the API
(or another browser) is listed and can be opened here. While one runs, the page follows its
event log in an ``st.status``, which stays (collapsed) above the result once it ends.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import pandas as pd
import streamlit as st

from bunseki.domain import InvestigationRun
from bunseki.errors import BunsekiError
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.ui import context, notices, render, runs
from bunseki.ui.texts import Texts

KEY_RUN = "investigation_id"
KEY_PICK = "inv_pick"
KEY_UPLOAD = "inv_upload"
ARCHIVE_TYPES = ["zip", "tar", "gz", "tgz"]
REPORTS: tuple[tuple[Literal["md", "html"], str, str], ...] = (
    ("md", "text/markdown", "inv_download_md"),
    ("html", "text/html", "inv_download_html"),
)
PAGE = runs.RunPage(
    run_key=KEY_RUN,
    pick_key=KEY_PICK,
    widgets="inv",
    title="inv_title",
    caption="inv_caption",
    heading="inv_runs",
    new="inv_new",
    pick="inv_pick",
    open="inv_open",
    empty="inv_no_runs",
)
_IMAGE_LINE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$", re.MULTILINE)  # charts are drawn from the files instead


def show() -> None:
    texts = context.texts()
    investigations = notices.attempt(context.get_investigations, texts)
    if investigations is None:
        return
    run = PAGE.opened(investigations.get)
    _top(investigations, run, texts)
    if run is None:
        _start(investigations, texts)
        return
    if not run.finished:
        run = _follow(investigations, run, texts) or run  # the agents' steps stay listed above the result
    _header(run, texts)
    _progress(run, texts)
    if run.result is not None:
        _result(investigations, run, texts)


def _top(investigations: InvestigationRuns, run: InvestigationRun | None, texts: Texts) -> None:
    """The investigations in the sidebar, then the page's title."""
    labels = {
        item.investigation_id: render.list_label(
            texts("inv_status_" + item.status), item.case, when=item.created_at, item_id=item.investigation_id
        )
        for item in investigations.list()
    }
    PAGE.top(labels, run.investigation_id if run is not None else None, texts)


# --- starting one -----------------------------------------------------------------------------------------


def _start(investigations: InvestigationRuns, texts: Texts) -> None:
    st.info(texts("inv_welcome"), icon=":material/upload_file:")
    with st.form("inv-start"):
        upload = st.file_uploader(texts("inv_upload"), type=ARCHIVE_TYPES, key=KEY_UPLOAD)
        model = st.selectbox(texts("model"), investigations.available_models(), help=texts("model_help"))
        started = st.form_submit_button(texts("inv_start"), type="primary")
    if not started:
        return
    if upload is None:
        st.warning(texts("inv_no_file"))
        return
    view = notices.attempt(lambda: investigations.start_from_upload(upload.name, upload, model=model), texts)
    if view is not None:
        PAGE.open_run(view.investigation_id)
        st.rerun()


# --- following and reading one ----------------------------------------------------------------------------


def _header(run: InvestigationRun, texts: Texts) -> None:
    st.subheader(run.source)
    status = texts("inv_status_" + run.status)
    st.markdown(texts("inv_run_line", status=status, case=run.case, run_id=run.investigation_id))
    if run.error:
        st.error(texts("inv_error", error=run.error))


def _follow(investigations: InvestigationRuns, run: InvestigationRun, texts: Texts) -> InvestigationRun | None:
    """Draw the investigation's events, those so far and then as they come, until it ends; its final view."""
    return runs.with_progress(
        texts,
        "inv_working",
        lambda on_event: investigations.follow(run.investigation_id, on_event),
        step=_step,
        succeeded=lambda final: final.status == "completed",
    )


def _step(event: dict[str, Any], texts: Texts) -> str | None:
    """What an agent that starts does, on which dataset and in which round; None for other events."""
    if event.get("event") != "node_started":
        return None
    node = str(event.get("node"))
    label = texts.get(f"inv_node_{node}", node)
    if event.get("iteration"):
        label += f" ({event['iteration']})"
    if event.get("dataset"):
        label = f"[{event['dataset']}] {label}"
    return label


def _progress(run: InvestigationRun, texts: Texts) -> None:
    rows = [
        {
            texts("inv_col_dataset"): ds.name,
            texts("inv_col_agent"): texts.get(f"inv_node_{ds.agent}", ds.agent or "-") if ds.agent else "-",
            texts("inv_col_iteration"): ds.iteration,
            texts("inv_col_done"): ds.done,
        }
        for ds in run.datasets
    ]
    with st.expander(texts("inv_progress"), expanded=not run.finished):
        st.dataframe(pd.DataFrame(rows), hide_index=True)


def _result(investigations: InvestigationRuns, run: InvestigationRun, texts: Texts) -> None:
    result = run.result or {}
    st.markdown(f"### {texts('inv_summary')}")
    st.markdown(result.get("summary") or result.get("error") or "")
    render.usage_line(run.usage, texts)
    if result.get("report_path"):
        runs.report_downloads(
            REPORTS, lambda kind: investigations.report_file(run.investigation_id, kind), "inv", texts
        )
    datasets = result.get("datasets", [])
    if not datasets:
        return
    for tab, dataset in zip(st.tabs([ds["name"] for ds in datasets]), datasets, strict=True):
        with tab:
            _dataset(investigations, run, dataset, texts)


def _dataset(investigations: InvestigationRuns, run: InvestigationRun, dataset: dict[str, Any], texts: Texts) -> None:
    status = texts.get(f"inv_ds_{dataset['status']}", dataset["status"])
    st.markdown(texts("inv_dataset_line", status=status, frames=len(dataset.get("mismatched_frames", []))))
    st.info(dataset.get("conclusion", ""))
    if dataset.get("hypotheses"):
        st.markdown(f"#### {texts('inv_hypotheses')}")
        st.dataframe(pd.DataFrame(dataset["hypotheses"]), hide_index=True)
    if dataset.get("fix"):
        st.markdown(f"#### {texts('inv_fix')}")
        st.code(dataset["fix"], language="diff")
    if dataset.get("charts"):
        st.markdown(f"#### {texts('inv_charts')}")
        runs.charts(
            dataset["charts"], lambda path: investigations.chart(run.investigation_id, path), "inv_missing_file", texts
        )
    try:
        with investigations.report_file(run.investigation_id, "md", dataset=dataset["name"]) as file:
            markdown = file.read().decode("utf-8", errors="replace")
    except BunsekiError:
        return
    with st.expander(texts("inv_report"), expanded=False):
        st.markdown(_IMAGE_LINE.sub("", markdown))
