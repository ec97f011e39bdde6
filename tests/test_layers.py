"""Layers point one way: interfaces → service → agents → brains → blocks → config → domain.

A module may import its own layer and the layers below it, with these limits. The interfaces (cli,
api, ui) go through the service and never past it: below the service they see only the
configuration and the domain. One agent's graph or brain never imports another agent's. One block
imports another only where the pair is listed in `BLOCK_IMPORTS`, with the reason it is meant. The
domain, at the bottom, imports nothing of Bunseki but itself. And no module reaches itself again
through its imports: no cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import bunseki

PACKAGE = Path(bunseki.__file__).parent

# Highest first. Each layer is the packages and modules directly under bunseki that make it up.
LAYERS: dict[str, tuple[str, ...]] = {
    "interfaces": ("cli", "api", "ui", "__main__"),
    "service": ("service",),
    "agents": ("agents",),
    "brains": ("brain",),
    "blocks": (
        "sandbox",
        "tools",
        "data",
        "rag",
        "report",
        "store",
        "llm",
        "investigation",
        "state",
        "tracing",
        "deadline",
        "http_retry",
        "owners",
        "samples",
    ),
    "config": ("settings", "errors"),
    "domain": ("domain",),
}
# What the interfaces may import besides the service, the domain and the configuration.
INTERFACE_IMPORTS: dict[tuple[str, str], str] = {
    ("__main__", "cli"): "``python -m bunseki`` is the command line",
    ("cli", "api"): "`bunseki serve` runs the API's app",
    ("cli", "ui"): "`bunseki ui` starts the web UI",
}
# The block-to-block imports that are meant, each with why.
BLOCK_IMPORTS: dict[tuple[str, str], str] = {
    ("rag", "data"): "a document that is a table is read by the one data loader",
    ("report", "data"): "a report's notebook loads the original file the way the loader did",
    ("investigation", "rag"): "a case's specifications and code are indexed and searched as knowledge bases",
    ("state", "data"): "the data a session works on is a loaded table and its summary",
    ("state", "tools"): "a session's data changes through the data tools",
    ("state", "sandbox"): "snapshots are kept in the workspace's read-only snapshot directory",
    ("sandbox", "store"): "a Ray actor on another machine takes its fencing epoch from the shared database",
    ("sandbox", "owners"): "a sandbox names the process that owns a session's cell",
    ("llm", "deadline"): "a model call gets the time left of its turn",
    ("llm", "http_retry"): "model calls go through the retrying HTTP transport",
    ("http_retry", "deadline"): "a retry never waits past the turn's deadline",
}
# The package itself: its public API imports its homes lazily (``bunseki.__getattr__``).
EXEMPT = {"bunseki"}


def _unit(module: str) -> str:
    """The package or module directly under bunseki that ``module`` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


AGENTS = frozenset({"analyst", "eda", "investigator", "knowledge"})
LAYER_OF = {unit: layer for layer, units in LAYERS.items() for unit in units}
RANK = {layer: rank for rank, layer in enumerate(LAYERS)}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (a submodule where ``from package import submodule``)
    line: int
    text: str


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_in(
    source: str, module: str, *, is_package: bool = False, modules: frozenset[str] = frozenset()
) -> list[Import]:
    """Every import of a bunseki module in ``source`` (the text of ``module``), wherever it stands;
    imports only made for type checking (under ``if TYPE_CHECKING:``) are left out."""
    tree = ast.parse(source)
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing module's package
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from bunseki import store`` imports a package; ``from package import submodule``, the submodule
            targets = [
                f"{base}.{alias.name}" if base == "bunseki" or f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in dict.fromkeys(targets):
            if target == "bunseki" or target.startswith("bunseki."):
                found.append(Import(module, target, node.lineno, ast.unparse(node)))
    return found


def package_modules() -> dict[str, Path]:
    inside = PACKAGE / "sandbox" / "inside"  # runs in the sandbox, importing its siblings by name
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if not path.is_relative_to(inside)}


def all_imports() -> Iterator[Import]:
    modules = package_modules()
    names = frozenset(modules)
    for module, path in modules.items():
        if module not in EXEMPT:
            yield from imports_in(path.read_text("utf-8"), module, is_package=path.name == "__init__.py", modules=names)


def breach(found: Import) -> str | None:
    """Why ``found`` breaks the layer order, or None when it keeps it."""
    source, target = _unit(found.module), _unit(found.target)
    if not target:
        return None
    if source == target and LAYER_OF.get(source) not in ("agents", "brains"):
        return None
    if source not in LAYER_OF:
        return f"bunseki.{source} is in no layer: add it to LAYERS"
    if target not in LAYER_OF:
        return f"bunseki.{target} is in no layer: add it to LAYERS"
    above, below = LAYER_OF[source], LAYER_OF[target]
    if RANK[below] < RANK[above]:
        return f"{above} must not import {below}, a layer above it"
    if above == "interfaces":
        if below in ("service", "config", "domain") or (source, target) in INTERFACE_IMPORTS:
            return None
        return f"interfaces go through the service, not into {below} (bunseki.{target})"
    if above == below == "blocks" and (source, target) not in BLOCK_IMPORTS:
        return f"block bunseki.{source} imports block bunseki.{target}: move it, or list the pair in BLOCK_IMPORTS"
    if above == below in ("agents", "brains"):
        mine, theirs = _agent(found.module), _agent(found.target)
        if mine and theirs and mine != theirs:
            return f"{mine}'s {above} must not import {theirs}'s"
    return None


