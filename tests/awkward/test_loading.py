"""Awkward files through every interface: the service, ``bunseki analyze --format json`` and the REST API.

Each case of the corpus (decimal commas, currency and units, mixed dates, repeated names, nested
Parquet, workbooks) must end with the right number, the conversion stated in the overview and in
the report's assumptions, and no traceback or 5xx anywhere.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import streamlit as st
from fastapi.testclient import TestClient
from streamlit.testing.v1 import AppTest

from bunseki.api import create_app
from bunseki.brain.language import detect_language
from bunseki.data import load_table, validate_data
from bunseki.errors import DataLoadError
from bunseki.service import AnalysisService
from bunseki.ui import APP
from tests import commandline
from tests.awkward.corpus import CASES, ROWS, Case

PREFIX = "/api/v1/analysis/sessions"
WORKBOOK = next(case for case in CASES if case.sheet is not None)
NESTED = next(case for case in CASES if case.file_name.endswith(".parquet"))


NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def states(answer: str, expected: str) -> bool:
    """Whether the answer states the expected number, however it is written: 6.5 for 6.50, 1,234 for
    1234, or more precisely than expected (6,734.5 for 6,734 rounded)."""
    want = float(expected.replace(",", ""))
    decimals = len(expected.split(".", 1)[1]) if "." in expected else 0
    within = 0.5 * 10**-decimals + 1e-9
    return any(abs(float(found.replace(",", "")) - want) <= within for found in NUMBER.findall(answer))


@pytest.fixture
def api(service: AnalysisService) -> Iterator[TestClient]:
    with TestClient(create_app(service=service)) as client:
        _, key = service.accounts.create("alice")
        client.headers["Authorization"] = f"Bearer {key}"
        client.headers["Accept-Language"] = "en"
        yield client


def written(case: Case, folder: Path) -> Path:
    path = folder / case.file_name
    case.write(path)
    return path


def check_overview(case: Case, overview: dict[str, Any]) -> None:
    """The columns have the types the case says, and each expected phrase is in some note."""
    for column in case.numeric:
        assert column in overview["numeric_columns"], (column, overview["dtypes"])
    for column in case.dates:
        assert column in overview["datetime_columns"], (column, overview["dtypes"])
    notes = " ".join(overview["notes"])
    for phrase in case.notes:
        assert phrase in notes, (phrase, overview["notes"])


def bunseki(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The CLI in a new process, importing the same bunseki as these tests (whatever the working directory)."""
    return commandline.bunseki(*args)


# The service ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_service_reads_the_file_and_answers(case: Case, service: AnalysisService, tmp_path: Path) -> None:
    session = service.create_session(written(case, tmp_path), sheet=case.sheet)
    check_overview(case, service.data_state(session.id, language="en"))  # the notes' phrases are English
    result = service.run_turn(session.id, case.question)
    assert result.status == "finalized", (result.question, result.error)
    assert states(result.answer or "", case.answer), result.answer
    assert result.report is not None
    assert set(result.data_notes) <= set(result.report.assumptions)  # the report states them too
    assert result.data_notes, "each of these files needs a conversion worth stating"


def test_notes_are_in_japanese_for_a_japanese_reader(service: AnalysisService, tmp_path: Path) -> None:
    case = next(case for case in CASES if case.id == "yen-amounts")
    session = service.create_session(written(case, tmp_path))
    [note] = service.data_state(session.id, language="ja")["notes"]
    assert "数値として読み込みました" in note and "¥1,234" in note


