"""The sandboxed code executor: one warm, isolated worker per session.

See `Sandbox` for the controller, `isolation` for the tiers, `policy` for the static check and
``inside/`` for the code that runs in the sandbox; a cell's result is `bunseki.domain.ExecutionResult`.
"""

from bunseki.sandbox.isolation import probe, require
from bunseki.sandbox.models import IsolationReport, Limits
from bunseki.sandbox.pool import PoolStats, SandboxPool
from bunseki.sandbox.session import Sandbox
from bunseki.sandbox.workspace import add_data_file, new_workspace, remove_workspace

__all__ = [
    "IsolationReport",
    "Limits",
    "PoolStats",
    "Sandbox",
    "SandboxPool",
    "add_data_file",
    "new_workspace",
    "probe",
    "remove_workspace",
    "require",
]