def _agent(module: str) -> str | None:
    """The agent whose graph or brain ``module`` belongs to (None for what the brains share)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in AGENTS else None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other through their imports (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(edges.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


# --- the checks themselves ---


def test_every_package_is_in_a_layer() -> None:
    units = {_unit(module) for module in package_modules()} - {""}
    assert units - set(LAYER_OF) == set(), "add these to LAYERS"
    assert set(LAYER_OF) - units == set(), "LAYERS names packages that do not exist"


def test_the_layers_point_one_way() -> None:
    offending = [f"{i.module}:{i.line}: {i.text}  — {why}" for i in all_imports() if (why := breach(i))]
    assert offending == [], "\n".join(offending)


def test_every_listed_block_import_is_used() -> None:
    used = {(_unit(i.module), _unit(i.target)) for i in all_imports()}
    assert set(BLOCK_IMPORTS) - used == set(), "remove pairs no module imports any more"
    assert set(INTERFACE_IMPORTS) - used == set(), "remove pairs no module imports any more"


def test_no_module_reaches_itself_through_its_imports() -> None:
    edges: dict[str, set[str]] = {}
    for found in all_imports():
        if found.target != found.module and found.target in package_modules():
            edges.setdefault(found.module, set()).add(found.target)
    assert cycles(edges) == []


# --- the checks can fail: each rule on imports written for it ---

MODULES = frozenset({"bunseki.sandbox.workspace", "bunseki.store.records"})


def _breaches(source: str, module: str) -> list[str | None]:
    return [breach(i) for i in imports_in(source, module, modules=MODULES)]


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import bunseki.store", "bunseki.cli.chat"),
        ("import bunseki.store.records as records", "bunseki.cli.chat"),
        ("from bunseki.store import SessionRecord", "bunseki.api.schemas"),
        ("from bunseki import store", "bunseki.ui.render"),
        ("from ..store import Store", "bunseki.ui.render"),
        ("from ...store.records import UserRecord", "bunseki.api.routes.sessions"),
        ("def f():\n    from bunseki.sandbox import Sandbox\n", "bunseki.cli.app"),
        ("from bunseki.brain.streaming import streaming_answer", "bunseki.ui.turns"),
        ("from bunseki.service import AnalysisService", "bunseki.agents.analyst.nodes"),
        ("from bunseki.agents.eda import build", "bunseki.brain.eda.llm"),
        ("from bunseki.brain.analyst.contract import AnalystView", "bunseki.sandbox.session"),
        ("from bunseki.store import Store", "bunseki.domain.sessions"),
        ("from bunseki.settings import ModelPrice", "bunseki.domain.usage"),
        ("from bunseki.errors import NotFound", "bunseki.domain.knowledge"),
        ("from bunseki.brain.analyst.offline import OfflineAnalystBrain", "bunseki.brain.eda.offline.plan"),
        ("from bunseki.rag import KnowledgeBase", "bunseki.data.load"),
        ("from bunseki.agents.eda import build", "bunseki.agents.analyst.graph"),
        ("import bunseki.nowhere", "bunseki.data.load"),
    ],
)
def test_a_breach_is_seen_however_it_is_written(source: str, module: str) -> None:
    assert [why for why in _breaches(source, module) if why], source


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from bunseki.service import AnalysisService", "bunseki.cli.chat"),
        ("from bunseki.domain import Language", "bunseki.ui.texts"),
        ("from bunseki.errors import BunsekiError", "bunseki.api.errors"),
        ("from bunseki.api.app import create_app", "bunseki.cli.serve"),
        ("from . import render", "bunseki.ui.app"),
        ("from bunseki.data import load_table", "bunseki.rag.readers"),
        ("from bunseki.sandbox import workspace", "bunseki.state"),
        ("from bunseki.brain.eda.contract import EdaView", "bunseki.agents.eda.nodes"),
        ("from bunseki.store import Store", "bunseki.service.sessions"),
        ("if TYPE_CHECKING:\n    from bunseki.store import Store\n", "bunseki.cli.app"),
    ],
)
def test_what_keeps_the_order_passes(source: str, module: str) -> None:
    assert _breaches(source, module) == [None] * len(_breaches(source, module))


def test_a_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# --- sandbox backends: services and agents hold a SessionSandbox and never learn which backend is behind it ---

BACKENDS = ("bunseki.sandbox.local_backend", "bunseki.sandbox.ray_backend")
FACTORY = "bunseki.sandbox.backends"


def backend_imports(source: str, module: str) -> list[str]:
    """The imports in ``source`` (the text of ``module``) that name a sandbox backend's module."""
    found = imports_in(source, module, modules=frozenset(BACKENDS))
    return [i.text for i in found if any(i.target == b or i.target.startswith(b + ".") for b in BACKENDS)]


@pytest.mark.parametrize(
    "source",
    [
        "from bunseki.sandbox.local_backend import LocalBackend",
        "import bunseki.sandbox.ray_backend",
        "from bunseki.sandbox import local_backend",
        "from ..sandbox.ray_backend import RayBackend",
    ],
)
def test_every_way_of_importing_a_backend_is_seen(source: str) -> None:
    assert backend_imports(source, "bunseki.service.sessions")


def test_only_the_factory_names_a_backend() -> None:
    sandbox = PACKAGE / "sandbox"
    offending = {
        module: found
        for module, path in package_modules().items()
        if not path.is_relative_to(sandbox) and (found := backend_imports(path.read_text("utf-8"), module))
    }
    assert offending == {}, f"choose a backend with {FACTORY}.create, not by importing it: {offending!r}"
    factory = (sandbox / "backends.py").read_text("utf-8")
    assert "bunseki.sandbox.local_backend" in factory and "bunseki.sandbox.ray_backend" in factory
