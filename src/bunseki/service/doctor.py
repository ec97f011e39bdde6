"""What this machine offers Bunseki: the sandbox tier and why, limits, environment, the backend's health."""

from __future__ import annotations

import dataclasses
import platform
import sys
from typing import Any

from bunseki.errors import BunsekiError
from bunseki.sandbox import Limits, backends, probe, staging
from bunseki.sandbox.pool import measure
from bunseki.settings import Settings


def machine_facts(settings: Settings) -> dict[str, Any]:
    """Everything ``bunseki doctor`` shows, as JSON-ready values; ``usable`` says whether code can run."""
    report = probe(settings)
    backend = _backend_health(settings)
    return {
        "isolation": report.model_dump(),
        "limits": Limits.from_settings(settings).model_dump(),
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "workspace_root": str(settings.workspace_root.resolve()),
        "workspace_staging": staging.where(settings.workspace_root, report.tier, report.run_as_uid),
        "japanese_font": _japanese_font(),
        "warm_pool": measure(settings) if report.tier else None,
        "sandbox_backend": backend,
    }


def usable(facts: dict[str, Any]) -> bool:
    """Whether generated code can run here: an isolation tier, and a backend that answers."""
    return bool(facts["isolation"]["tier"]) and bool(facts["sandbox_backend"]["ok"])


def _backend_health(settings: Settings) -> dict[str, Any]:
    """What the configured sandbox backend reports, or why it cannot be used."""
    try:
        backend = backends.create(settings, warm=False)
    except BunsekiError as exc:
        return {"backend": settings.sandbox_backend, "ok": False, "error": str(exc)}
    try:
        return {**dataclasses.asdict(backend.health()), "error": None}
    except BunsekiError as exc:
        return {"backend": backend.name, "ok": False, "error": str(exc)}
    finally:
        backend.close()


def _japanese_font() -> str:
    try:
        import matplotlib_fontja
    except ImportError:
        return "missing: install matplotlib-fontja"
    return f"IPAexGothic ({matplotlib_fontja.get_font_ttf_path()})"
