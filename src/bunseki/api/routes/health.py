"""Liveness for load balancers and people: no key needed."""

from __future__ import annotations

from importlib.metadata import version

from fastapi import APIRouter

from bunseki.api.deps import Service
from bunseki.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/api/v1/analysis/health")
@router.get("/health", include_in_schema=False)
def health(service: Service) -> Health:
    """The server is up; which version, on which database (sqlite or postgresql), warm sandboxes."""
    backend = service.settings.database.split(":", 1)[0].split("+", 1)[0]
    warm = service.warm_sandboxes()
    return Health(status="ok", version=version("bunseki"), database=backend, warm_sandboxes=warm)
