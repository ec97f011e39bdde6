"""/api/v1/knowledge: collections, document uploads, questions (JSON and SSE), conversations with their
history and owner, the unanswered log; errors are problem documents. Real e5 over embedded Qdrant in
the test's workspace root, the offline brain, and an embedding cache warmed once per session."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.service import AnalysisService
from bunseki.service.knowledge import KnowledgeService
from tests.api.conftest import problem_of
from tests.rag.uploads import DOCUMENTS, write_warm_cache

BASE = "/api/v1/knowledge"
CONTRACT = {"status", "answer", "citations", "thoughts", "reflection", "collections", "model", "elapsed_ms"}


@pytest.fixture(scope="session")
def warm_embeddings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_warm_cache(tmp_path_factory.mktemp("knowledge-api"))


@pytest.fixture
def knowledge(service: AnalysisService, warm_embeddings: Path) -> Iterator[KnowledgeService]:
    """The knowledge service of the test's workspace root, sharing the analysis service's store."""
    shutil.copy(warm_embeddings, service.settings.embedding_cache_path)
    with KnowledgeService(service.settings, store=service.store) as opened:
        yield opened


@pytest.fixture
def clients(service: AnalysisService, knowledge: KnowledgeService) -> Iterator[dict[str, TestClient]]:
    """alice's and bob's clients of one app, and one without a key."""
    app = create_app(service=service, knowledge=knowledge)
    opened: dict[str, TestClient] = {}
    for name in ("alice", "bob", "nobody"):
        client = TestClient(app)
        if name != "nobody":
            _, key = service.accounts.create(name)
            client.headers["Authorization"] = f"Bearer {key}"
        opened[name] = client.__enter__()
    yield opened
    for client in opened.values():
        client.__exit__(None, None, None)


def upload(client: TestClient, collection: str, documents: list[tuple[str, bytes]] = DOCUMENTS) -> dict[str, Any]:
    files = [("files", (name, content, "application/octet-stream")) for name, content in documents]
    response = client.post(f"{BASE}/collections/{collection}/documents", files=files)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture
def docs(clients: dict[str, TestClient]) -> dict[str, TestClient]:
    """The clients, with DOCUMENTS ingested into the collection 'docs'."""
    upload(clients["alice"], "docs")
    return clients


def events_of(text: str) -> list[tuple[str, Any]]:
    """The (event, data) pairs of a server-sent event stream."""
    found = []
    for block in text.replace("\r\n", "\n").strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        found.append((fields.get("event", "message"), json.loads(fields["data"])))
    return found


def test_collections_are_created_filled_listed_and_deleted(clients: dict[str, TestClient]) -> None:
    alice, bob = clients["alice"], clients["bob"]
    assert alice.get(f"{BASE}/collections").json() == []
    created = alice.post(f"{BASE}/collections", json={"name": "社内FAQ"})
    assert created.status_code == 201
    assert created.json() | {"embedding_model": None} == {
        "name": "社内FAQ",
        "documents": 0,
        "chunks": 0,
        "embedding_model": None,
    }
    assert problem_of(bob.post(f"{BASE}/collections", json={"name": "社内FAQ"}))["status"] == 409
    assert "cannot name a collection" in problem_of(alice.post(f"{BASE}/collections", json={"name": "a b"}))["detail"]

    report = upload(alice, "社内FAQ")
    assert report["collection"] == "社内FAQ" and report["files"] == len(DOCUMENTS)
    assert report["chunks"] > len(DOCUMENTS) and report["skipped"] == 0 and report["problems"] == []
    again = upload(bob, "社内FAQ", DOCUMENTS[:2])  # the same files again: nothing to do
    assert (again["files"], again["chunks"], again["skipped"]) == (2, 0, 2)

    documents = bob.get(f"{BASE}/collections/社内FAQ/documents").json()  # collections are shared
    assert [(item["source"], item["kind"]) for item in documents] == [
        ("faq.csv", "qa"),
        ("returns.txt", "text"),
        ("security.html", "html"),
        ("setup.md", "markdown"),
        ("sorting.md", "markdown"),
    ]
    assert next(item for item in documents if item["source"] == "setup.md")["title"] == "Bunseki 導入ガイド"
    [listed] = alice.get(f"{BASE}/collections").json()
    assert (listed["name"], listed["documents"], listed["chunks"]) == ("社内FAQ", 5, report["chunks"])

    assert alice.delete(f"{BASE}/collections/社内FAQ").status_code == 204
    assert problem_of(alice.delete(f"{BASE}/collections/社内FAQ"))["status"] == 404
    assert problem_of(alice.get(f"{BASE}/collections/社内FAQ/documents"))["status"] == 404
    assert alice.get(f"{BASE}/collections").json() == []


def test_uploads_are_checked_before_anything_is_ingested(
    clients: dict[str, TestClient], knowledge: KnowledgeService
) -> None:
    alice = clients["alice"]
    image = [("files", ("chart.png", b"\x89PNG\r\n\x1a\n", "image/png"))]
    refused = problem_of(alice.post(f"{BASE}/collections/docs/documents", files=image))
    assert refused["status"] == 415 and ".md" in refused["detail"]
    unreadable = upload(alice, "docs", [("../../etc/notes.md", "# 見出し\n\n本文です。".encode()), ("empty.txt", b"")])
    assert unreadable["files"] == 2 and [problem["source"] for problem in unreadable["problems"]] == ["empty.txt"]
    assert [item["source"] for item in alice.get(f"{BASE}/collections/docs/documents").json()] == ["notes.md"]

    knowledge.settings = knowledge.settings.model_copy(update={"max_upload_mb": 1})
    big = [("files", ("big.txt", "あ".encode() * 400_000, "text/plain"))]
    assert problem_of(alice.post(f"{BASE}/collections/docs/documents", files=big))["status"] == 413


def test_ask_answers_with_citations_and_the_thought_process(docs: dict[str, TestClient]) -> None:
    response = docs["alice"].post(
        f"{BASE}/ask", json={"question": "パスワードを忘れたときはどうすればいいですか", "collections": ["docs"]}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer.keys() >= CONTRACT
    assert answer["status"] == "answered" and "パスワードを忘れた方" in answer["answer"]
    assert answer["collections"] == ["docs"] and answer["model"] == "offline"
    [citation] = answer["citations"]
    assert citation.keys() == {"source", "title", "heading", "chunk_id", "score", "text"}
    assert citation["chunk_id"] == "faq.csv#0"
    assert answer["thoughts"][1]["tool"] == "search_rag_knowledge_base"
    assert answer["reflection"]["final"] == answer["answer"]


def test_ask_streams_the_thought_process_then_the_answer(docs: dict[str, TestClient]) -> None:
    question = {"question": "How do I turn on two-factor authentication?", "collections": ["docs"]}
    with docs["alice"].stream("POST", f"{BASE}/ask", json=question, headers={"Accept": "text/event-stream"}) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/event-stream")
        events = events_of(reply.read().decode())
    names = [name for name, _ in events]
    assert names[-1] == "result" and "thought" in names and "observation" in names
    assert names.index("thought") < names.index("result")
    kinds = [data["kind"] for name, data in events if name == "thought"]
    assert kinds == ["thought", "tool_call", "draft", "reflection"]
    answer = events[-1][1]
    assert answer["status"] == "answered" and "Enable two-factor authentication" in answer["answer"]
    assert answer["citations"][0]["source"] == "security.html"


def test_questions_that_cannot_be_asked_are_problems(docs: dict[str, TestClient]) -> None:
    alice = docs["alice"]
    unknown = problem_of(alice.post(f"{BASE}/ask", json={"question": "返品できますか", "collections": ["nosuch"]}))
    assert unknown["status"] == 404 and "nosuch" in unknown["detail"]
    blank = problem_of(alice.post(f"{BASE}/ask", json={"question": "   ", "collections": ["docs"]}))
    assert blank["status"] == 422
    none = problem_of(alice.post(f"{BASE}/ask", json={"question": "返品できますか", "collections": []}))
    assert none["status"] == 422 and none["errors"]
    model = problem_of(alice.post(f"{BASE}/ask", json={"question": "返品", "collections": ["docs"], "model": "x:y"}))
    assert model["status"] == 422
    streamed = alice.post(
        f"{BASE}/ask", json={"question": "返品", "collections": ["nosuch"]}, headers={"Accept": "text/event-stream"}
    )
    assert problem_of(streamed)["status"] == 404  # refused before the stream began
    assert problem_of(docs["nobody"].get(f"{BASE}/collections"))["status"] == 401


def test_a_conversation_remembers_its_turns_and_belongs_to_its_user(docs: dict[str, TestClient]) -> None:
    alice, bob = docs["alice"], docs["bob"]
    created = alice.post(f"{BASE}/conversations", json={"collections": ["docs"]})
    assert created.status_code == 201
    conversation = created.json()
    assert conversation["collections"] == ["docs"] and conversation["turns"] == []
    url = f"{BASE}/conversations/{conversation['id']}"

    first = alice.post(f"{url}/messages", json={"question": "返品はできますか"}).json()
    assert first["status"] == "answered" and "14日以内" in first["answer"]
    with alice.stream(
        "POST",
        f"{url}/messages",
        json={"question": "What is the time complexity of merge sort?"},
        headers={"Accept": "text/event-stream"},
    ) as reply:
        events = events_of(reply.read().decode())
    assert events[-1][0] == "result" and "O(n log n)" in events[-1][1]["answer"]

    history = alice.get(url).json()
    assert [turn["question"] for turn in history["turns"]] == [
        "返品はできますか",
        "What is the time complexity of merge sort?",
    ]
    assert history["turns"][0]["answer"] == first

    for response in (
        bob.get(url),
        bob.post(f"{url}/messages", json={"question": "返品はできますか"}),
        bob.delete(url),
    ):
        assert problem_of(response)["status"] == 404
    assert len(alice.get(url).json()["turns"]) == 2  # bob's attempts changed nothing

    assert problem_of(alice.post(f"{BASE}/conversations", json={"collections": ["nosuch"]}))["status"] == 404
    assert alice.delete(url).status_code == 204
    assert problem_of(alice.get(url))["status"] == 404
    assert problem_of(alice.get(f"{BASE}/conversations/not-an-id"))["status"] == 422


def test_clearing_a_conversation_forgets_its_history_but_not_its_collections(docs: dict[str, TestClient]) -> None:
    alice, bob = docs["alice"], docs["bob"]
    url = f"{BASE}/conversations/{alice.post(f'{BASE}/conversations', json={'collections': ['docs']}).json()['id']}"
    assert alice.post(f"{url}/messages", json={"question": "返品はできますか"}).json()["status"] == "answered"
    assert problem_of(bob.delete(f"{url}/messages"))["status"] == 404
    assert len(alice.get(url).json()["turns"]) == 1
    assert alice.delete(f"{url}/messages").status_code == 204
    cleared = alice.get(url).json()
    assert cleared["turns"] == [] and cleared["collections"] == ["docs"]
    assert alice.post(f"{url}/messages", json={"question": "返品はできますか"}).json()["status"] == "answered"
    assert problem_of(alice.delete(f"{BASE}/conversations/{'0' * 32}/messages"))["status"] == 404


def test_history_survives_a_restart_of_the_server(
    open_service: Callable[..., AnalysisService], warm_embeddings: Path
) -> None:
    """Two app instances, one after the other, on the same workspace root and database."""
    first = open_service()
    shutil.copy(warm_embeddings, first.settings.embedding_cache_path)
    _, key = first.accounts.create("alice")
    headers = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(service=first), headers=headers) as alice:
        upload(alice, "docs")
        url = f"{BASE}/conversations/{alice.post(f'{BASE}/conversations', json={'collections': ['docs']}).json()['id']}"
        answer = alice.post(f"{url}/messages", json={"question": "返品はできますか"}).json()
    first.close()  # the server stops: embedded Qdrant and the database are let go

    second = open_service()
    with TestClient(create_app(service=second), headers=headers) as alice:
        history = alice.get(url).json()
        assert [turn["question"] for turn in history["turns"]] == ["返品はできますか"]
        assert history["turns"][0]["answer"] == answer and history["collections"] == ["docs"]
        follow_up = alice.post(f"{url}/messages", json={"question": "How long does it take?"})
        assert follow_up.status_code == 200
        assert len(alice.get(url).json()["turns"]) == 2


def test_unanswered_questions_are_listed_as_json_and_csv(docs: dict[str, TestClient]) -> None:
    alice = docs["alice"]
    assert alice.get(f"{BASE}/unanswered").json() == []
    answer = alice.post(f"{BASE}/ask", json={"question": "社員食堂の営業時間は？", "collections": ["docs"]}).json()
    assert answer["status"] == "unanswered" and answer["citations"] == []

    [item] = docs["bob"].get(f"{BASE}/unanswered").json()  # the log is the server's, as the collections are
    assert (item["question"], item["collections"]) == ("社員食堂の営業時間は？", ["docs"])
    assert item["reason"] and item["created_at"]

    response = alice.get(f"{BASE}/unanswered", params={"format": "csv"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows[0] == ["created_at", "question", "collections", "reason"]
    assert rows[1][1:3] == ["社員食堂の営業時間は？", "docs"]
    assert problem_of(alice.get(f"{BASE}/unanswered", params={"format": "xml"}))["status"] == 422
