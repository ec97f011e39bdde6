"""The deployment files under deploy/: well-formed, the layout README "Scale out" describes, real settings only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import AliasChoices

from bunseki.settings import Settings

REPOSITORY = Path(__file__).resolve().parents[1]
DEPLOY = REPOSITORY / "deploy"
SETTING = re.compile(r"\bBUNSEKI_[A-Z0-9_]+\b")
RAY_PARTS = {"ray-head", "ray-worker-1", "ray-worker-2"}
BUNSEKI_PARTS = {"api-1", "api-2", "ui", *RAY_PARTS}


def documents(path: Path) -> list[dict[str, Any]]:
    return [document for document in yaml.safe_load_all(path.read_text(encoding="utf-8")) if document]


def setting_names() -> set[str]:
    """Every environment variable Settings reads: BUNSEKI_ + the field, or the field's aliases."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    names = set()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names.update(choice for choice in alias.choices if isinstance(choice, str))
        elif isinstance(alias, str):
            names.add(alias)
        else:
            names.add(f"{prefix}{name}".upper())
    return names


def unknown_settings(text: str) -> set[str]:
    """The BUNSEKI_* names in ``text`` that no setting reads (a misspelt one would silently do nothing)."""
    return set(SETTING.findall(text)) - setting_names()


def compose() -> dict[str, Any]:
    (document,) = documents(DEPLOY / "docker-compose.yml")
    return document


def kuberay(kind: str, name: str | None = None) -> dict[str, Any]:
    found = [
        document
        for path in sorted((DEPLOY / "kuberay").glob("*.yaml"))
        for document in documents(path)
        if document["kind"] == kind and name in (None, document["metadata"]["name"])
    ]
    assert len(found) == 1, f"{kind} {name}: {len(found)} found"
    return found[0]


def scale_out_section() -> str:
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    start = readme.index("\n## Scale out")
    end = readme.find("\n## ", start + 1)
    return readme[start : end if end > 0 else len(readme)]


def test_every_yaml_file_parses() -> None:
    files = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])
    assert {path.name for path in files} >= {"docker-compose.yml", "raycluster.yaml", "bunseki.yaml"}
    for path in files:
        assert documents(path), f"{path} holds no document"


def test_only_real_settings_are_named_and_a_misspelt_one_is_caught() -> None:
    texts = {path: path.read_text(encoding="utf-8") for path in DEPLOY.rglob("*") if path.is_file()}
    texts[REPOSITORY / "README.md"] = scale_out_section()
    named = set().union(*(SETTING.findall(text) for text in texts.values()))
    assert {"BUNSEKI_SANDBOX_BACKEND", "BUNSEKI_RAY_ADDRESS", "BUNSEKI_WORKSPACE_ROOT"} <= named
    for path, text in texts.items():
        assert unknown_settings(text) == set(), f"{path} names settings that do not exist"
    # the check can fail: a misspelt name, and a name the settings spell only through an alias
    assert unknown_settings("BUNSEKI_RAY_ADRESS: head:6379\nBUNSEKI_RAY_ADDRESS: x") == {"BUNSEKI_RAY_ADRESS"}
    assert "QDRANT_URL" in setting_names() and unknown_settings("BUNSEKI_QDRANT_URL=x BUNSEKI_OPENAI_KEY=y") == {
        "BUNSEKI_OPENAI_KEY"
    }


def test_compose_has_the_scale_out_layout() -> None:
    services = compose()["services"]
    assert set(services) == {"lb", "postgres", "qdrant", *BUNSEKI_PARTS}
    assert services["api-1"]["command"][:2] == services["api-2"]["command"][:2] == ["bunseki", "serve"]
    assert services["ui"]["command"][:2] == ["bunseki", "ui"]
    # one address from outside: the load balancer's, on loopback unless changed
    published = {name: service["ports"] for name, service in services.items() if "ports" in service}
    assert list(published) == ["lb"] and all(port.startswith("127.0.0.1:") for port in published["lb"])
    nginx = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    assert set(re.findall(r"server (\S+):\d+", nginx)) == {"api-1", "api-2", "ui"}
    assert "proxy_buffering off" in nginx  # progress events stream through


def test_compose_runs_sessions_on_ray_workers_over_shared_storage() -> None:
    services = compose()["services"]
    root = services["api-1"]["environment"]["BUNSEKI_WORKSPACE_ROOT"]
    for name in BUNSEKI_PARTS:
        environment = services[name]["environment"]
        assert environment["BUNSEKI_SANDBOX_BACKEND"] == "ray" and environment["BUNSEKI_WORKSPACE_ROOT"] == root
        assert environment["RAY_AUTH_MODE"] == "token" and environment["RAY_USAGE_STATS_ENABLED"] == "0"
        assert "secrets.env" in services[name]["env_file"]  # RAY_AUTH_TOKEN, never in the file itself
        assert f"workspace:{root}" in services[name]["volumes"]  # the same volume at the same path everywhere
    assert services["api-1"]["environment"]["BUNSEKI_RAY_ADDRESS"].split(":")[0] == "ray-head"
    assert "RAY_AUTH_TOKEN=" in (DEPLOY / "secrets.env.example").read_text(encoding="utf-8")
    for name in RAY_PARTS:
        command = services[name]["command"]
        assert command[:2] == ["ray", "start"] and "--disable-usage-stats" in command
    assert sandbox_slots(services["ray-head"]["command"]) == 0  # the head runs no session
    workers = [sandbox_slots(services[name]["command"]) for name in ("ray-worker-1", "ray-worker-2")]
    assert workers == [20, 20]
    assert compose()["networks"]["backend"]["internal"] is True
    for name in ("postgres", "qdrant", *RAY_PARTS):
        assert services[name]["networks"] == ["backend"]  # no way out, no way in but from the others


