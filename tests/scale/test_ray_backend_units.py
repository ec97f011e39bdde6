"""What the Ray backend decides without a cluster: its configuration, and what settings an actor gets."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from bunseki.errors import ConfigurationError
from bunseki.settings import Settings

ray_backend = pytest.importorskip("bunseki.sandbox.ray_backend", reason="Ray is not installed")


def test_the_ray_backend_needs_the_clusters_address(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="BUNSEKI_RAY_ADDRESS"):
        ray_backend.RayBackend(Settings(workspace_root=tmp_path, sandbox_backend="ray"))


def test_an_actor_gets_the_sandbox_settings_and_no_keys_or_urls(tmp_path: Path) -> None:
    settings = Settings(
        workspace_root=tmp_path,
        sandbox_backend="ray",
        ray_address="10.0.0.1:6379",
        openai_api_key=SecretStr("sk-secret"),
        database_url="postgresql://user:pw@db/bunseki",
        sandbox_timeout_s=42,
    )

    names = ray_backend._actor_setting_names(settings)
    values = settings.model_dump(include=names)

    assert {"sandbox_timeout_s", "sandbox_uid", "sandbox_isolation", "session_idle_s", "workspace_root"} <= names
    assert values["sandbox_timeout_s"] == 42
    assert not {"openai_api_key", "database_url", "ray_address", "sandbox_backend"} & names
    assert "sk-secret" not in repr(values)


def test_session_actors_are_named_by_session(tmp_path: Path) -> None:
    assert ray_backend.actor_name("abc123") == "session-abc123"
