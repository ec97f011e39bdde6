"""The analysis chat: upload a table, ask, watch the agent work, take the report home.

Everything goes through `AnalysisService`; this module only decides what to show and where.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bunseki.domain import Session
from bunseki.errors import BunsekiError
from bunseki.service import UPLOAD_SUFFIXES, AnalysisService, Exchange, TurnResult
from bunseki.ui import context, notices, render, turns
from bunseki.ui.context import KEY_NEW_MODEL, KEY_PENDING, KEY_UPLOADS
from bunseki.ui.sidebar import sidebar
from bunseki.ui.texts import Texts
from bunseki.ui.turns import PendingTurn

KEY_QUESTION = "question"
KEY_WORKBOOK = "workbook"  # an uploaded workbook of several sheets: (name, bytes, sheets), until one is chosen
KEY_SHEET = "sheet-choice"
PREVIEW_ROWS = 20


def show() -> None:
    texts = context.texts()
    service = notices.attempt(context.get_service, texts)
    if service is None:
        return
    pending = _pending()
    if pending is not None and pending.done:
        _finish(pending, texts)
        pending = None
    session = context.open_session(service)
    following = pending if pending is not None and session is not None and pending.session_id == session.id else None
    sidebar(service, session, texts, busy=following is not None)
    st.title(texts("app_title"))
    st.caption(texts("tagline"))
    notices.show_pending()
    if session is None:
        _upload(service, texts)
        return
    exchanges = service.conversation(session.id)
    _data(service, session, texts, expanded=not exchanges and following is None)  # open until the first question
    _conversation(service, exchanges, session, texts, following=following is not None)
    st.chat_input(
        texts("chat_busy" if following else "chat_placeholder"),
        key=KEY_QUESTION,
        max_chars=service.settings.max_question_chars,  # the service refuses longer ones anyway
        on_submit=_ask,
        args=(service, session.id, texts),
        disabled=following is not None,
    )
    if following is not None:
        with st.chat_message("user"):
            st.markdown(following.question)
        with st.chat_message("assistant"):
            turns.follow(following, texts)
        _finish(following, texts)
        st.rerun()  # draw the answer, the data state and the sidebar from the store


# --- data ---------------------------------------------------------------------------------------


def _upload(service: AnalysisService, texts: Texts) -> None:
    waiting = st.session_state.get(KEY_WORKBOOK)
    if waiting is not None:
        _choose_sheet(service, waiting, texts)
        return
    st.info(texts("welcome"), icon=":material/upload_file:")
    key = f"upload-{st.session_state.get(KEY_UPLOADS, 0)}"
    st.file_uploader(
        texts("upload_label"),
        type=[suffix.lstrip(".") for suffix in UPLOAD_SUFFIXES],
        key=key,
        help=texts("upload_help"),
        on_change=_uploaded,
        args=(service, key, texts),
    )


def _uploaded(service: AnalysisService, key: str, texts: Texts) -> None:
    uploaded = st.session_state.get(key)
    if uploaded is None:
        return
    st.session_state[KEY_UPLOADS] = st.session_state.get(KEY_UPLOADS, 0) + 1  # a fresh uploader next time
    content = uploaded.getvalue()
    sheets = service.workbook_sheets(uploaded.name, content)
    if len(sheets) > 1:  # the person chooses the sheet before the session starts
        st.session_state[KEY_WORKBOOK] = (uploaded.name, content, sheets)
        return
    _create(service, uploaded.name, content, None, texts)


def _choose_sheet(service: AnalysisService, waiting: tuple[str, bytes, list[str]], texts: Texts) -> None:
    name, _, sheets = waiting
    st.info(texts("sheet_intro", name=name, count=len(sheets)), icon=":material/tab:")
    st.selectbox(texts("sheet_label"), sheets, key=KEY_SHEET)
    start, cancel = st.columns(2)
    start.button(texts("sheet_start"), on_click=_start_workbook, args=(service, texts), type="primary")
    cancel.button(texts("sheet_cancel"), on_click=st.session_state.pop, args=(KEY_WORKBOOK, None))


def _start_workbook(service: AnalysisService, texts: Texts) -> None:
    waiting = st.session_state.pop(KEY_WORKBOOK, None)
    if waiting is not None:
        name, content, _ = waiting
        _create(service, name, content, st.session_state.get(KEY_SHEET), texts)


def _create(service: AnalysisService, name: str, content: bytes, sheet: str | None, texts: Texts) -> None:
    model = st.session_state.get(KEY_NEW_MODEL)
    try:
        record = service.create_session_from_upload(name, content, model=model, sheet=sheet)
    except BunsekiError as error:
        notices.notify_error(error, texts)
        return
    context.set_open_session(record.id)
    notices.notify(
        "success",
        texts("session_created", name=record.dataset_name, rows=record.dataset_rows, columns=record.dataset_columns),
    )


def _data(service: AnalysisService, session: Session, texts: Texts, *, expanded: bool) -> None:
    overview = service.data_state(session.id, language=texts.language)
    line = texts("data_state", state=overview["state"])
    st.info(line, icon=":material/table_chart:")
    st.sidebar.info(line)
    with st.expander(texts("data_expander"), expanded=expanded):
        render.data_overview(session, overview, service.preview(session.id, PREVIEW_ROWS), texts)
        st.download_button(
            texts("download_csv"),
            data=render.contents(lambda: service.open_data(session.id, "csv")),
            file_name=f"{Path(session.dataset_name).stem}_current.csv",
            mime="text/csv",
            key="download-data",
            on_click="ignore",
            icon=":material/download:",
        )


# --- conversation -------------------------------------------------------------------------------


def _conversation(
    service: AnalysisService, exchanges: list[Exchange], session: Session, texts: Texts, *, following: bool
) -> None:
    known = context.thoughts()
    for exchange in exchanges:
        if following and exchange.status == "running":
            continue  # the turn being answered is drawn below, as it progresses
        if exchange.question is not None:
            with st.chat_message("user"):
                st.markdown(exchange.question)
        number = exchange.turn.number if exchange.turn else None
        result = known.get(context.thought_key(session.id, number)) if number is not None else None
        with st.chat_message("assistant"):
            _reply(service, exchange, session, result, texts)


def _reply(
    service: AnalysisService, exchange: Exchange, session: Session, result: TurnResult | None, texts: Texts
) -> None:
    if exchange.status == "running":
        st.info(texts("running_elsewhere"))
    content = exchange.report_output
    if content is not None and exchange.report is not None:
        render.report(content, Path(session.workspace))
        report_id = exchange.report.id
        render.report_downloads(
            exchange.report_files,
            lambda fmt: service.open_report(session.id, fmt, report_id=report_id),
            report_id,
            texts,
        )
    else:
        for reply in exchange.replies:
            st.markdown(reply)
    render.usage_line(exchange.turn.usage if exchange.turn else None, texts)
    if exchange.status == "asked" and session.model == "offline":
        st.info(texts("asked_offline"), icon=":material/help:")
    elif exchange.status == "limit_reached":
        st.warning(texts("limit_reached"))
    elif exchange.status == "error":
        st.warning(texts("turn_error"))
    render.exchange_thought(exchange, result, texts)


# --- a question ---------------------------------------------------------------------------------


def _ask(service: AnalysisService, session_id: str, texts: Texts) -> None:
    question = str(st.session_state.get(KEY_QUESTION) or "").strip()
    if not question:
        return
    running = _pending()
    if running is not None and not running.done:
        notices.notify("warning", texts("error_busy"))
        return
    st.session_state[KEY_PENDING] = turns.start(service, session_id, question)


def _pending() -> PendingTurn | None:
    pending = st.session_state.get(KEY_PENDING)
    return pending if isinstance(pending, PendingTurn) else None


def _finish(pending: PendingTurn, texts: Texts) -> None:
    """Keep the finished turn's thought process for this browser session; report a failure."""
    st.session_state[KEY_PENDING] = None
    if pending.result is not None and pending.number is not None:
        context.thoughts()[context.thought_key(pending.session_id, pending.number)] = pending.result
    if pending.error is not None:
        notices.notify_error(pending.error, texts)