def sandbox_slots(command: list[str]) -> int:
    flags = [part.removeprefix("--resources=") for part in command if part.startswith("--resources=")]
    return int(json.loads(flags[0]).get("bunseki_sandbox", 0)) if flags else 0


def test_the_raycluster_puts_sessions_on_the_worker_group_only() -> None:
    cluster = kuberay("RayCluster")
    head = cluster["spec"]["headGroupSpec"]
    assert "resources" not in head["rayStartParams"] and head["rayStartParams"]["num-cpus"] == "0"
    (group,) = cluster["spec"]["workerGroupSpecs"]
    advertised = json.loads(json.loads(group["rayStartParams"]["resources"]))  # KubeRay's quoted JSON
    assert advertised == {"bunseki_sandbox": 20}
    assert group["minReplicas"] >= 2
    pods = [head["template"]["spec"], group["template"]["spec"]]
    for pod in pods:
        for container in pod["containers"]:
            environment = {item["name"]: item for item in container["env"]}
            assert environment["RAY_AUTH_MODE"]["value"] == "token"
            assert environment["RAY_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"]["name"] == "bunseki-secrets"


def test_the_workspace_is_one_read_write_many_volume_at_one_path() -> None:
    claim = kuberay("PersistentVolumeClaim", "bunseki-workspace")
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    root = kuberay("ConfigMap", "bunseki-settings")["data"]["BUNSEKI_WORKSPACE_ROOT"]
    (group,) = kuberay("RayCluster")["spec"]["workerGroupSpecs"]
    pods = [group["template"]["spec"]] + [
        kuberay("Deployment", name)["spec"]["template"]["spec"] for name in ("bunseki-api", "bunseki-ui")
    ]
    for pod in pods:
        volumes = {volume["name"]: volume for volume in pod["volumes"]}
        for container in pod["containers"]:
            (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == root]
            assert volumes[mount["name"]]["persistentVolumeClaim"]["claimName"] == "bunseki-workspace"


def test_the_api_deployment_reaches_the_cluster_through_its_head_service() -> None:
    api = kuberay("Deployment", "bunseki-api")
    assert api["spec"]["replicas"] == 2
    (container,) = api["spec"]["template"]["spec"]["containers"]
    assert container["command"][:2] == ["bunseki", "serve"]
    assert [source["configMapRef"]["name"] for source in container["envFrom"]] == ["bunseki-settings"]
    settings = kuberay("ConfigMap", "bunseki-settings")["data"]
    assert settings["BUNSEKI_SANDBOX_BACKEND"] == "ray" and settings["RAY_AUTH_MODE"] == "token"
    head = f"{kuberay('RayCluster')['metadata']['name']}-head-svc"  # the service KubeRay makes for the head
    assert settings["BUNSEKI_RAY_ADDRESS"].split(":")[0] == head
    service = kuberay("Service", "bunseki-api")
    assert service["spec"]["selector"].items() <= api["spec"]["template"]["metadata"]["labels"].items()
    policy = kuberay("NetworkPolicy", "bunseki-ray")
    sources = [rule["podSelector"]["matchLabels"] for rule in policy["spec"]["ingress"][0]["from"]]
    assert sources and all(selector.items() <= labels_of_a_peer(selector).items() for selector in sources)


def labels_of_a_peer(selector: dict[str, str]) -> dict[str, str]:
    """The labels of the pod a NetworkPolicy source is meant to select: a Bunseki pod or a Ray pod."""
    if "ray.io/cluster" in selector:
        return {"ray.io/cluster": kuberay("RayCluster")["metadata"]["name"]}
    return dict(kuberay("Deployment", "bunseki-api")["spec"]["template"]["metadata"]["labels"])


@pytest.mark.parametrize(
    "name",
    [
        "BUNSEKI_SANDBOX_BACKEND",
        "BUNSEKI_RAY_ADDRESS",
        "BUNSEKI_RAY_NAMESPACE",
        "BUNSEKI_SESSION_IDLE_S",
        "BUNSEKI_DATABASE_URL",
        "QDRANT_URL",
        "BUNSEKI_WORKSPACE_ROOT",
        "RAY_AUTH_TOKEN",
    ],
)
def test_the_readme_scale_out_section_names_the_settings(name: str) -> None:
    assert name in scale_out_section()
