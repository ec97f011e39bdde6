"""How reports, thought processes and data overviews look in the browser.

`report` draws a report in order: text sections as Markdown, images with their
captions, tables as interactive data frames, then the suggestions. Images are read with
`read_in_workspace`, which never follows a link out of the session's workspace.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd
import streamlit as st

from bunseki.domain import LABELS, ReportOutput, Session, Step, TurnUsage
from bunseki.service import Exchange, OpenFile, ReportFormat, TurnResult
from bunseki.service.files import read_in_workspace
from bunseki.ui.texts import Texts

MAX_IMAGE_BYTES = 20 * 1024 * 1024
DOWNLOADS: tuple[tuple[ReportFormat, str, str], ...] = (
    ("md", "download_md", "text/markdown"),
    ("html", "download_html", "text/html"),
    ("ipynb", "download_ipynb", "application/x-ipynb+json"),
)


def report(content: ReportOutput, workspace: Path) -> None:
    """The report, in its own language (the one its files are written in)."""
    labels = LABELS[content.language]
    st.subheader(content.title)
    st.markdown(content.conclusion)
    for section in content.sections:
        if section.section_type == "text":
            st.markdown(section.content)
        elif section.section_type == "image":
            data = read_in_workspace(workspace, section.content, max_bytes=MAX_IMAGE_BYTES)
            if data is None:
                st.warning(labels.image_unavailable.format(path=section.content))
            else:
                st.image(data, caption=section.description)
        else:
            frame = _table(section.content)
            if section.description:
                st.caption(section.description)
            if frame is None:
                st.caption(labels.unreadable_table)
                st.code(section.content, language="json")
            else:
                st.dataframe(frame, hide_index=True)
    if content.assumptions:
        st.markdown(f"**{labels.assumptions}**\n\n" + "\n".join(f"- {item}" for item in content.assumptions))
    if content.suggestions:
        st.markdown(f"**{labels.suggestions}**\n\n" + "\n".join(f"- {item}" for item in content.suggestions))


def report_downloads(
    files: dict[ReportFormat, str], open_report: Callable[[ReportFormat], OpenFile], key: str, texts: Texts
) -> None:
    """Download buttons for the report's Markdown, HTML and notebook; each file is opened when clicked."""
    available = [(fmt, label, mime) for fmt, label, mime in DOWNLOADS if fmt in files]
    if not available:
        return
    st.caption(texts("downloads"))
    for column, (fmt, label, mime) in zip(st.columns(len(available)), available, strict=True):
        column.download_button(
            texts(label),
            data=contents(partial(open_report, fmt)),
            file_name=PurePosixPath(files[fmt]).name,
            mime=mime,
            key=f"download-{key}-{fmt}",
            on_click="ignore",
            icon=":material/download:",
        )


def contents(opening: Callable[[], OpenFile]) -> Callable[[], bytes]:
    """What a download button reads when clicked: the file the service opens then, read whole."""

    def read() -> bytes:
        with opening() as file:
            return file.read()

    return read


def thought_of_result(result: TurnResult, texts: Texts) -> None:
    """The thought process of a turn answered here: each decision with its rationale, then what ran."""
    with st.expander(texts("thought")):
        executions = result.executions
        for number, step in enumerate(result.steps, start=1):
            st.markdown(f"**{texts('thought_step', n=number)} · {texts('action_' + step.next_action)}**")
            st.caption(f"{texts('rationale')}: {step.rationale}")
            if step.instruction:
                st.markdown(f"{texts('instruction')}: {step.instruction}")
            if step.assumption:
                st.markdown(f"{texts('assumption')}: {step.assumption}")
            if number <= len(executions):
                record = executions[number - 1]
                retry = number > 1 and not executions[number - 2].success
                name = texts("tool", tool=record.tool) if record.tool else texts("code")
                _ran(name, record.code, record.visible_stdout, record.error, record.artifacts, retry, texts)


