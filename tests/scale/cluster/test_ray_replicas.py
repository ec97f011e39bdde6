"""The replica tests of ``tests/scale/test_replicas.py`` again, with every replica's sandboxes on the Ray cluster.

Two ``bunseki serve`` processes over one PostgreSQL (this namespace's own) and the test cluster serve the
same sessions through the sessions' actors: state continues across replicas, progress streams from either,
and a replica killed mid-turn loses nothing committed. What only Ray has is checked here too: neither
replica knows where sandboxes run, both reach the one actor of a session on a sandbox worker, and
deleting the session through either ends that actor.
"""

from __future__ import annotations

import os

import httpx
import pytest
import ray

from bunseki.samples import SALES_CSV
from bunseki.sandbox.ray_backend import RayBackend, actor_name
from tests.scale.cluster.conftest import LocalCluster
from tests.scale.replicas_support import Replica
from tests.scale.test_replicas import (  # noqa: F401  (collected here with the Ray backend)
    api_key,
    deployment,
    postgres_url,
    replicas,
    test_a_replica_killed_mid_turn_loses_nothing_committed,
    test_a_session_continues_through_either_replica,
)

pytestmark = pytest.mark.timeout(900)  # the module's replicas start in its first test: slow on a loaded machine


@pytest.fixture(scope="module")
def backend(ray_cluster: LocalCluster) -> dict[str, str]:
    return {
        "BUNSEKI_SANDBOX_BACKEND": "ray",
        "BUNSEKI_RAY_ADDRESS": ray_cluster.cluster.address,
        "RAY_AUTH_TOKEN": os.environ["RAY_AUTH_TOKEN"],  # the replicas present the cluster's token
        "RAY_TMPDIR": os.environ["RAY_TMPDIR"],
        "RAY_USAGE_STATS_ENABLED": "0",
        # A replica killed mid-cell leaves its cell running in the session's actor. The replica that
        # finds the turn interrupted stops that cell (abandon); were it left to this limit, the next
        # question (which waits behind it in the actor) would outlast the client's 180 s and fail.
        "BUNSEKI_SANDBOX_TIMEOUT_S": "600",
    }


def test_both_replicas_reach_the_one_actor_of_a_session_and_deleting_it_ends_the_actor(
    replicas: tuple[Replica, Replica],  # noqa: F811  (the fixture imported above)
    ray_cluster: LocalCluster,
) -> None:
    a, b = replicas
    for replica in (a, b):  # the settings alone chose the backend
        assert httpx.get(f"{replica.url}/health", timeout=60).json()["sandbox_backend"]["backend"] == "ray"
    session = a.upload(SALES_CSV)
    assert a.ask(session, "地域は関東だけにして")["status"] == "finalized"
    backend = RayBackend(ray_cluster.settings())
    placed = backend.info(session)
    assert placed["node_id"] in ray_cluster.worker_ids()  # never on the head

    assert b.ask(session, "売上金額の合計は？")["status"] == "finalized"
    assert backend.info(session)["pid"] == placed["pid"]  # the same actor served both replicas

    assert b.request("DELETE", f"/{session}").status_code == 204
    named = {entry["name"] for entry in ray.util.list_named_actors(all_namespaces=True)}
    assert actor_name(session) not in named
