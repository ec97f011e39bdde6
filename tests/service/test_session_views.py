"""What a chat window needs from `AnalysisService`: uploads, the conversation by question, a
preview, clearing the history, and choosing the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from pydantic import SecretStr

from bunseki.brain.analyst.contract import AnalystBrain, AnalystView, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.brain.factory import create_analyst_brain
from bunseki.data import LoadedTable, load_table
from bunseki.errors import ConfigurationError, DataLoadError
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service import sessions as sessions_module
from bunseki.settings import Settings
from tests.conftest import ServiceFactory


def test_a_session_from_uploaded_bytes_keeps_only_the_file_name(service: AnalysisService, sales: pd.DataFrame) -> None:
    record = service.create_session_from_upload("../../uploads/売上データ.csv", SALES_CSV.read_bytes())
    assert (record.dataset_name, record.title, record.dataset_encoding) == ("売上データ.csv", "売上データ", "cp932")
    assert record.dataset_rows == len(sales)
    copy = Path(record.workspace) / record.dataset_path
    assert copy.parent == Path(record.workspace) / "data"
    assert copy.read_bytes() == SALES_CSV.read_bytes()


@pytest.mark.parametrize(
    ("name", "content"),
    [("", b"a,b\n1,2\n"), ("..", b"a,b\n1,2\n"), ("empty.csv", b""), ("table.xlsx", b"not a workbook")],
)
def test_an_unusable_upload_creates_nothing(service: AnalysisService, name: str, content: bytes) -> None:
    with pytest.raises(DataLoadError):
        service.create_session_from_upload(name, content)
    assert service.list_sessions() == []


def test_the_conversation_groups_each_question_with_its_report_and_steps(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV)
    service.run_turn(session.id, "地域別の売上合計をグラフにして")
    service.run_turn(session.id, "その中で関東だけにして")
    service.run_turn(session.id, "明日の天気は？")

    charted, narrowed, unanswerable = service.conversation(session.id)
    assert (charted.question, charted.status) == ("地域別の売上合計をグラフにして", "finalized")
    assert charted.replies and charted.report is not None
    report = charted.report_output
    assert report is not None and report.title == charted.report.title
    assert [section.section_type for section in report.sections].count("image") == 1
    assert sorted(charted.report_files) == ["html", "ipynb", "md"]
    assert charted.report_files["md"] == charted.report.markdown_path
    with service.open_report(session.id, "md", report_id=charted.report.id) as markdown:
        assert markdown.name == Path(charted.report_files["md"]).name
        assert charted.report.conclusion in markdown.read().decode("utf-8")
    assert [step.step_type for step in charted.steps] == ["code"]

    assert [step.step_type for step in narrowed.steps] == ["filter_data"]
    assert narrowed.steps[0].parameters == {"column": "地域", "operator": "eq", "value": "関東"}

    assert unanswerable.status == "asked"
    assert unanswerable.report is None and unanswerable.report_files == {} and unanswerable.steps == []
    assert unanswerable.replies and "売上金額" in unanswerable.replies[0]


def test_clearing_the_history_keeps_the_data_and_the_reports(service: AnalysisService) -> None:
    session = service.create_session(SALES_CSV)
    service.run_turn(session.id, "地域は関東だけにして")
    service.snapshot(session.id, "関東")
    before = service.data_state(session.id)

    assert service.clear_history(session.id) == 2
    assert service.messages(session.id) == [] and service.conversation(session.id) == []
    assert service.data_state(session.id) == before
    assert [s.name for s in service.snapshots(session.id)] == ["関東"]
    assert len(service.reports(session.id)) == 1

    result = service.run_turn(session.id, "売上金額の合計は？")
    assert result.status == "finalized"
    assert result.report_path is not None and result.report_path.name == "report_002.md"  # turns go on counting
    assert [exchange.question for exchange in service.conversation(session.id)] == ["売上金額の合計は？"]


def test_the_preview_shows_the_current_data(service: AnalysisService, sales: pd.DataFrame) -> None:
    session = service.create_session(SALES_CSV)
    first = service.preview(session.id, 5)
    assert list(first.columns) == list(sales.columns)
    assert first["売上金額"].tolist() == sales["売上金額"].head(5).tolist()
    service.run_turn(session.id, "地域は関東だけにして")
    preview = service.preview(session.id, 3)
    assert len(preview) == 3 and set(preview["地域"]) == {"関東"}


class Recording(OfflineAnalystBrain):
    """The offline brain, noting that it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def decide(self, view: AnalystView) -> ReasonOutput:
        self.decisions += 1
        return super().decide(view)


def test_the_model_of_a_session_can_be_changed(service_settings: Settings) -> None:
    recording = Recording()

    def brains(spec: str) -> AnalystBrain:
        return recording if spec == "test:recording" else create_analyst_brain(spec, service_settings)

    with AnalysisService(service_settings, brains=brains) as service:
        session = service.create_session(SALES_CSV)
        service.run_turn(session.id, "売上金額の合計は？")
        assert recording.decisions == 0

        with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
            service.set_model(session.id, "openai:gpt-4o-mini")  # no key is configured
        assert service.get_session(session.id).model == "offline"

        assert service.set_model(session.id, "test:recording").model == "test:recording"
        assert service.run_turn(session.id, "売上金額の合計は？").status == "finalized"
        assert recording.decisions > 0


def test_available_models_offer_offline_and_providers_with_keys(workspace_root: Path) -> None:
    plain = Settings(workspace_root=workspace_root)
    keyed = plain.model_copy(update={"openai_api_key": SecretStr("sk-test"), "model": "anthropic:claude-sonnet-4-5"})
    with AnalysisService(plain) as service:
        assert service.available_models() == ["offline"]
    with AnalysisService(keyed) as service:
        assert service.available_models() == ["offline", "anthropic:claude-sonnet-4-5", "openai:gpt-4o-mini"]


def test_a_shown_data_state_is_rebuilt_only_when_the_steps_change(
    open_service: ServiceFactory, sales: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[Path] = []

    def counting_load(path: Path, **options: Any) -> LoadedTable:
        loads.append(path)
        return load_table(path, **options)

    monkeypatch.setattr(sessions_module, "load_table", counting_load)
    page, other = open_service(), open_service()  # a page showing the session; another process
    session = page.create_session(SALES_CSV)
    loads.clear()
    for _ in range(3):
        assert page.data_state(session.id)["rows"] == len(sales)
        page.preview(session.id)
    assert loads == []  # the table read when the session was created serves them all

    other.run_turn(session.id, "地域は関東だけにして")  # a step recorded elsewhere
    assert page.data_state(session.id)["rows"] == int((sales["地域"] == "関東").sum())
    page.reset(session.id)
    assert page.data_state(session.id)["rows"] == len(sales)
    assert page.run_turn(session.id, "売上金額の合計は？").status == "finalized"  # the runtime takes the state
    assert page.data_state(session.id)["is_original"]
