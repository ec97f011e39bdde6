"""The knowledge chat: ask documents in Japanese or English, see the thought process and
the passages every answer rests on, and add documents to a collection.

The page: a title and caption, an expander with the source documents, an expander
previewing the registered Q&A, a sidebar with the model, the collections (multiselect) and "clear
history", then the chat. Everything goes through `KnowledgeService`; the conversation is kept in the
store (the browser session holds its id), so "clear history" clears it there.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bunseki.domain import Answer, Event, SourceDocument
from bunseki.errors import BunsekiError, NotFound
from bunseki.service.knowledge import KnowledgeService, QaPair, document_suffixes
from bunseki.ui import context, notices, render
from bunseki.ui.texts import Texts
from bunseki.ui.turns import show_streamed

KEY_CONVERSATION = "knowledge_conversation"
KEY_MODEL = "knowledge_model"
KEY_COLLECTIONS = "knowledge_collections"
KEY_TARGET = "knowledge_upload_collection"
KEY_UPLOADS = "knowledge_uploads"  # bumped to give the file uploader a fresh, empty widget
KEY_QUESTION = "knowledge_question"
EXCERPT_CHARS = 300


def history(service: KnowledgeService) -> list[Answer]:
    """The answers of this browser session's conversation, oldest first (each holds its question)."""
    conversation_id = st.session_state.get(KEY_CONVERSATION)
    if not conversation_id:
        return []
    try:
        return [turn.answer for turn in service.conversation(conversation_id).turns]
    except NotFound:  # deleted meanwhile: start afresh
        del st.session_state[KEY_CONVERSATION]
        return []


def show() -> None:
    texts = context.texts()
    st.title(texts("kn_title"))
    st.caption(texts("kn_caption"))
    try:
        service = context.get_knowledge_service()
        names = service.collection_names()
    except BunsekiError as error:
        notices.show(notices.friendly(error, texts))
        return
    selected, model = _sidebar(service, names, texts)
    notices.show_pending()
    _documents(service, selected, texts)
    _qa(service, selected, texts)
    if not names:
        st.info(texts("kn_no_collections"), icon=":material/upload_file:")
    for answer in history(service):
        _turn(answer, texts)
    question = st.chat_input(
        texts("kn_placeholder" if selected else "kn_placeholder_choose"), key=KEY_QUESTION, disabled=not selected
    )
    if question:
        _ask(service, question, selected, model, texts)


# --- the two expanders ----------------------------------------------------------------------------


def _documents(service: KnowledgeService, selected: list[str], texts: Texts) -> None:
    with st.expander(texts("kn_documents"), icon=":material/description:"):
        if not selected:
            st.caption(texts("kn_choose_collections"))
            return
        try:
            documents: list[SourceDocument] = [item for name in selected for item in service.documents(name)]
        except BunsekiError as error:
            notices.show(notices.friendly(error, texts))
            return
        if not documents:
            st.caption(texts("kn_no_documents"))
            return
        frame = pd.DataFrame(
            {
                texts("kn_col_collection"): [item.collection for item in documents],
                texts("kn_col_source"): [item.source for item in documents],
                texts("kn_col_title"): [item.title for item in documents],
                texts("kn_col_kind"): [item.kind for item in documents],
                texts("kn_col_chunks"): [item.chunks for item in documents],
            }
        )
        st.dataframe(frame, hide_index=True, width="stretch")


def _qa(service: KnowledgeService, selected: list[str], texts: Texts) -> None:
    with st.expander(texts("kn_qa"), icon=":material/quiz:"):
        if not selected:
            st.caption(texts("kn_choose_collections"))
            return
        try:
            pairs: list[QaPair] = service.qa_pairs(selected)
        except BunsekiError as error:
            notices.show(notices.friendly(error, texts))
            return
        if not pairs:
            st.caption(texts("kn_no_qa"))
            return
        st.caption(texts("kn_qa_caption", count=len(pairs)))
        frame = pd.DataFrame(
            {
                texts("kn_col_question"): [pair.question for pair in pairs],
                texts("kn_col_answer"): [_answer_of(pair) for pair in pairs],
                texts("kn_col_source"): [f"{pair.collection} / {pair.source}" for pair in pairs],
            }
        )
        st.dataframe(frame, hide_index=True, width="stretch")


def _answer_of(pair: QaPair) -> str:
    """The answer part of a Q&A chunk ("Q: …\\nA: …"), or the whole text."""
    _, found, answer = pair.text.partition("\nA: ")
    return answer.strip() if found else pair.text


# --- the sidebar ----------------------------------------------------------------------------------


def _sidebar(service: KnowledgeService, names: list[str], texts: Texts) -> tuple[list[str], str]:
    with st.sidebar:
        st.subheader(texts("kn_settings"))
        options = service.available_models()
        if service.settings.model not in options:
            options.append(service.settings.model)
        if st.session_state.get(KEY_MODEL) not in options:
            st.session_state[KEY_MODEL] = service.settings.model
        model = str(st.selectbox(texts("kn_model"), options, key=KEY_MODEL, help=texts("kn_model_help")))
        chosen = st.session_state.get(KEY_COLLECTIONS)
        # every collection until the person chooses; a deleted one drops out of the choice
        st.session_state[KEY_COLLECTIONS] = names if chosen is None else [name for name in chosen if name in names]
        selected = list(
            st.multiselect(
                texts("kn_collections"),
                names,
                key=KEY_COLLECTIONS,
                help=texts("kn_collections_help"),
                placeholder=texts("kn_collections_placeholder"),
            )
        )
        st.button(
            texts("kn_clear"),
            key="knowledge-clear",
            on_click=_clear,
            args=(service, texts),
            icon=":material/delete_sweep:",
        )
        st.divider()
        _upload(service, names, texts)
    return selected, model


