"""What the pages of long runs share (the EDA page, the investigator page): the run this browser has
open and the sidebar list that opens another, the progress drawn step by step while one works, its
charts and its report downloads.

Each page keeps its own words and keys, which `RunPage` holds, and its own way of naming a step
of its progress.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import streamlit as st

from bunseki.domain import Event, Listener
from bunseki.errors import BunsekiError
from bunseki.service import OpenFile
from bunseki.ui import notices
from bunseki.ui.texts import Texts

Run = TypeVar("Run")
Kind = TypeVar("Kind", bound=str)
Work = Callable[[Listener], Run]  # a run's work: called with the listener of its progress events


@dataclass(frozen=True)
class RunPage:
    """A page of runs: its title, the runs in its sidebar, and the one this browser has open.

    ``run_key`` holds the open run's id in the browser session and ``pick_key`` the run chosen in the
    list; the buttons' keys are ``{widgets}-new`` and ``{widgets}-open``. The other fields are text
    keys: the page's title and caption, then the sidebar's heading, new-run button, list label,
    open button, and what it says when there is no run.
    """

    run_key: str
    pick_key: str
    widgets: str
    title: str
    caption: str
    heading: str
    new: str
    pick: str
    open: str
    empty: str

    def opened(self, get: Callable[[str], Run]) -> Run | None:
        """The run this browser has open, read with ``get``; forgotten when it cannot be read (deleted)."""
        run_id = st.session_state.get(self.run_key)
        if not run_id:
            return None
        try:
            return get(str(run_id))
        except BunsekiError:
            st.session_state[self.run_key] = None
            return None

    def open_run(self, run_id: str | None) -> None:
        """Open ``run_id`` in this browser; None opens none (the page offers to start one)."""
        st.session_state[self.run_key] = run_id

    def top(self, labels: dict[str, str], current: str | None, texts: Texts, *, note: str | None = None) -> None:
        """The sidebar with the runs, then the page's title and caption and what the last actions had to say."""
        self._sidebar(labels, current, texts, note=note)
        st.title(texts(self.title))
        st.caption(texts(self.caption))
        notices.show_pending()

    def _sidebar(self, labels: dict[str, str], current: str | None, texts: Texts, *, note: str | None = None) -> None:
        """The new-run button, ``note`` if any, then the runs (``labels`` by id, in their order) with
        ``current`` chosen (else the first) and the button that opens the chosen one."""
        with st.sidebar:
            st.subheader(texts(self.heading))
            st.button(
                texts(self.new), key=f"{self.widgets}-new", on_click=self.open_run, args=(None,), icon=":material/add:"
            )
            if note is not None:
                st.caption(note)
            if not labels:
                st.caption(texts(self.empty))
                return
            ids = list(labels)
            st.selectbox(
                texts(self.pick),
                ids,
                index=ids.index(current) if current in labels else 0,
                format_func=labels.__getitem__,
                key=self.pick_key,
            )
            st.button(
                texts(self.open), key=f"{self.widgets}-open", on_click=self._open_picked, icon=":material/history:"
            )

    def _open_picked(self) -> None:
        self.open_run(st.session_state.get(self.pick_key))


def with_progress(
    texts: Texts,
    working: str,
    work: Work[Run],
    *,
    step: Callable[[Event, Texts], str | None],
    note: Callable[[Event, Texts], str | None] = lambda _event, _texts: None,
    succeeded: Callable[[Run], bool] = lambda _run: True,
) -> Run | None:
    """Run ``work`` with its progress in an ``st.status`` labelled ``working`` (a text key).

    An event that starts a step (``step`` names it, None for other events) becomes the status's
    label and a line "… step"; another event the line ``note`` gives, if any. At the end the status
    collapses, complete when ``succeeded`` says so, else failed. A refusal becomes a notice and None.
    """
    with st.status(texts(working), expanded=True) as status:

        def on_event(event: Event) -> None:
            label = step(event, texts)
            if label is not None:
                status.update(label=label)
                st.write(f"… {label}")
            elif (line := note(event, texts)) is not None:
                st.write(line)

        try:
            run = work(on_event)
        except BunsekiError as error:
            status.update(label=texts("failed"), state="error")
            notices.show(notices.friendly(error, texts))
            return None
        if succeeded(run):
            status.update(label=texts("done"), state="complete", expanded=False)
        else:
            status.update(label=texts("failed"), state="error", expanded=False)
    return run


def charts(paths: Sequence[str], open_chart: Callable[[str], OpenFile], missing: str, texts: Texts) -> None:
    """Each chart, captioned with its path; the text ``missing`` (with ``path``) for one that cannot be read."""
    for path in paths:
        try:
            with open_chart(path) as image:
                st.image(image.read(), caption=path)
        except BunsekiError:
            st.caption(texts(missing, path=path))


def report_downloads(
    kinds: Sequence[tuple[Kind, str, str]], open_report: Callable[[Kind], OpenFile], key: str, texts: Texts
) -> None:
    """A download button per report format side by side: ``kinds`` gives each format, its media type
    and the button's text key; the buttons' keys are ``{key}-{format}``. A file that cannot be read
    is left out."""
    for column, (kind, media, label) in zip(st.columns(len(kinds)), kinds, strict=True):
        try:
            with open_report(kind) as file:
                data = file.read()
        except BunsekiError:
            continue
        column.download_button(texts(label), data, file_name=file.name, mime=media, key=f"{key}-{kind}")
