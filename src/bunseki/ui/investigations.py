"""The investigator page: upload a case archive, watch each dataset go agent by agent, read the reports.

Everything goes through `InvestigationRuns`: the investigation runs on the service's worker
thread, so closing the browser does not stop it, and an investigation started through the API
(or another browser) is listed and can be opened here. While one runs, the page follows its
event log in an ``st.status``, which stays (collapsed) above the result once it ends.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import streamlit as st

from bunseki.errors import BunsekiError
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.service.investigation_views import InvestigationRunView
from bunseki.ui import context, notices, render
from bunseki.ui.texts import Texts

KEY_RUN = "investigation_id"
KEY_PICK = "inv_pick"
KEY_UPLOAD = "inv_upload"
ARCHIVE_TYPES = ["zip", "tar", "gz", "tgz"]
REPORT_KINDS = (("md", "text/markdown", "inv_download_md"), ("html", "text/html", "inv_download_html"))
_IMAGE_LINE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$", re.MULTILINE)  # charts are drawn from the files instead


def show() -> None:
    texts = context.texts()
    try:
        runs = context.get_investigations()
    except BunsekiError as error:
        notices.show(notices.friendly(error, texts))
        return
    run = _open_run(runs)
    _sidebar(runs, run, texts)
    st.title(texts("inv_title"))
    st.caption(texts("inv_caption"))
    notices.show_pending()
    if run is None:
        _start(runs, texts)
        return
    if not run.finished:
        run = _follow(runs, run, texts) or run  # the agents' steps stay listed above the result
    _header(run, texts)
    _progress(run, texts)
    if run.result is not None:
        _result(runs, run, texts)


# --- the investigation this browser has open ---------------------------------------------------------


def _open_run(runs: InvestigationRuns) -> InvestigationRunView | None:
    run_id = st.session_state.get(KEY_RUN)
    if not run_id:
        return None
    try:
        return runs.get(str(run_id))
    except BunsekiError:
        st.session_state[KEY_RUN] = None
        return None


def _sidebar(runs: InvestigationRuns, run: InvestigationRunView | None, texts: Texts) -> None:
    with st.sidebar:
        st.subheader(texts("inv_runs"))
        st.button(texts("inv_new"), key="inv-new", on_click=_open, args=(None,), icon=":material/add:")
        listed = runs.list()
        if not listed:
            st.caption(texts("inv_no_runs"))
            return
        labels = {
            item.investigation_id: f"{texts('inv_status_' + item.status)} · {item.case} · "
            f"{item.created_at.astimezone():%m/%d %H:%M} · {item.investigation_id[:8]}"
            for item in listed
        }
        current = run.investigation_id if run is not None and run.investigation_id in labels else next(iter(labels))
        st.selectbox(
            texts("inv_pick"),
            list(labels),
            index=list(labels).index(current),
            format_func=labels.__getitem__,
            key=KEY_PICK,
        )
        st.button(texts("inv_open"), key="inv-open", on_click=_open_picked, icon=":material/history:")


def _open(run_id: str | None) -> None:
    st.session_state[KEY_RUN] = run_id


def _open_picked() -> None:
    _open(st.session_state.get(KEY_PICK))


# --- starting one -----------------------------------------------------------------------------------------


def _start(runs: InvestigationRuns, texts: Texts) -> None:
    st.info(texts("inv_welcome"), icon=":material/upload_file:")
    with st.form("inv-start"):
        upload = st.file_uploader(texts("inv_upload"), type=ARCHIVE_TYPES, key=KEY_UPLOAD)
        model = st.selectbox(texts("model"), runs.available_models(), help=texts("model_help"))
        started = st.form_submit_button(texts("inv_start"), type="primary")
    if not started:
        return
    if upload is None:
        st.warning(texts("inv_no_file"))
        return
    try:
        view = runs.start_from_upload(upload.name, upload, model=model)
    except BunsekiError as error:
        notices.show(notices.friendly(error, texts))
        return
    _open(view.investigation_id)
    st.rerun()


# --- following and reading one ----------------------------------------------------------------------------


def _header(run: InvestigationRunView, texts: Texts) -> None:
    st.subheader(run.source)
    status = texts("inv_status_" + run.status)
    st.markdown(texts("inv_run_line", status=status, case=run.case, run_id=run.investigation_id))
    if run.error:
        st.error(texts("inv_error", error=run.error))


def _follow(runs: InvestigationRuns, run: InvestigationRunView, texts: Texts) -> InvestigationRunView | None:
    """Draw the investigation's events, those so far and then as they come, until it ends; its final view."""
    with st.status(texts("inv_working"), expanded=True) as status:

        def on_event(event: dict[str, Any]) -> None:
            if event.get("event") != "node_started":
                return
            node = str(event.get("node"))
            label = texts.get(f"inv_node_{node}", node)
            if event.get("iteration"):
                label += f" ({event['iteration']})"
            if event.get("dataset"):
                label = f"[{event['dataset']}] {label}"
            status.update(label=label)
            st.write(f"… {label}")

        try:
            final = runs.follow(run.investigation_id, on_event)
        except BunsekiError as error:
            status.update(label=texts("failed"), state="error")
            notices.show(notices.friendly(error, texts))
            return None
        if final.status == "completed":
            status.update(label=texts("done"), state="complete", expanded=False)
        else:
            status.update(label=texts("failed"), state="error", expanded=False)
    return final


def _progress(run: InvestigationRunView, texts: Texts) -> None:
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


def _result(runs: InvestigationRuns, run: InvestigationRunView, texts: Texts) -> None:
    result = run.result or {}
    st.markdown(f"### {texts('inv_summary')}")
    st.markdown(result.get("summary") or result.get("error") or "")
    render.usage_line(run.usage, texts)
    if result.get("report_path"):
        columns = st.columns(len(REPORT_KINDS))
        for column, (kind, media, label) in zip(columns, REPORT_KINDS, strict=True):
            try:
                with runs.report_file(run.investigation_id, kind) as file:  # type: ignore[arg-type]
                    data = file.read()
            except BunsekiError:
                continue
            column.download_button(texts(label), data, file_name=file.name, mime=media, key=f"inv-{kind}")
    datasets = result.get("datasets", [])
    if not datasets:
        return
    for tab, dataset in zip(st.tabs([ds["name"] for ds in datasets]), datasets, strict=True):
        with tab:
            _dataset(runs, run, dataset, texts)


def _dataset(runs: InvestigationRuns, run: InvestigationRunView, dataset: dict[str, Any], texts: Texts) -> None:
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
        for path in dataset["charts"]:
            try:
                with runs.chart(run.investigation_id, path) as image:
                    st.image(image.read(), caption=path)
            except BunsekiError:
                st.caption(texts("inv_missing_file", path=path))
    try:
        with runs.report_file(run.investigation_id, "md", dataset=dataset["name"]) as file:
            markdown = file.read().decode("utf-8", errors="replace")
    except BunsekiError:
        return
    with st.expander(texts("inv_report"), expanded=False):
        st.markdown(_IMAGE_LINE.sub("", markdown))