def thought_of_steps(steps: Sequence[Step], texts: Texts) -> None:
    """The thought process of a turn from an earlier visit, from what the store kept: its steps."""
    with st.expander(texts("thought")):
        st.caption(texts("thought_from_store"))
        if not steps:
            st.caption(texts("thought_empty"))
        failed = False
        for number, step in enumerate(steps, start=1):
            result: dict[str, Any] = step.result if isinstance(step.result, dict) else {}
            st.markdown(f"**{texts('thought_step', n=number)}**")
            if step.step_type == "code":
                instruction = step.parameters.get("instruction")
                if instruction:
                    st.markdown(f"{texts('instruction')}: {instruction}")
                code = str(step.parameters.get("code", ""))
                error = result.get("error")
                _ran(
                    texts("code"),
                    code,
                    str(result.get("stdout") or ""),
                    error,
                    result.get("artifacts") or [],
                    failed,
                    texts,
                )
                failed = not result.get("success", True)
            else:
                arguments = json.dumps(step.parameters, ensure_ascii=False)
                _ran(texts("tool", tool=step.step_type), arguments, "", None, [], False, texts)
                if step.rows_before is not None and step.rows_after is not None:
                    st.caption(texts("rows_change", before=step.rows_before, after=step.rows_after))
                failed = False


def exchange_thought(exchange: Exchange, known: TurnResult | None, texts: Texts) -> None:
    if known is not None:
        thought_of_result(known, texts)
    elif exchange.steps:
        thought_of_steps(exchange.steps, texts)


def list_label(*parts: str, when: datetime, item_id: str) -> str:
    """How a run or a session reads in a sidebar list: what it is, when, and the start of its id."""
    return " · ".join([*parts, f"{when.astimezone():%m/%d %H:%M}", item_id[:8]])


def usage_caption(usage: TurnUsage | None, texts: Texts) -> str | None:
    """What an answer's model calls cost, in one line ("123 + 45 tokens · 2 calls · 3.1 s · $0.0004");
    "offline" when the built-in rules answered; None when it is not known (older turns)."""
    if usage is None:
        return None
    if usage.offline:
        return texts("usage_offline")
    line = texts(
        "usage_line",
        prompt=f"{usage.prompt_tokens:,}",
        completion=f"{usage.completion_tokens:,}",
        calls=usage.calls,
        seconds=f"{usage.seconds:.1f}",
    )
    return f"{line} · {usage.cost_text}" if usage.cost_text else line


def usage_line(usage: TurnUsage | None, texts: Texts) -> None:
    """The usage caption under an answer, an EDA run or an investigation, when its usage is known."""
    caption = usage_caption(usage, texts)
    if caption:
        st.caption(caption)


def data_overview(record: Session, overview: dict[str, Any], preview: pd.DataFrame, texts: Texts) -> None:
    """Where the data came from, its size, a preview of the active data and its columns by kind."""
    encoding = record.dataset_encoding or "—"
    st.caption(
        texts(
            "data_file",
            name=record.dataset_name,
            format=record.dataset_format,
            encoding=encoding,
            rows=record.dataset_rows,
        )
    )
    rows, columns, memory = st.columns(3)
    rows.metric(texts("rows"), f"{overview['rows']:,}")
    columns.metric(texts("columns"), f"{overview['column_count']:,}")
    memory.metric(texts("memory"), f"{overview['memory_bytes'] / 1e6:.1f} MB")
    notes = overview.get("notes") or []
    if notes:  # how the file was read: the assumptions every answer rests on
        st.markdown(f"**{texts('data_notes')}**\n\n" + "\n".join(f"- {note}" for note in notes))
    st.dataframe(preview, hide_index=True)
    st.caption(texts("preview_caption", rows=len(preview)))
    for key in ("numeric_columns", "categorical_columns", "datetime_columns"):
        names = overview.get(key) or []
        st.markdown(f"**{texts(key)}**: " + (", ".join(f"`{name}`" for name in names) or texts("none")))
    kinds = pd.DataFrame({texts("column"): list(overview["dtypes"]), texts("dtype"): list(overview["dtypes"].values())})
    st.dataframe(kinds, hide_index=True)


def _ran(name: str, code: str, output: str, error: str | None, files: Sequence[str], retry: bool, texts: Texts) -> None:
    st.markdown(f"*{name}*" + (f" — {texts('retry')}" if retry else ""))
    if code:
        st.code(code, language="python")
    if output.strip():
        st.caption(texts("output"))
        st.code(output.strip(), language="text")
    if error:
        st.caption(texts("error"))
        st.code(error, language="text")
    if files:
        st.caption(texts("files", files=", ".join(files)))


def _table(content: str) -> pd.DataFrame | None:
    try:
        return pd.DataFrame(json.loads(content))
    except (ValueError, TypeError):
        return None