def test_nested_columns_stay_lists_for_code_and_text_in_previews(service: AnalysisService, tmp_path: Path) -> None:
    session = service.create_session(written(NESTED, tmp_path))
    preview = service.preview(session.id, 3)
    assert preview["tags"].tolist() == ["[0]", "[0, 1]", "[0, 1, 2]"]
    assert preview["address.city"].tolist() == ["c0", "c1", "c0"]
    assert preview["address.zip"].tolist() == ["000", "001", "002"]  # codes keep their zeros
    result = service.run_turn(session.id, "What is the average id?")
    assert result.status == "finalized"
    service.snapshot(session.id, "before")  # Parquet on disk: lists come back as arrays …
    [snapshot] = service.snapshots(session.id)
    service.restore(session.id, snapshot.id)
    assert service.preview(session.id, 1)["tags"].tolist() == ["[0]"]  # … and are tuples again
    result = service.run_turn(session.id, "What is the average id?")
    assert result.status == "finalized" and states(result.answer or "", NESTED.answer), result.answer


def test_code_in_the_sandbox_gets_the_lists(tmp_path: Path) -> None:
    table = load_table(written(NESTED, tmp_path))
    tags = table.frame["tags"]
    assert tags.iloc[2] == (0, 1, 2) and tags.map(len).sum() == sum(row % 3 + 1 for row in range(ROWS))
    assert tags.nunique() == 3  # hashable, so counting and grouping work


def test_a_workbook_without_a_choice_reads_the_first_sheet_and_names_the_others(
    service: AnalysisService, tmp_path: Path
) -> None:
    session = service.create_session(written(WORKBOOK, tmp_path))
    overview = service.data_state(session.id, language="en")
    assert (overview["sheet"], overview["sheets"]) == ("Sales", ["Sales", "Costs"])
    [note] = overview["notes"]
    assert "first sheet, 'Sales'" in note and "'Costs'" in note and "--sheet" in note


def test_the_chosen_sheet_is_kept_when_the_session_is_reopened(
    open_service: Any, service: AnalysisService, tmp_path: Path
) -> None:
    session = service.create_session(written(WORKBOOK, tmp_path), sheet="Costs")
    service.close()
    with open_service() as reopened:
        overview = reopened.data_state(session.id, language="en")
        assert overview["sheet"] == "Costs" and "profit" in overview["columns"]


def test_an_unknown_sheet_is_refused_with_the_sheets_it_has(service: AnalysisService, tmp_path: Path) -> None:
    with pytest.raises(DataLoadError, match="has no sheet 'Profit'; its sheets are 'Sales', 'Costs'"):
        service.create_session(written(WORKBOOK, tmp_path), sheet="Profit")


def test_ambiguous_day_and_month_are_read_one_way_and_the_note_says_which(tmp_path: Path) -> None:
    path = tmp_path / "ambiguous.csv"
    path.write_text("when,n\n05/01/2024,1\n06/02/2024,2\n07/03/2024,3\n", encoding="utf-8")
    table = load_table(path)
    assert table.frame["when"].tolist() == [
        pd.Timestamp(2024, 5, 1),
        pd.Timestamp(2024, 6, 2),
        pd.Timestamp(2024, 7, 3),
    ]
    [note] = table.notes
    assert "ambiguous" in note.en and "month/day/year" in note.en and "月/日/年" in note.ja


