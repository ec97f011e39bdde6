"""The backend factory: local by default, Ray only when chosen, and a clear word when it cannot be."""

from __future__ import annotations

import sys

import pytest

from bunseki.errors import ConfigurationError
from bunseki.sandbox import backends
from bunseki.settings import Settings


def test_local_is_the_default(settings: Settings) -> None:
    backend = backends.create(settings, warm=False)
    try:
        assert backend.name == "local"
        health = backend.health()
        assert (health.backend, health.ok, health.sessions, health.warm) == ("local", True, 0, 0)
    finally:
        backend.close()


def test_ray_without_ray_installed_names_the_extra(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what Python sees when ray is not installed
    chosen = settings.model_copy(update={"sandbox_backend": "ray", "ray_address": "127.0.0.1:6379"})
    with pytest.raises(ConfigurationError, match=r"pip install 'bunseki\[ray\]'"):
        backends.create(chosen, warm=True)


def test_ray_without_an_address_names_the_setting(settings: Settings) -> None:
    pytest.importorskip("ray")
    with pytest.raises(ConfigurationError, match="BUNSEKI_RAY_ADDRESS"):
        backends.create(settings.model_copy(update={"sandbox_backend": "ray"}), warm=True)


def test_the_choice_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUNSEKI_SANDBOX_BACKEND", "ray")
    monkeypatch.setenv("BUNSEKI_RAY_ADDRESS", "10.0.0.5:6379")
    chosen = Settings()
    assert (chosen.sandbox_backend, chosen.ray_address, chosen.ray_namespace) == ("ray", "10.0.0.5:6379", "bunseki")
