"""The knowledge chat over HTTP: collections, document uploads, questions, conversations, the
unanswered log.

Collections (and the unanswered log) are shared by every user of the server, as one knowledge base
is; conversations belong to the user who started them (another user's answer 404) and are kept in
the store, so their history survives a restart of the server.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile
from fastapi import Path as PathParameter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from bunseki.api.deps import User, from_app, hex_id
from bunseki.api.problems import responses
from bunseki.api.streaming import events_response, respond
from bunseki.domain import Answer, Collection, Conversation, IngestResult, Listener, SourceDocument, UnansweredQuestion
from bunseki.service.knowledge import KnowledgeService

PREFIX = "/api/v1/knowledge"
router = APIRouter(prefix=PREFIX, tags=["knowledge"], responses=responses(401, 422, 503))
STREAM = events_response(
    "With `Accept: text/event-stream`: the thought process as it happens (node_started, thought, "
    "observation, finished), then one `result` event whose data is the Answer, or one `error` event whose data is "
    "a problem document. While a model that streams writes the Reflection's final answer, `answer_delta` events "
    'carry its text as it comes ({"text": ...}); `answer_reset` means the text so far was discarded (asked again, '
    "or replaced by the answer kept, which then follows in one piece). The `result` event's answer is the authority."
)
CollectionName = Annotated[
    str, PathParameter(min_length=1, max_length=64, description="The collection's name (e.g. manuals, 社内FAQ).")
]
ConversationId = Annotated[str, hex_id("conversation")]
Names = Annotated[list[Annotated[str, Field(min_length=1, max_length=64)]], Field(max_length=50)]
Knowledge = Annotated[KnowledgeService, Depends(from_app("knowledge"))]


class CollectionRequest(BaseModel):
    """The collection to create."""

    name: str = Field(min_length=1, max_length=64, description="1-64 characters, no spaces, '/', ':' or quotes.")


class AskRequest(BaseModel):
    """A question over one or more collections."""

    question: str = Field(min_length=1, max_length=4000)
    collections: Names = Field(min_length=1, description="The collections to search.")
    model: str | None = Field(default=None, max_length=200, description="e.g. offline, openai:gpt-4.1-mini.")


class ConversationRequest(BaseModel):
    """A new conversation: the collections it searches (each message may change them) and its model."""

    collections: Names = Field(default_factory=list)
    model: str | None = Field(default=None, max_length=200, description="e.g. offline, openai:gpt-4.1-mini.")


class MessageRequest(BaseModel):
    """The next question of a conversation; ``collections``, if given, replace the conversation's."""

    question: str = Field(min_length=1, max_length=4000)
    collections: Names | None = None


# --- collections and documents (shared by the server's users) ---


@router.get("/collections")
async def list_collections(knowledge: Knowledge, user: User) -> list[Collection]:
    """Every collection with its document and chunk counts (collections are shared by the server)."""
    return await run_in_threadpool(knowledge.collections)


@router.post("/collections", status_code=201, responses=responses(409))
async def create_collection(body: CollectionRequest, knowledge: Knowledge, user: User) -> Collection:
    """Create an empty collection (409 if one has the name, 422 for a name that cannot be one)."""
    return await run_in_threadpool(knowledge.create_collection, body.name)


@router.delete("/collections/{name}", status_code=204, responses=responses(404))
async def delete_collection(name: CollectionName, knowledge: Knowledge, user: User) -> Response:
    """Delete a collection and every chunk in it."""
    await run_in_threadpool(knowledge.delete_collection, name)
    return Response(status_code=204)


@router.get("/collections/{name}/documents", responses=responses(404))
async def list_documents(name: CollectionName, knowledge: Knowledge, user: User) -> list[SourceDocument]:
    """The source documents of a collection: each ingested file with its title, kind and chunk count."""
    return await run_in_threadpool(knowledge.documents, name)


@router.post("/collections/{name}/documents", responses=responses(409, 413, 415))
async def upload_documents(
    name: CollectionName,
    knowledge: Knowledge,
    user: User,
    files: Annotated[
        list[UploadFile],
        File(description="Markdown, text, HTML, PDF, code, or Q&A tables (CSV/Excel with question and answer)."),
    ],
) -> IngestResult:
    """Ingest documents into a collection (created if missing); unchanged files are skipped."""
    uploads = [(file.filename, file.file) for file in files]
    limit = knowledge.settings.max_upload_mb << 20
    return await run_in_threadpool(knowledge.ingest_uploads, name, uploads, max_bytes=limit)


# --- asking ---


@router.post("/ask", response_model=Answer, responses={**responses(404), 200: STREAM})
async def ask(body: AskRequest, request: Request, knowledge: Knowledge, user: User) -> Any:
    """Answer a question from the collections: the answer, its citations and the thought process."""

    def work(on_event: Listener | None) -> Answer:
        return knowledge.ask(body.question, body.collections, body.model, on_event=on_event)

    return await respond(request, work)


@router.post("/conversations", status_code=201, responses=responses(404))
async def start_conversation(body: ConversationRequest, knowledge: Knowledge, user: User) -> Conversation:
    """Start a conversation; its messages are answered with its earlier turns in mind."""
    return await run_in_threadpool(knowledge.start_conversation, body.collections, body.model, user_id=user)


@router.get("/conversations/{conversation_id}", responses=responses(404))
async def get_conversation(conversation_id: ConversationId, knowledge: Knowledge, user: User) -> Conversation:
    """A conversation with its history: every question and its answer, oldest first."""
    return await run_in_threadpool(knowledge.conversation, conversation_id, user_id=user)


@router.post(
    "/conversations/{conversation_id}/messages", response_model=Answer, responses={**responses(404), 200: STREAM}
)
async def send_message(
    conversation_id: ConversationId, body: MessageRequest, request: Request, knowledge: Knowledge, user: User
) -> Any:
    """Ask the conversation's next question; the answer takes its last turns into account."""

    def work(on_event: Listener | None) -> Answer:
        return knowledge.ask_in_conversation(
            conversation_id, body.question, collections=body.collections, user_id=user, on_event=on_event
        )

    return await respond(request, work)


@router.delete("/conversations/{conversation_id}/messages", status_code=204, responses=responses(404))
async def clear_conversation(conversation_id: ConversationId, knowledge: Knowledge, user: User) -> Response:
    """Clear the conversation's history (the UI's "clear history"); it keeps its collections and model."""
    await run_in_threadpool(knowledge.clear_conversation, conversation_id, user_id=user)
    return Response(status_code=204)


@router.delete("/conversations/{conversation_id}", status_code=204, responses=responses(404))
async def delete_conversation(conversation_id: ConversationId, knowledge: Knowledge, user: User) -> Response:
    """Forget a conversation and its history."""
    await run_in_threadpool(knowledge.delete_conversation, conversation_id, user_id=user)
    return Response(status_code=204)


# --- the unanswered log ---


@router.get(
    "/unanswered",
    response_model=list[UnansweredQuestion],
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
async def unanswered(
    knowledge: Knowledge,
    user: User,
    fmt: Annotated[
        Literal["json", "csv"],
        Query(alias="format", description="JSON, or CSV (created_at, question, collections, reason)."),
    ] = "json",
) -> Any:
    """Questions the knowledge chat could not answer, oldest first (shared by the server, like collections)."""
    if fmt == "csv":
        text = await run_in_threadpool(knowledge.unanswered_csv)
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="unanswered.csv"'},
        )
    return await run_in_threadpool(knowledge.unanswered)