# The CLI ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bunseki_analyze_answers_in_json(case: Case, workspace_root: Path, tmp_path: Path) -> None:
    done = bunseki(
        "analyze", written(case, tmp_path), case.question, "--format", "json", "--workspace-root", workspace_root
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "finalized", result
    assert states(result["answer"], case.answer), result["answer"]
    assert result["data_notes"] and set(result["data_notes"]) <= set(result["assumptions"])
    if case.sheet is not None:  # no --sheet: the question named a column of this sheet
        assert f"sheet '{case.sheet}'" in result["data_notes"][0] and "question" in result["data_notes"][0]


def test_bunseki_analyze_reads_the_sheet_it_is_told(workspace_root: Path, tmp_path: Path) -> None:
    path = written(WORKBOOK, tmp_path)
    done = bunseki("analyze", path, "What is the total sales?", "--sheet", "Sales", "--format", "json",
                   "--workspace-root", workspace_root)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert f"{sum(10 * (row + 1) for row in range(ROWS)):,}" in result["answer"]
    assert "as asked" in result["data_notes"][0]
    refused = bunseki(
        "analyze", path, "What is the total sales?", "--sheet", "Nope", "--workspace-root", workspace_root
    )
    assert refused.returncode == 3 and "Traceback" not in refused.stderr
    assert "no sheet 'Nope'" in refused.stderr and "'Costs'" in refused.stderr


# The REST API -----------------------------------------------------------------------------------


def upload(api: TestClient, path: Path, **form: str) -> dict[str, Any]:
    with path.open("rb") as handle:
        response = api.post(PREFIX, files={"file": (path.name, handle)}, data=form)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_api_reads_the_upload_and_answers(case: Case, api: TestClient, tmp_path: Path) -> None:
    form = {"sheet": case.sheet} if case.sheet else {}
    session = upload(api, written(case, tmp_path), **form)
    check_overview(case, session["dataset"])
    language = detect_language(case.question)  # the report is written in the question's language
    read = api.get(f"{PREFIX}/{session['id']}", headers={"Accept-Language": language}).json()
    response = api.post(f"{PREFIX}/{session['id']}/chat", json={"message": case.question})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "finalized" and states(body["message"], case.answer), body["message"]
    assert set(read["dataset"]["notes"]) <= set(body["report"]["assumptions"])


def test_the_api_names_the_sheets_and_refuses_an_unknown_one(api: TestClient, tmp_path: Path) -> None:
    path = written(WORKBOOK, tmp_path)
    dataset = upload(api, path)["dataset"]
    assert (dataset["sheet"], dataset["sheets"]) == ("Sales", ["Sales", "Costs"])
    with path.open("rb") as handle:
        response = api.post(PREFIX, files={"file": (path.name, handle)}, data={"sheet": "Nope"})
    assert response.status_code == 422 and response.headers["content-type"].startswith("application/problem+json")
    assert "'Sales', 'Costs'" in response.json()["detail"]


# The web UI -------------------------------------------------------------------------------------


@pytest.fixture
def ui_settings(workspace_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app's settings come from the environment, as under `bunseki ui`; its service is closed after."""
    monkeypatch.setenv("BUNSEKI_WORKSPACE_ROOT", str(workspace_root))
    yield
    st.cache_resource.clear()  # releases the cached AnalysisService, which stops its sandboxes


def test_the_ui_asks_which_sheet_of_a_workbook_to_analyse(ui_settings: None, tmp_path: Path) -> None:
    app = AppTest.from_file(str(APP), default_timeout=180)
    app.context["locale"] = "en-US"
    app.run()
    app.file_uploader[0].upload(
        WORKBOOK.file_name, written(WORKBOOK, tmp_path).read_bytes(), "application/octet-stream"
    )
    app.run()
    assert not app.exception
    box = app.selectbox(key="sheet-choice")
    assert box.options == ["Sales", "Costs"] and box.value == "Sales"
    box.select("Costs").run()
    next(button for button in app.button if button.label == "Start with this sheet").click().run()
    assert not app.exception
    shown = " ".join(str(element.value) for element in app.markdown)
    assert "How the file was read" in shown and "Read sheet 'Costs' of book.xlsx, as asked" in shown
    assert "`profit`" in shown  # the numeric columns of the chosen sheet


def test_the_eda_validation_reads_the_sheet_its_goal_names_and_reports_each_conversion(tmp_path: Path) -> None:
    checked = validate_data(written(WORKBOOK, tmp_path), tmp_path / "out.parquet", question="profit by region")
    assert "profit" in checked.frame.columns
    [choice] = [problem for problem in checked.problems if problem.kind == "sheet_choice"]
    assert "'Costs'" in choice.message_en and "シート「Costs」" in choice.message_ja
    units = next(case for case in CASES if case.id == "japanese-units")
    checked = validate_data(written(units, tmp_path), tmp_path / "units.parquet")
    converted = {problem.column for problem in checked.problems if problem.kind == "numbers_as_text"}
    assert converted == {"来店数", "金額", "達成率"}
    assert checked.frame["金額"].sum() == sum(count * 1500 for count in range(3, 3 + ROWS))
