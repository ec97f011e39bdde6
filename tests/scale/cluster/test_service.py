"""The analysis service on the Ray backend, as two API replicas run it: neither knows where sandboxes run.

Two services over one store (SQLite on the shared root here; PostgreSQL in a deployment), each with its
own `RayBackend` picked by the settings alone. A session opened through one replica continues through the
other, on the same session actor on a sandbox worker.
"""

from __future__ import annotations

import pandas as pd
import ray

from bunseki.brain.offline import OfflineBrain
from bunseki.samples import SALES_CSV
from bunseki.sandbox.ray_backend import RayBackend, actor_name
from bunseki.service import AnalysisService
from tests.scale.cluster.conftest import LocalCluster


def test_two_replicas_serve_one_session_through_its_actor(ray_cluster: LocalCluster) -> None:
    sales = pd.read_csv(SALES_CSV, encoding="cp932")
    kanto = sales[sales["地域"] == "関東"]
    brain = OfflineBrain()
    a = AnalysisService(ray_cluster.settings(), brains=lambda _spec: brain)
    b = AnalysisService(ray_cluster.settings(), brains=lambda _spec: brain)
    try:
        assert a.sandbox_health().backend == b.sandbox_health().backend == "ray"
        session = a.create_session(SALES_CSV)
        first = a.run_turn(session.id, "売上金額の合計は？")
        assert first.status == "finalized"
        assert f"{sales['売上金額'].sum():,}" in (first.answer or "")

        backend = RayBackend(ray_cluster.settings())
        placed = backend.info(session.id)
        assert placed["node_id"] in ray_cluster.worker_ids()  # never on the head

        assert a.run_turn(session.id, "地域は関東だけにして").status == "finalized"
        follow_up = b.run_turn(session.id, "売上金額の合計は？")  # replica B, after A's filter
        assert follow_up.status == "finalized"
        assert f"{kanto['売上金額'].sum():,}" in (follow_up.answer or "")
        assert backend.info(session.id)["pid"] == placed["pid"]  # the same actor served both replicas

        a.delete_session(session.id)  # deleting the session ends its actor
        named = {entry["name"] for entry in ray.util.list_named_actors(all_namespaces=True)}
        assert actor_name(session.id) not in named
    finally:
        a.close()
        b.close()
