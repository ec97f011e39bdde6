"""/api/v1/investigations: upload a case archive, follow it (SSE), read result, reports and charts; refuse
archives that are not safe to unpack, and other users' investigations."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.investigation.archive import ArchiveLimits
from bunseki.service import AnalysisService
from bunseki.service.investigation_runs import InvestigationRuns
from tests.api.conftest import problem_of

URL = "/api/v1/investigations"
SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation"
CONTRACT = {"status", "case", "datasets", "summary", "report_path", "workspace_dir"}
DATASET_CONTRACT = {"name", "status", "mismatched_frames", "hypotheses", "conclusion", "fix", "charts"}


@pytest.fixture
def runs(service: AnalysisService) -> Iterator[InvestigationRuns]:
    limits = ArchiveLimits(max_total_bytes=2 << 20, max_file_bytes=512 << 10, max_members=30)
    with InvestigationRuns(service.settings, limits=limits) as opened:
        yield opened


@pytest.fixture
def clients(service: AnalysisService, runs: InvestigationRuns) -> Iterator[dict[str, TestClient]]:
    """alice's and bob's clients of one app."""
    app = create_app(service=service, investigations=runs)
    opened: dict[str, TestClient] = {}
    for name in ("alice", "bob"):
        client = TestClient(app)
        _, key = service.accounts.create(name)
        client.headers["Authorization"] = f"Bearer {key}"
        opened[name] = client.__enter__()
    yield opened
    for client in opened.values():
        client.__exit__(None, None, None)


def _sample_files(folder: str = "") -> dict[str, bytes]:
    return {f"{folder}{path.name}": path.read_bytes() for path in sorted(SAMPLE.iterdir()) if path.is_file()}


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar(files: dict[str, bytes], extra: list[tarfile.TarInfo] = ()) -> bytes:  # type: ignore[assignment]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for info in extra:
            archive.addfile(info)
    return buffer.getvalue()


def sample_case_zip() -> bytes:
    """The bundled sample case, zipped in a folder as people usually pack one: its manifest names no
    entry (the seed has none) and its harness reads the expectation's text."""
    return _zip(_sample_files("hysteresis/"))


def _upload(client: TestClient, data: bytes, name: str = "case.zip", **headers: str) -> Any:
    return client.post(URL, files={"file": (name, data, "application/octet-stream")}, headers=headers)


def _events(lines: list[str]) -> list[tuple[str, dict[str, Any]]]:
    names = [line.removeprefix("event: ") for line in lines if line.startswith("event: ")]
    data = [json.loads(line.removeprefix("data: ")) for line in lines if line.startswith("data: ")]
    return list(zip(names, data, strict=True))


def test_an_uploaded_case_is_investigated_in_the_background_and_followed(
    clients: dict[str, TestClient], runs: InvestigationRuns
) -> None:
    alice = clients["alice"]
    started = _upload(alice, sample_case_zip())
    assert started.status_code == 202, started.text
    body = started.json()
    run_id = body["investigation_id"]
    assert body["status"] in ("queued", "running") and body["case"] == "hysteresis-detector"
    assert [ds["name"] for ds in body["datasets"]] == ["boundary", "clean"]

    with alice.stream("GET", f"{URL}/{run_id}", headers={"Accept": "text/event-stream"}) as response:
        assert response.status_code == 200
        events = _events(list(response.iter_lines()))
    assert events[0][0] == "status" and events[-1][0] == "result"
    progress = [(e.get("dataset"), e["node"]) for name, e in events if name == "node_started"]
    assert progress[0] == (None, "initialize") and progress[-1] == (None, "summarizer")
    assert ("boundary", "verifier") in progress and ("clean", "reporter") in progress
    final = events[-1][1]
    assert final["status"] == "completed" and all(ds["done"] for ds in final["datasets"])

    result = alice.get(f"{URL}/{run_id}/result").json()
    assert set(result) >= CONTRACT and result["status"] == "completed"
    assert all(set(ds) >= DATASET_CONTRACT for ds in result["datasets"])
    boundary = next(ds for ds in result["datasets"] if ds["name"] == "boundary")
    assert boundary["status"] == "inconsistent" and boundary["fix"].startswith("--- a/detector.py")
    assert result["report_path"] == f"{URL}/{run_id}/report?format=md"
    assert result["workspace_dir"] == f"{URL}/{run_id}" and "/tmp" not in json.dumps(result)

    markdown = alice.get(result["report_path"])
    assert markdown.status_code == 200 and "## Dataset boundary" in markdown.text
    html = alice.get(result["report_html_path"])
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert "<table>" in html.text and "data:image/png;base64," in html.text
    one = alice.get(f"{URL}/{run_id}/report", params={"format": "html", "dataset": "clean"})
    assert one.status_code == 200 and "clean" in one.text and "boundary" not in one.text
    chart = alice.get(boundary["charts"][0])
    assert chart.status_code == 200 and chart.content.startswith(b"\x89PNG")
    assert alice.get(f"{URL}/{run_id}/charts/data/boundary__output.csv").status_code == 404
    assert alice.get(f"{URL}/{run_id}/report", params={"dataset": "nope"}).status_code == 404

    listed = alice.get(URL).json()
    assert [(item["investigation_id"], item["status"]) for item in listed] == [(run_id, "completed")]
    assert clients["bob"].get(URL).json() == []


