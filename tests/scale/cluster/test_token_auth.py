"""Ray's token authentication (2.60): the test cluster runs with it (see conftest), so every other test
shows the backend admitted with the token; here a driver without it, or with a wrong one, is refused."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.scale.cluster.conftest import LocalCluster

DRIVER = "import sys, ray; ray.init(address=sys.argv[1]); print('connected')"


def _refused(address: str, token: str | None) -> subprocess.CompletedProcess[str]:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("RAY_AUTH")}
    environment["RAY_gcs_server_port_wait_time_s"] = "2"  # give up after 2 tries, not 20
    if token is not None:
        environment |= {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    command = [sys.executable, "-c", DRIVER, address]
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)


def test_a_driver_without_the_token_is_refused(ray_cluster: LocalCluster) -> None:
    driver = _refused(ray_cluster.cluster.address, None)

    assert driver.returncode != 0
    assert "connected" not in driver.stdout
    assert "Failed to connect" in driver.stderr, driver.stderr[-2000:]


def test_a_driver_with_a_wrong_token_is_refused(ray_cluster: LocalCluster) -> None:
    driver = _refused(ray_cluster.cluster.address, "0" * 64)

    assert driver.returncode != 0
    assert "connected" not in driver.stdout
    assert "Failed to connect" in driver.stderr, driver.stderr[-2000:]