def _clear(service: KnowledgeService, texts: Texts) -> None:
    conversation_id = st.session_state.get(KEY_CONVERSATION)
    try:
        if conversation_id:
            service.clear_conversation(conversation_id)
    except BunsekiError as error:
        notices.show(notices.friendly(error, texts))
        return
    notices.notify("info", texts("kn_cleared"))


def _upload(service: KnowledgeService, names: list[str], texts: Texts) -> None:
    st.subheader(texts("kn_upload"))
    if not st.session_state.get(KEY_TARGET):
        st.session_state[KEY_TARGET] = names[0] if names else texts("kn_default_collection")
    st.text_input(texts("kn_upload_collection"), key=KEY_TARGET, help=texts("kn_upload_collection_help"))
    key = f"knowledge-upload-{st.session_state.get(KEY_UPLOADS, 0)}"
    st.file_uploader(
        texts("kn_upload_files"),
        type=[suffix.lstrip(".") for suffix in document_suffixes()],
        accept_multiple_files=True,
        key=key,
        help=texts("kn_upload_help"),
    )
    st.button(
        texts("kn_upload_button"),
        key="knowledge-ingest",
        on_click=_ingest,
        args=(service, key, texts),
        icon=":material/upload:",
    )


def _ingest(service: KnowledgeService, key: str, texts: Texts) -> None:
    files = st.session_state.get(key) or []
    collection = str(st.session_state.get(KEY_TARGET) or "").strip()
    if not files:
        notices.notify("warning", texts("kn_upload_nothing"))
        return
    try:
        result = service.ingest_uploads(
            collection, [(file.name, file) for file in files], max_bytes=service.settings.max_upload_mb << 20
        )
    except BunsekiError as error:
        notices.notify_error(error, texts)
        return
    notices.notify(
        "success",
        texts("kn_uploaded", collection=collection, files=result.files, chunks=result.chunks, skipped=result.skipped),
    )
    for problem in result.problems:
        notices.notify("warning", texts("kn_upload_problem", source=problem.source), problem.message)
    chosen = list(st.session_state.get(KEY_COLLECTIONS) or [])
    if collection not in chosen:
        st.session_state[KEY_COLLECTIONS] = [*chosen, collection]
    st.session_state[KEY_UPLOADS] = st.session_state.get(KEY_UPLOADS, 0) + 1


# --- the chat -------------------------------------------------------------------------------------


def _ask(service: KnowledgeService, question: str, collections: list[str], model: str, texts: Texts) -> None:
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        progress, streamed = st.container(), st.empty()  # the spinner, then the answer as a model streams it
        try:
            with progress, st.spinner(texts("kn_thinking")):
                conversation_id = st.session_state.get(KEY_CONVERSATION)
                if not conversation_id:
                    conversation_id = service.start_conversation(collections, model).id
                    st.session_state[KEY_CONVERSATION] = conversation_id
                answer = service.ask_in_conversation(
                    conversation_id, question, collections=collections, model=model, on_event=follow_answer(streamed)
                )
        except BunsekiError as error:
            notices.show(notices.friendly(error, texts))
            return
        finally:
            streamed.empty()  # the answer kept, drawn below, is the authority; not the stream
        _answer(answer, texts)


def follow_answer(slot: DeltaGenerator) -> Callable[[Event], None]:
    """A listener of a question's events that shows in ``slot`` the answer streamed so far."""
    events: list[Event] = []

    def on_event(event: Event) -> None:  # called in the script's thread: the service's graph loop runs in it
        events.append(event)
        show_streamed(slot, events, [event])

    return on_event


def _turn(answer: Answer, texts: Texts) -> None:
    with st.chat_message("user"):
        st.markdown(answer.question)
    with st.chat_message("assistant"):
        _answer(answer, texts)


def _answer(answer: Answer, texts: Texts) -> None:
    """The thought process (in an expander), the answer, and the passages it cites under it."""
    _thoughts(answer, texts)
    if answer.status == "error":
        st.error(texts("kn_error"))
        st.caption(answer.answer)
        render.usage_line(answer.usage, texts)  # a failed answer's calls cost too
        return
    st.markdown(answer.answer)
    if answer.status == "unanswered":
        st.warning(texts("kn_unanswered"), icon=":material/help:")
    if answer.citations:
        st.markdown(f"**{texts('kn_citations')}**")
        for position, citation in enumerate(answer.citations, start=1):
            where = f"{citation.title} › {citation.heading}" if citation.heading else citation.title
            number = citation.number or position  # the [n] the answer cites it by
            st.markdown(f"**[{number}]** {where}  \n`{citation.chunk_id}`")
            excerpt = citation.text if len(citation.text) <= EXCERPT_CHARS else citation.text[:EXCERPT_CHARS] + "…"
            st.caption(excerpt)
    st.caption(texts("kn_meta", model=answer.model, seconds=answer.elapsed_ms / 1000))
    render.usage_line(answer.usage, texts)


def _thoughts(answer: Answer, texts: Texts) -> None:
    with st.expander(texts("kn_thought"), icon=":material/psychology:"):
        if not answer.thoughts:
            st.caption(texts("kn_no_thoughts"))
        for thought in answer.thoughts:
            label = texts.get(f"kn_kind_{thought.kind}", thought.kind)
            st.markdown(f"**{texts('kn_step', n=thought.step)} · {label}**")
            if thought.tool:
                arguments = json.dumps(thought.arguments or {}, ensure_ascii=False)
                st.code(f"{thought.tool}({arguments})", language="text")
            if thought.content:
                st.text(thought.content)
        if answer.reflection.changed and answer.reflection.draft:
            st.caption(texts("kn_reflection_changed"))
