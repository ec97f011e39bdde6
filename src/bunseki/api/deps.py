"""What routes depend on: the service, the caller, the language they read."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from bunseki import domain
from bunseki.errors import Unauthorized
from bunseki.service import AnalysisService

ID_PATTERN = r"^[0-9a-f]{32}$"
_bearer = HTTPBearer(auto_error=False, description="An API key from `bunseki users create NAME`.")


def get_service(request: Request) -> AnalysisService:
    service: AnalysisService = request.app.state.service
    return service


def current_user(
    request: Request,
    service: Annotated[AnalysisService, Depends(get_service)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The id of the user the bearer key belongs to; None in single-user mode (every session)."""
    if request.app.state.single_user:
        return None
    if credentials is None:
        raise Unauthorized("this API needs a key: send 'Authorization: Bearer <key>' (`bunseki users create NAME`)")
    user = service.accounts.authenticate(credentials.credentials)
    if user is None:
        raise Unauthorized("this API key is not valid: it is unknown or was revoked")
    return user.id


def language(request: Request) -> domain.Language:
    """Japanese unless the caller's Accept-Language puts English first."""
    header = request.headers.get("accept-language", "").strip().lower()
    return "en" if header.startswith("en") else "ja"


Service = Annotated[AnalysisService, Depends(get_service)]
User = Annotated[str | None, Depends(current_user)]
Language = Annotated[domain.Language, Depends(language)]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="The session's id (32 hex digits).")]
SnapshotId = Annotated[str, Path(pattern=ID_PATTERN, description="The snapshot's id (32 hex digits).")]
