"""Sessions over HTTP: upload, list, read, delete; and what happens with bad uploads."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from fastapi.testclient import TestClient

from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from tests.api.conftest import PREFIX, ClientFactory, problem_of


def upload(client: TestClient, path: Path = SALES_CSV, **form: str) -> dict[str, object]:
    with path.open("rb") as handle:
        response = client.post(f"{PREFIX}/sessions", files={"file": (path.name, handle)}, data=form)
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


def test_upload_starts_a_session_with_the_data_overview(api: TestClient, sales: pd.DataFrame) -> None:
    session = upload(api, title="売上の分析")
    assert len(str(session["id"])) == 32 and session["title"] == "売上の分析"
    dataset = session["dataset"]
    assert isinstance(dataset, dict)
    assert (dataset["name"], dataset["format"], dataset["encoding"]) == ("sales_cp932.csv", "csv", "cp932")
    assert (dataset["rows"], dataset["column_count"]) == sales.shape
    assert dataset["columns"] == list(sales.columns)
    assert "売上金額" in dataset["numeric_columns"] and "地域" in dataset["categorical_columns"]
    assert dataset["is_original"] is True and dataset["state"] == f"元のデータ（{len(sales):,} 行）"
    assert session["created_at"]

    listed = api.get(f"{PREFIX}/sessions").json()
    assert [(s["id"], s["dataset_rows"]) for s in listed] == [(session["id"], len(sales))]
    read = api.get(f"{PREFIX}/sessions/{session['id']}", headers={"Accept-Language": "en-US,en"}).json()
    assert read["dataset"]["state"] == f"the original data ({len(sales):,} rows)"


def test_excel_tsv_and_parquet_uploads(api: TestClient, tmp_path: Path) -> None:
    frame = pd.DataFrame({"品目": ["りんご", "みかん"], "数量": [3, 5]})
    frame.to_excel(tmp_path / "果物.xlsx", index=False)
    frame.to_parquet(tmp_path / "果物.parquet", index=False)
    frame.to_csv(tmp_path / "果物.tsv", index=False, sep="\t")
    for name in ("果物.xlsx", "果物.parquet", "果物.tsv"):
        session = upload(api, tmp_path / name)
        assert session["title"] == "果物"
        assert session["dataset"]["columns"] == ["品目", "数量"]  # type: ignore[index]


def test_delete_removes_the_session_and_its_files(api: TestClient, service: AnalysisService) -> None:
    session = upload(api)
    workspace = Path(service.get_session(str(session["id"])).workspace)
    assert workspace.is_dir()
    assert api.delete(f"{PREFIX}/sessions/{session['id']}").status_code == 204
    assert not workspace.exists()
    assert problem_of(api.get(f"{PREFIX}/sessions/{session['id']}"))["status"] == 404
    assert api.get(f"{PREFIX}/sessions").json() == []


@pytest.mark.parametrize(
    ("name", "content", "status", "says"),
    [
        ("slides.pdf", b"%PDF-1.7", 415, ".pdf"),
        ("notes.txt", b"hello", 422, "notes.txt"),
        ("no_extension", b"a,b\n1,2\n", 415, "no extension"),
        ("empty.csv", b"", 422, "empty"),
        ("binary.csv", bytes(range(256)) * 8, 422, "binary"),
        ("broken.xlsx", b"PK\x03\x04 not really a workbook", 422, "broken.xlsx"),
    ],
)
def test_bad_files_are_refused_with_the_reason_and_create_nothing(
    api: TestClient, service: AnalysisService, name: str, content: bytes, status: int, says: str
) -> None:
    response = api.post(f"{PREFIX}/sessions", files={"file": (name, io.BytesIO(content))})
    body = problem_of(response)
    assert response.status_code == status
    assert says in str(body["detail"])
    assert service.list_sessions() == []
    assert not [p for p in service.settings.workspace_root.iterdir() if p.is_dir()]


def test_uploads_over_the_cap_get_413(app_for: ClientFactory, service: AnalysisService) -> None:
    object.__setattr__(service.settings, "max_upload_mb", 1)  # frozen settings; this test's service only
    client = app_for("alice")
    big = b"a,b\n" + b"1,2\n" * 300_000  # 1.2 MB
    response = client.post(f"{PREFIX}/sessions", files={"file": ("big.csv", io.BytesIO(big))})
    assert response.status_code == 413
    assert "1 MB" in str(problem_of(response)["detail"])
    assert service.list_sessions() == []


def test_form_errors_are_422_problems(api: TestClient) -> None:
    missing = api.post(f"{PREFIX}/sessions", data={"title": "x"})
    body = problem_of(missing)
    assert missing.status_code == 422
    assert isinstance(body["errors"], list) and body["errors"][0]["loc"][-1] == "file"
    with SALES_CSV.open("rb") as handle:
        bad_model = api.post(f"{PREFIX}/sessions", files={"file": ("s.csv", handle)}, data={"model": "nope:x"})
    assert bad_model.status_code == 422 and "nope" in str(problem_of(bad_model)["detail"])
    assert problem_of(api.get(f"{PREFIX}/sessions/not-an-id"))["status"] == 422
    assert problem_of(api.get(f"{PREFIX}/sessions/{'0' * 32}"))["status"] == 404
