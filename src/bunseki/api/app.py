"""The FastAPI application: analysis sessions and their chat, the investigator, the EDA pipeline and the
knowledge chat over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from http import HTTPStatus

from fastapi import FastAPI, Request, Response

from bunseki.api import problems
from bunseki.api.routes import chat, data, health, sessions
from bunseki.api.routes import eda as eda_routes
from bunseki.api.routes import investigations as investigation_routes
from bunseki.api.routes import knowledge as knowledge_routes
from bunseki.api.schemas import Problem
from bunseki.service import AnalysisService
from bunseki.service.eda import EdaService
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.service.knowledge import KnowledgeService
from bunseki.settings import Settings

DESCRIPTION = """\
Conversational data analysis: upload a table, ask in Japanese or English, get answers whose every
number comes from code that ran in a sandbox. Every request needs `Authorization: Bearer <key>`
(`bunseki users create NAME` makes one) unless the server runs in single-user mode on loopback.
Errors are RFC 9457 problem documents (`application/problem+json`). Knowledge collections (and the
unanswered log) are shared by every user of the server; analysis sessions, EDA runs, investigations and
knowledge conversations belong to the user who made them.
"""
UPLOAD_SLACK = 1 << 16  # multipart headers and the form's other fields


def create_app(
    settings: Settings | None = None,
    *,
    service: AnalysisService | None = None,
    eda: EdaService | None = None,
    knowledge: KnowledgeService | None = None,
    investigations: InvestigationRuns | None = None,
) -> FastAPI:
    """The app; it opens (and at shutdown closes) its own services unless they are given.

    The EDA and knowledge services share the analysis service's store: one database connection pool.
    The knowledge service opens its knowledge base (Qdrant) on first use.
    """
    settings = service.settings if service is not None else (settings or Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = getattr(app.state, "service", None) is None
        if owned:
            app.state.service = AnalysisService(settings, warm=True)
        owned_eda = getattr(app.state, "eda", None) is None
        if owned_eda:
            app.state.eda = EdaService(settings, store=app.state.service.store, backend=app.state.service.backend)
        owned_knowledge = getattr(app.state, "knowledge", None) is None
        if owned_knowledge:
            app.state.knowledge = KnowledgeService(settings, store=app.state.service.store)
        owned_investigations = getattr(app.state, "investigations", None) is None
        if owned_investigations:
            app.state.investigations = InvestigationRuns(settings, backend=app.state.service.backend)
        try:
            yield
        finally:
            if owned_investigations:
                app.state.investigations.close()
                app.state.investigations = None
            if owned_knowledge:
                app.state.knowledge.close()
                app.state.knowledge = None
            if owned_eda:
                app.state.eda.close()
                app.state.eda = None
            if owned:
                app.state.service.close()
                app.state.service = None

    app = FastAPI(
        title="Bunseki API",
        version=_version(),
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url="/docs",
        openapi_url="/openapi.json",
    )
    app.state.service = service
    app.state.eda = eda
    app.state.knowledge = knowledge
    app.state.investigations = investigations
    app.state.single_user = settings.api_single_user
    problems.install(app)
    for module in (sessions, chat, data, eda_routes, knowledge_routes, investigation_routes, health):
        app.include_router(module.router)
    _limit_uploads(app, settings.max_upload_mb << 20)
    _document_problems(app)
    return app


def _limit_uploads(app: FastAPI, limit: int) -> None:
    """Refuse an announced oversized body before reading it (the upload itself is checked too)."""

    @app.middleware("http")
    async def announced_size(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length", "")
        if request.method == "POST" and length.isdigit() and int(length) > limit + UPLOAD_SLACK:
            detail = f"the request is larger than this server accepts ({limit >> 20} MB, BUNSEKI_MAX_UPLOAD_MB)"
            return problems.response(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, detail, request)
        return await call_next(request)


def _document_problems(app: FastAPI) -> None:
    """Put the Problem schema the routes' error responses refer to into the OpenAPI document."""
    default = app.openapi

    def openapi() -> dict[str, object]:
        if app.openapi_schema is None:
            schema = default()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components["Problem"] = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _version() -> str:
    from importlib.metadata import version

    return version("bunseki")
