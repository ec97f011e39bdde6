"""What routes depend on and take: the services, the caller, the language they read, ids, upload fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, File, Form, Path, Request, UploadFile
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from bunseki import domain
from bunseki.errors import Unauthorized
from bunseki.service import AnalysisService

ID_PATTERN = r"^[0-9a-f]{32}$"
_bearer = HTTPBearer(auto_error=False, description="An API key from `bunseki users create NAME`.")


def from_app(attribute: str) -> Callable[[Request], Any]:
    """A dependency: the service the application keeps as ``app.state.<attribute>``."""

    def service(request: Request) -> Any:
        return getattr(request.app.state, attribute)

    return service


get_service = from_app("service")


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


def hex_id(owner: str) -> Any:
    """A path parameter holding the id of one ``owner`` (a session, a run…): 32 hex digits."""
    return Path(pattern=ID_PATTERN, description=f"The {owner}'s id (32 hex digits).")


def stripped(text: str | None) -> str | None:
    """A text field as the services take it: without surrounding blanks, None when nothing is left."""
    return (text or "").strip() or None


Service = Annotated[AnalysisService, Depends(get_service)]
User = Annotated[str | None, Depends(current_user)]
Language = Annotated[domain.Language, Depends(language)]
SessionId = Annotated[str, hex_id("session")]
SnapshotId = Annotated[str, hex_id("snapshot")]
DataFile = Annotated[UploadFile, File(description="The data: CSV, TSV, Excel (.xlsx) or Parquet.")]
ModelSpec = Annotated[str | None, Form(max_length=200, description="e.g. offline, openai:gpt-4.1-mini.")]
