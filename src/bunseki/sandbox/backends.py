"""The one place a sandbox backend is chosen (``BUNSEKI_SANDBOX_BACKEND``); nothing else names one.

The Ray backend is imported only when chosen, so a default install never needs Ray.
"""

from __future__ import annotations

import importlib.util

from bunseki.errors import ConfigurationError
from bunseki.sandbox.backend import SandboxBackend
from bunseki.settings import Settings


def create(settings: Settings, *, warm: bool) -> SandboxBackend:
    """The backend the settings name. ``warm``: keep started sandboxes for new sessions (servers)."""
    if settings.sandbox_backend == "local":
        from bunseki.sandbox.local_backend import LocalBackend

        return LocalBackend(settings, warm=warm)
    if importlib.util.find_spec("ray") is None:
        raise ConfigurationError(
            "BUNSEKI_SANDBOX_BACKEND=ray needs Ray, which is not installed: run pip install 'bunseki[ray]' "
            "(or set BUNSEKI_SANDBOX_BACKEND=local to run sandboxes on this machine)"
        )
    if not settings.ray_address:
        raise ConfigurationError(
            "BUNSEKI_SANDBOX_BACKEND=ray needs the cluster's address: set BUNSEKI_RAY_ADDRESS to the Ray head's "
            "host:port (and RAY_AUTH_TOKEN when the cluster uses token authentication)"
        )
    from bunseki.sandbox.ray_backend import RayBackend  # imports Ray: only this branch may load it

    return RayBackend(settings)
