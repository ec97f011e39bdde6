"""The analysis page's sidebar: sessions to resume or start, the model, history, steps and snapshots.

Every action runs in a widget callback through the service; what it has to say is shown at the
top of the page (`notices`).
"""

from __future__ import annotations

import json

import streamlit as st

from bunseki.domain import Session, Step
from bunseki.service import AnalysisService
from bunseki.ui import notices, render
from bunseki.ui.context import KEY_NEW_MODEL, set_open_session, thoughts
from bunseki.ui.texts import Texts

KEY_RESUME = "resume_choice"


def sidebar(service: AnalysisService, session: Session | None, texts: Texts, *, busy: bool) -> None:
    with st.sidebar:
        _sessions(service, session, texts)
        _model(service, session, texts, busy=busy)
        if session is not None:
            st.button(
                texts("clear_history"),
                key="clear-history",
                on_click=_clear_history,
                args=(service, session.id, texts),
                disabled=busy,
                icon=":material/delete_sweep:",
            )
            _steps(service.steps(session.id), texts)
            _snapshots(service, session, texts, busy=busy)


def _sessions(service: AnalysisService, session: Session | None, texts: Texts) -> None:
    st.subheader(texts("sessions"))
    if session is not None:
        st.markdown(texts("current_session", title=session.title, name=session.dataset_name))
    st.button(texts("new_session"), key="new-session", on_click=set_open_session, args=(None,), icon=":material/add:")
    records = service.list_sessions()
    if not records:
        st.caption(texts("no_sessions"))
        return
    labels = {
        record.id: render.list_label(record.title, record.dataset_name, when=record.updated_at, item_id=record.id)
        for record in records
    }
    st.selectbox(texts("past_sessions"), list(labels), format_func=labels.__getitem__, key=KEY_RESUME)
    st.button(texts("resume"), key="resume", on_click=_resume, icon=":material/history:")


def _resume() -> None:
    set_open_session(st.session_state.get(KEY_RESUME))


def _model(service: AnalysisService, session: Session | None, texts: Texts, *, busy: bool) -> None:
    options = service.available_models()
    current = session.model if session is not None else service.settings.model
    if current not in options:
        options.append(current)
    if session is None:
        st.selectbox(texts("model"), options, index=options.index(current), key=KEY_NEW_MODEL, help=texts("model_help"))
        return
    key = f"model-{session.id}"
    st.selectbox(
        texts("model"),
        options,
        index=options.index(current),
        key=key,
        help=texts("model_help"),
        on_change=_change_model,
        args=(service, session, key, texts),
        disabled=busy,
    )


def _change_model(service: AnalysisService, session: Session, key: str, texts: Texts) -> None:
    chosen = str(st.session_state[key])
    if not notices.act(
        lambda: service.set_model(session.id, chosen), texts, success=texts("model_changed", model=chosen)
    ):
        st.session_state[key] = session.model


def _clear_history(service: AnalysisService, session_id: str, texts: Texts) -> None:
    if not notices.act(lambda: service.clear_history(session_id), texts, success=texts("history_cleared")):
        return
    known = thoughts()
    for key in [key for key in known if key.startswith(f"{session_id}:")]:
        del known[key]


def _steps(steps: list[Step], texts: Texts) -> None:
    with st.expander(texts("steps"), expanded=bool(steps)):
        if not steps:
            st.caption(texts("no_steps"))
        for step in steps:
            st.caption(_step_line(step))


def _step_line(step: Step, width: int = 70) -> str:
    if step.step_type == "code":
        detail = str(step.parameters.get("instruction") or step.parameters.get("code", ""))
    else:
        detail = json.dumps(step.parameters, ensure_ascii=False)
    detail = " ".join(detail.split())
    if len(detail) > width:
        detail = detail[: width - 1] + "…"
    rows = "" if step.rows_before is None else f" ({step.rows_before:,} → {step.rows_after or 0:,})"
    return f"{step.position}. **{step.step_type}** {detail}{rows}"


def _snapshots(service: AnalysisService, session: Session, texts: Texts, *, busy: bool) -> None:
    st.subheader(texts("snapshots"))
    name_key = f"snapshot-name-{session.id}"
    st.text_input(texts("snapshot_name"), key=name_key)
    st.button(
        texts("snapshot_save"),
        key="snapshot-save",
        on_click=_save_snapshot,
        args=(service, session.id, name_key, texts),
        disabled=busy,
        icon=":material/bookmark_add:",
    )
    snapshots = service.snapshots(session.id)
    if not snapshots:
        st.caption(texts("no_snapshots"))
    for snapshot in snapshots:
        label, action = st.columns([3, 2], vertical_alignment="center")
        label.caption(f"**{snapshot.name}** · {snapshot.rows:,} × {snapshot.columns}")
        action.button(
            texts("restore"),
            key=f"restore-{snapshot.id}",
            on_click=_restore,
            args=(service, session.id, snapshot.id, snapshot.name, texts),
            disabled=busy,
        )
    st.button(
        texts("reset"),
        key="reset-data",
        on_click=_reset,
        args=(service, session.id, texts),
        disabled=busy,
        icon=":material/restart_alt:",
    )


def _save_snapshot(service: AnalysisService, session_id: str, name_key: str, texts: Texts) -> None:
    name = str(st.session_state.get(name_key) or "").strip()
    if not name:
        notices.notify("warning", texts("snapshot_name_needed"))
        return
    if notices.act(lambda: service.snapshot(session_id, name), texts, success=texts("snapshot_saved", name=name)):
        st.session_state[name_key] = ""


def _restore(service: AnalysisService, session_id: str, snapshot_id: str, name: str, texts: Texts) -> None:
    notices.act(lambda: service.restore(session_id, snapshot_id), texts, success=texts("restored", name=name))


def _reset(service: AnalysisService, session_id: str, texts: Texts) -> None:
    notices.act(lambda: service.reset(session_id), texts, success=texts("reset_done"))
