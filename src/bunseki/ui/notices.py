"""Messages for the person: errors in plain words of their language, and notices that outlive a rerun.

Actions run in widget callbacks, before the page is drawn; what they have to say is kept here
and shown once at the top of the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

import streamlit as st

from bunseki.errors import (
    BunsekiError,
    ConfigurationError,
    DataLoadError,
    InputError,
    ModelError,
    NotFound,
    QuestionTooLong,
    SandboxError,
    SessionBusy,
    SnapshotNameTaken,
    StorageError,
)
from bunseki.ui.texts import Texts

Kind = Literal["success", "info", "warning", "error"]
KEY_NOTICES = "notices"
T = TypeVar("T")

# Most specific first: DataLoadError is an InputError, SessionBusy a Conflict.
_HEADLINES: tuple[tuple[type[BaseException], str], ...] = (
    (DataLoadError, "error_bad_file"),
    (ConfigurationError, "error_model"),
    (SessionBusy, "error_busy"),
    (SnapshotNameTaken, "error_snapshot_name"),
    (QuestionTooLong, "error_question_too_long"),
    (NotFound, "error_not_found"),
    (StorageError, "error_storage"),
    (SandboxError, "error_sandbox"),
    (ModelError, "error_model_failed"),
    (InputError, "error_input"),
)


@dataclass(frozen=True)
class Notice:
    kind: Kind
    text: str
    detail: str | None = None


def friendly(error: BaseException, texts: Texts) -> Notice:
    """An error as the person should read it: what happened in their language, and the details."""
    headline = next((key for kind, key in _HEADLINES if isinstance(error, kind)), "error_unexpected")
    detail = str(error).strip() or type(error).__name__
    return Notice("error", texts(headline), texts("error_detail", detail=detail))


def notify(kind: Kind, text: str, detail: str | None = None) -> None:
    """Say something at the top of the page on its next drawing."""
    _pending().append(Notice(kind, text, detail))


def notify_error(error: BaseException, texts: Texts) -> None:
    _pending().append(friendly(error, texts))


def show(notice: Notice) -> None:
    box = {"success": st.success, "info": st.info, "warning": st.warning, "error": st.error}[notice.kind]
    box(notice.text if notice.detail is None else f"{notice.text}\n\n{notice.detail}")


def attempt(work: Callable[[], T], texts: Texts) -> T | None:
    """``work()``; or, when it is refused (a `BunsekiError`), None with the refusal shown here at once."""
    try:
        return work()
    except BunsekiError as error:
        show(friendly(error, texts))
        return None


def act(action: Callable[[], object], texts: Texts, *, success: str) -> bool:
    """Do a widget callback's ``action`` and say at the top of the page how it went: ``success``, or
    the refusal (a `BunsekiError`). Whether it was done."""
    try:
        action()
    except BunsekiError as error:
        notify_error(error, texts)
        return False
    notify("success", success)
    return True


def show_pending() -> None:
    """Show, once, what the last actions had to say."""
    notices = _pending()
    while notices:
        show(notices.pop(0))


def _pending() -> list[Notice]:
    return cast(list[Notice], st.session_state.setdefault(KEY_NOTICES, []))
