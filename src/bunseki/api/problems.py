"""The one place errors become HTTP responses: RFC 9457 problem details (application/problem+json).

Bunseki's error tree maps to statuses here and nowhere else; anything unexpected is a 500 whose
body says nothing about the server's insides (the log has the traceback).
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from bunseki.errors import (
    BunsekiError,
    ConfigurationError,
    Conflict,
    InputError,
    ModelError,
    ModelTimeoutError,
    NotFound,
    QuestionTooLong,
    SandboxLost,
    StorageError,
    Unauthorized,
    UnsupportedFileType,
    UploadTooLarge,
)

MEDIA_TYPE = "application/problem+json"
log = logging.getLogger("bunseki.api")

# Most specific first: the first class an error is an instance of decides its status.
STATUS: list[tuple[type[BunsekiError], HTTPStatus]] = [
    (Unauthorized, HTTPStatus.UNAUTHORIZED),
    (UploadTooLarge, HTTPStatus.REQUEST_ENTITY_TOO_LARGE),
    (QuestionTooLong, HTTPStatus.REQUEST_ENTITY_TOO_LARGE),
    (UnsupportedFileType, HTTPStatus.UNSUPPORTED_MEDIA_TYPE),
    (InputError, HTTPStatus.UNPROCESSABLE_ENTITY),
    (NotFound, HTTPStatus.NOT_FOUND),
    (Conflict, HTTPStatus.CONFLICT),
    (ConfigurationError, HTTPStatus.UNPROCESSABLE_ENTITY),  # a model spec the server cannot serve
    (ModelTimeoutError, HTTPStatus.GATEWAY_TIMEOUT),
    (ModelError, HTTPStatus.BAD_GATEWAY),
    (StorageError, HTTPStatus.SERVICE_UNAVAILABLE),
    (SandboxLost, HTTPStatus.SERVICE_UNAVAILABLE),  # the turn was rolled back: asking again works at once
]
RETRY_AFTER_S: dict[type[BunsekiError], int] = {SandboxLost: 1}


def status_of(error: BunsekiError) -> HTTPStatus:
    return next((status for kind, status in STATUS if isinstance(error, kind)), HTTPStatus.SERVICE_UNAVAILABLE)


def retry_after(error: BunsekiError) -> int | None:
    """Seconds after which the same request may well work (a Retry-After header), if that is known."""
    return next((seconds for kind, seconds in RETRY_AFTER_S.items() if isinstance(error, kind)), None)


def problem(
    status: HTTPStatus | int, detail: str | None, *, instance: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A problem document for ``status``."""
    code = HTTPStatus(status)
    body: dict[str, Any] = {"type": "about:blank", "title": code.phrase, "status": code.value}
    if detail:
        body["detail"] = detail
    if instance:
        body["instance"] = instance
    return body | {key: value for key, value in extra.items() if value is not None}


def response(
    status: HTTPStatus | int, detail: str | None, request: Request, *, retry_after: int | None = None, **extra: Any
) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == HTTPStatus.UNAUTHORIZED else {}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    body = problem(status, detail, instance=request.url.path, **extra)
    return JSONResponse(jsonable_encoder(body), status_code=int(status), media_type=MEDIA_TYPE, headers=headers)


def install(app: FastAPI) -> None:
    """Make every error the app can raise answer as a problem document."""

    @app.exception_handler(BunsekiError)
    async def bunseki_error(request: Request, exc: BunsekiError) -> JSONResponse:
        status = status_of(exc)
        if status >= 500:
            log.warning("%s %s: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
        return response(status, str(exc), request, retry_after=retry_after(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(error.get("loc", ())), "msg": error.get("msg", ""), "type": error.get("type", "")}
            for error in exc.errors()
        ]
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors[:5])
        return response(HTTPStatus.UNPROCESSABLE_ENTITY, detail, request, errors=errors)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return response(exc.status_code, str(exc.detail) if exc.detail else None, request)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error in %s %s", request.method, request.url.path)
        detail = "Something went wrong on the server; the request may be retried. The server log has the details."
        return response(HTTPStatus.INTERNAL_SERVER_ERROR, detail, request)


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem responses a route can give."""
    schema = {"$ref": "#/components/schemas/Problem"}
    return {
        status: {"description": HTTPStatus(status).phrase, "content": {MEDIA_TYPE: {"schema": schema}}}
        for status in statuses
    }
