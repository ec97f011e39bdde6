"""Awkward questions end with a right answer or a clear outcome, through the service and the CLI.

Kinds: a question so long and repetitive that the parser used to backtrack for
minutes; a measure the table does not have, or a column that is entirely empty (the analyst
used to answer about another column without saying so); a word mapped to a column on purpose
(the answer names the column); a question in Chinese or another language the offline analyst
does not write (English, with one line saying which languages it understands).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import bunseki
from bunseki.brain.analyst.offline import MAX_QUESTION_CHARS
from bunseki.brain.analyst.offline.text import format_number
from bunseki.brain.language import UNDERSTOOD
from bunseki.errors import QuestionTooLong
from bunseki.service.runtime import TurnResult
from bunseki.service.sessions import AnalysisService
from bunseki.settings import Settings
from tests import commandline

TABLE = pd.DataFrame(
    {
        "region": ["East", "West", "East", "North", "West", "North"],
        "sales": [10.0, 20.5, 30.0, 40.0, 50.0, 60.0],
        "units": [1, 2, 3, 4, 5, 6],
        "notes": [None] * 6,  # entirely empty
    }
)
LONG = "sales " * 20_000  # a reported case: it kept a core at 100 % for minutes
# The CLI runs the code under test, wherever the tests run from (they run in a temporary directory).
SOURCE = str(Path(bunseki.__file__).resolve().parents[1])
TURN_BOUND = 60.0  # seconds for a whole turn that asks back; it takes about one on an idle machine


@pytest.fixture(scope="module")
def data_file() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="bunseki-awkward-"))
    root.chmod(0o711)
    path = root / "shop.csv"
    TABLE.to_csv(path, index=False)
    yield path
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def service(data_file: Path) -> Iterator[AnalysisService]:
    service = AnalysisService(Settings(workspace_root=data_file.parent / "workspace", model="offline"))
    yield service
    service.close()


def ask(service: AnalysisService, data_file: Path, question: str) -> TurnResult:
    session = service.create_session(data_file)  # a fresh conversation for each question
    result = service.run_turn(session.id, question)
    assert result.status in ("finalized", "asked"), result.error
    return result


def bunseki_json(data_file: Path, question: str, timeout: float) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bunseki",
            "analyze",
            str(data_file),
            question,
            "--format",
            "json",
            "--workspace-root",
            str(data_file.parent / "cli"),
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([SOURCE, os.environ.get("PYTHONPATH", "")])},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


# --- through the service -----------------------------------------------------------------


def test_a_long_repetitive_question_is_refused_at_once(service: AnalysisService, data_file: Path) -> None:
    session = service.create_session(data_file)
    started = time.perf_counter()
    with pytest.raises(QuestionTooLong, match=f"{MAX_QUESTION_CHARS:,}"):
        service.run_turn(session.id, LONG)  # refused before any work: nothing is parsed or run
    assert time.perf_counter() - started < TURN_BOUND
    assert service.run_turn(session.id, "What is the total sales?").status == "finalized"  # still usable


def test_a_measure_the_table_lacks_is_asked_about_not_replaced(service: AnalysisService, data_file: Path) -> None:
    result = ask(service, data_file, "What is the average profit by region?")
    assert result.status == "asked" and result.answer is None
    assert "'profit'" in (result.question or "")
    assert "sales" in (result.question or "") and "units" in (result.question or "")
    japanese = ask(service, data_file, "地域別の利益の平均は？")
    assert japanese.status == "asked" and "「利益」" in (japanese.question or "")


def test_an_empty_column_is_named_not_replaced(service: AnalysisService, data_file: Path) -> None:
    result = ask(service, data_file, "What is the total of notes?")
    assert result.status == "asked"
    assert "'notes' is entirely empty" in (result.question or "")
    assert "sales" in (result.question or "")


def test_a_synonym_is_answered_and_the_answer_names_the_column(service: AnalysisService, data_file: Path) -> None:
    result = ask(service, data_file, "What is the total revenue?")
    assert result.status == "finalized"
    assert "sales" in (result.answer or "")
    assert format_number(TABLE["sales"].sum()) in (result.answer or "")


def test_a_chinese_question_gets_english_with_the_languages_understood(
    service: AnalysisService, data_file: Path
) -> None:
    follow_up = ask(service, data_file, "每个地区的平均销售额是多少？")
    assert follow_up.status == "asked"
    assert (follow_up.question or "").startswith(UNDERSTOOD)
    assert not any("\u3040" <= char <= "\u30ff" for char in follow_up.question or "")  # no Japanese

    answered = ask(service, data_file, "sales的平均是多少？")
    assert answered.status == "finalized"
    assert (answered.answer or "").startswith(UNDERSTOOD)
    assert format_number(TABLE["sales"].mean()) in (answered.answer or "")


def test_another_language_gets_english_with_the_languages_understood(service: AnalysisService, data_file: Path) -> None:
    result = ask(service, data_file, "Quelle est la moyenne des sales ?")
    assert UNDERSTOOD in (result.answer or result.question or "")


# --- through the CLI ---------------------------------------------------------------------


def test_the_cli_refuses_a_long_question_with_one_json_error(data_file: Path) -> None:
    done = commandline.bunseki("analyze", data_file, LONG, "--format", "json")
    assert done.returncode == 3, done.stderr  # input, as the exit-code table says
    error = json.loads(done.stdout)["error"]
    assert error["type"] == "QuestionTooLong" and f"{MAX_QUESTION_CHARS:,}" in error["message"]


@pytest.mark.parametrize(
    ("question", "status", "expected"),
    [
        ("What is the average profit by region?", "asked", "'profit'"),
        ("每个地区的平均销售额是多少？", "asked", UNDERSTOOD),
    ],
    ids=["missing-measure", "chinese"],
)
def test_the_cli_prints_one_json_outcome(data_file: Path, question: str, status: str, expected: str) -> None:
    result = bunseki_json(data_file, question, timeout=300)  # a process and a sandbox start: slow when busy
    assert result["status"] == status
    assert expected in str(result["question"])
    assert result["answer"] is None
