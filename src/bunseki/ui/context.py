"""What the pages share: the services (one of each per server process), the language, and the browser
session's state (the open session, the turn being answered, thought processes seen here).

Streamlit keeps a browser's state in the server process its websocket reached. Behind a load balancer
the browser may reconnect to another replica with empty state, so the open session is also kept in
the page's address (``?session=``), which the browser sends again on reconnecting."""

from __future__ import annotations

from typing import Any, cast

import streamlit as st

from bunseki.domain import LANGUAGES, Language, Session
from bunseki.errors import NotFound
from bunseki.service import AnalysisService, TurnResult
from bunseki.service.eda import EdaService
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.service.knowledge import KnowledgeService
from bunseki.settings import Settings
from bunseki.ui.texts import Texts, browser_language

KEY_LANGUAGE = "language"
KEY_SESSION = "session_id"
QUERY_SESSION = "session"  # the open session in the page's address
KEY_PENDING = "pending_turn"
KEY_THOUGHTS = "thoughts"
KEY_UPLOADS = "uploads"  # bumped to give the file uploader a fresh, empty widget
KEY_NEW_MODEL = "new_session_model"


def _close(service: Any) -> None:
    """Close a service the cache lets go of (each cached opener below keeps one service)."""
    service.close()


def _where(settings: Settings) -> str:
    """The workspace root and database the settings name: one service of each kind per pair."""
    return f"{settings.workspace_root.resolve()}|{settings.database}"


@st.cache_resource(show_spinner=False, on_release=_close)
def _open_service(where: str, _settings: Settings) -> AnalysisService:
    """One service per workspace and database for the whole server: sessions and sandboxes are shared."""
    return AnalysisService(_settings, warm=True)


def get_service() -> AnalysisService:
    """The service for the settings in force (raises StorageError when the database cannot be used)."""
    settings = Settings()
    return _open_service(_where(settings), settings)


@st.cache_resource(show_spinner=False, on_release=_close)
def _open_eda_service(where: str, _settings: Settings) -> EdaService:
    """One EDA service per workspace and database, on the analysis service's store."""
    analysis = _open_service(where, _settings)
    return EdaService(_settings, store=analysis.store, backend=analysis.backend)


def get_eda_service() -> EdaService:
    """The EDA service for the settings in force (raises StorageError when the database cannot be used)."""
    settings = Settings()
    return _open_eda_service(_where(settings), settings)


@st.cache_resource(show_spinner=False, on_release=_close)
def _open_investigations(where: str, _settings: Settings) -> InvestigationRuns:
    """One investigation worker per workspace root for the whole server: uploads queue for it."""
    return InvestigationRuns(_settings)


def get_investigations() -> InvestigationRuns:
    """The investigations of the workspace root in force."""
    settings = Settings()
    return _open_investigations(str(settings.workspace_root.resolve()), settings)


@st.cache_resource(show_spinner=False, on_release=_close)
def _open_knowledge_service(where: str, _settings: Settings) -> KnowledgeService:
    """One knowledge service per server: embedded Qdrant allows one open instance per folder."""
    return KnowledgeService(_settings)


def get_knowledge_service() -> KnowledgeService:
    """The knowledge service for the settings in force: its workspace root, Qdrant server and database."""
    settings = Settings()
    return _open_knowledge_service(f"{_where(settings)}|{settings.qdrant_url or ''}", settings)


def language() -> Language:
    """The interface language: the person's choice, else what the browser asks for."""
    chosen = st.session_state.get(KEY_LANGUAGE)
    if chosen not in LANGUAGES:
        chosen = browser_language(st.context.locale, st.context.headers.get("Accept-Language"))
        st.session_state[KEY_LANGUAGE] = chosen
    return cast(Language, chosen)


def texts() -> Texts:
    return Texts(language())


def open_session(service: AnalysisService) -> Session | None:
    """The session this browser has open, if it still exists: from this replica's state for the
    browser, else from the address (a browser that reconnected here from another replica)."""
    if KEY_SESSION in st.session_state:
        session_id = st.session_state[KEY_SESSION]
    else:
        session_id = st.query_params.get(QUERY_SESSION)
    if not session_id:
        return None
    try:
        session = service.get_session(str(session_id))
    except NotFound:
        set_open_session(None)
        return None
    set_open_session(session.id)
    return session


def set_open_session(session_id: str | None) -> None:
    st.session_state[KEY_SESSION] = session_id
    if session_id:
        st.query_params[QUERY_SESSION] = session_id
    else:
        st.query_params.pop(QUERY_SESSION, None)


def thoughts() -> dict[str, TurnResult]:
    """The results (with their thought process) of turns answered in this browser session, by `thought_key`."""
    return cast(dict[str, TurnResult], st.session_state.setdefault(KEY_THOUGHTS, {}))


def thought_key(session_id: str, turn_number: int) -> str:
    return f"{session_id}:{turn_number}"
