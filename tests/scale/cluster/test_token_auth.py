"""Ray's token authentication (2.60): the test cluster runs with it (see conftest), so every other test
shows the backend admitted with the token; here a driver without it, or with a wrong one, is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from subprocess import PIPE

from tests.scale.cluster.conftest import LocalCluster

DRIVER = "import sys, ray; ray.init(address=sys.argv[1]); print('connected')"


def _drivers(address: str, tokens: list[str | None]) -> list[tuple[int, str, str]]:
    """Drivers presenting each of ``tokens`` (None: no token at all), run at once: (exit code, stdout, stderr)."""
    started = []
    for token in tokens:
        environment = {name: value for name, value in os.environ.items() if not name.startswith("RAY_AUTH")}
        environment["RAY_gcs_server_port_wait_time_s"] = "2"  # give up after 2 tries, not 20
        if token is not None:
            environment |= {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
        command = [sys.executable, "-c", DRIVER, address]
        started.append(subprocess.Popen(command, stdout=PIPE, stderr=PIPE, text=True, env=environment))
    outcomes = []
    for driver in started:
        stdout, stderr = driver.communicate(timeout=300)
        outcomes.append((driver.returncode, stdout, stderr))
    return outcomes


def test_a_driver_without_the_token_or_with_a_wrong_one_is_refused(ray_cluster: LocalCluster) -> None:
    outcomes = _drivers(ray_cluster.cluster.address, [None, "0" * 64])

    for returncode, stdout, stderr in outcomes:
        assert returncode != 0
        assert "connected" not in stdout
        assert "Failed to connect" in stderr, stderr[-2000:]
