"""Liveness for load balancers and people: no key needed."""

from __future__ import annotations

import dataclasses
from importlib.metadata import version

from fastapi import APIRouter

from bunseki.api.deps import Service
from bunseki.api.schemas import Health, SandboxBackendHealth

router = APIRouter(tags=["health"])


@router.get("/api/v1/analysis/health")
@router.get("/health", include_in_schema=False)
def health(service: Service) -> Health:
    """The server is up; which version, on which database (sqlite or postgresql), the sandbox backend."""
    database = service.settings.database.split(":", 1)[0].split("+", 1)[0]
    sandboxes = service.sandbox_health()
    return Health(
        status="ok",
        version=version("bunseki"),
        database=database,
        warm_sandboxes=sandboxes.warm,
        sandbox_backend=SandboxBackendHealth(**dataclasses.asdict(sandboxes)),
    )
