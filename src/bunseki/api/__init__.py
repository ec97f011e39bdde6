"""The REST API (FastAPI): `create_app` builds it; `bunseki serve` runs it with uvicorn."""

from bunseki.api.app import create_app

__all__ = ["create_app"]
