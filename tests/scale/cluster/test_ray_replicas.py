"""The replica tests of ``tests/scale/test_replicas.py`` again, with every replica's sandboxes on the Ray cluster.

Two ``bunseki serve`` processes over one PostgreSQL (this namespace's own) and the test cluster serve the
same sessions through the sessions' actors: state continues across replicas, progress streams from either,
and a replica killed mid-turn loses nothing committed.
"""

from __future__ import annotations

import os

import pytest

from tests.scale.cluster.conftest import LocalCluster
from tests.scale.test_replicas import (  # noqa: F401  (collected here with the Ray backend)
    deployment,
    postgres_url,
    replicas,
    test_a_replica_killed_mid_turn_loses_nothing_committed,
    test_a_session_continues_through_either_replica,
)


@pytest.fixture
def backend(ray_cluster: LocalCluster) -> dict[str, str]:
    return {
        "BUNSEKI_SANDBOX_BACKEND": "ray",
        "BUNSEKI_RAY_ADDRESS": ray_cluster.cluster.address,
        "RAY_AUTH_TOKEN": os.environ["RAY_AUTH_TOKEN"],  # the replicas present the cluster's token
        "RAY_TMPDIR": os.environ["RAY_TMPDIR"],
        "RAY_USAGE_STATS_ENABLED": "0",
    }