def test_another_users_investigation_is_not_found(clients: dict[str, TestClient], runs: InvestigationRuns) -> None:
    alice, bob = clients["alice"], clients["bob"]
    files = {"file": ("case.tar.gz", _tar(_sample_files()), "application/gzip")}
    with alice.stream("POST", URL, files=files, headers={"Accept": "text/event-stream"}) as response:
        assert response.status_code == 200
        events = _events(list(response.iter_lines()))
    assert events[-1][0] == "result" and events[-1][1]["status"] == "completed"
    run_id = events[-1][1]["investigation_id"]
    for path in ("", "/result", "/report", "/charts/charts/boundary_overview.png"):
        problem_of(response := bob.get(f"{URL}/{run_id}{path}"))
        assert response.status_code == 404, path
    assert bob.delete(f"{URL}/{run_id}").status_code == 404
    assert alice.delete(f"{URL}/{run_id}").status_code == 204
    assert alice.get(f"{URL}/{run_id}").status_code == 404


def _link(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def _zip_symlink() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in _sample_files().items():
            archive.writestr(name, data)
        link = zipfile.ZipInfo("secret.csv")
        link.external_attr = (0o120777 << 16) | 0x20  # a unix symlink, as `zip --symlinks` writes it
        archive.writestr(link, "/etc/passwd")
    return buffer.getvalue()


MALICIOUS = {
    "zip slip": (_zip({**_sample_files(), "../../escaped.py": b"print(1)"}), 422, "outside the archive"),
    "absolute path": (_tar({**_sample_files(), "/tmp/escaped.py": b"x"}), 422, "outside the archive"),
    "tar symlink": (_tar(_sample_files(), [_link("secret.csv", tarfile.SYMTYPE, "/etc/passwd")]), 422, "link"),
    "tar hardlink": (_tar(_sample_files(), [_link("hard.csv", tarfile.LNKTYPE, "case.yaml")]), 422, "link"),
    "device": (_tar(_sample_files(), [_link("null", tarfile.CHRTYPE)]), 422, "device"),
    "zip symlink": (_zip_symlink(), 422, "link"),
    # 600 KB of zeros packs into a few hundred bytes: what it unpacks to is what counts.
    "too big": (_zip({**_sample_files(), "big.csv": b"0" * (600 << 10)}), 413, "larger than"),
    "too many members": (_zip({**_sample_files(), **{f"f{i}.txt": b"" for i in range(40)}}), 413, "members"),
    "not an archive": (b"frame,x,z\n1,0.5,0\n", 415, "zip or tar"),
    "no manifest": (_zip({"detector.py": b"def detect(f):\n    return f\n"}), 422, "case.yaml"),
    "manifest names a file outside": (
        _zip(
            {
                **_sample_files(),
                "case.yaml": SAMPLE.joinpath("case.yaml")
                .read_bytes()
                .replace(b"- detector_spec.md", b"- ../../../../../../../etc/hostname"),
            }
        ),
        422,
        "outside the archive",
    ),
    "no entry and two functions": (
        _zip(
            {
                **_sample_files(),
                "detector.py": SAMPLE.joinpath("detector.py").read_bytes()
                + b"\n\ndef smooth(frame):\n    return frame\n",
            }
        ),
        422,
        "several public functions that take a table: detect (detector.py), smooth (detector.py)",
    ),
    "bad manifest": (
        _zip({**_sample_files(), "case.yaml": b"name: x\ncodes: [gone.py]\ndatasets: []\n"}),
        422,
        "gone.py",
    ),
}


@pytest.mark.parametrize("kind", sorted(MALICIOUS))
def test_unsafe_or_unusable_archives_are_refused_naming_the_problem(
    kind: str, clients: dict[str, TestClient], runs: InvestigationRuns
) -> None:
    data, status, words = MALICIOUS[kind]
    response = _upload(clients["alice"], data)
    assert response.status_code == status, response.text
    assert words in problem_of(response)["detail"]
    assert clients["alice"].get(URL).json() == []  # nothing was kept
    root = runs.root
    assert not list(root.parent.rglob("escaped.py")) and (not root.exists() or not any(root.iterdir()))
