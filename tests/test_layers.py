"""Layers point one way: the interfaces (cli, api, ui) talk to services and the domain, never to the store;
the domain imports nothing of Bunseki but itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bunseki

PACKAGE = Path(bunseki.__file__).parent
INTERFACES = ("cli", "api", "ui")
FORBIDDEN = "bunseki.store"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def store_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Every import in ``source`` (the text of ``module``) that reaches ``bunseki.store``, as written."""
    return imports_of(source, module, (FORBIDDEN,), is_package=is_package)


def imports_of(source: str, module: str, forbidden: tuple[str, ...], *, is_package: bool = False) -> list[str]:
    """Every import in ``source`` (the text of ``module``) that reaches one of ``forbidden``, as written."""

    def reaches(name: str) -> bool:
        return any(name == gone or name.startswith(gone + ".") for gone in forbidden)

    return [line for line, names in resolved_imports(source, module, is_package=is_package) if any(map(reaches, names))]


def resolved_imports(source: str, module: str, *, is_package: bool = False) -> list[tuple[str, list[str]]]:
    """Each import in ``source`` (the text of ``module``), as written, with the absolute names it reaches."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing module's package
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.append((f"line {node.lineno}: {ast.unparse(node)}", names))
    return found


def interface_modules() -> list[Path]:
    return sorted(path for layer in INTERFACES for path in (PACKAGE / layer).rglob("*.py"))


def test_the_interfaces_are_where_they_should_be() -> None:
    modules = interface_modules()
    for layer in INTERFACES:
        assert any(path.is_relative_to(PACKAGE / layer) for path in modules), f"no modules in bunseki/{layer}"


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import bunseki.store", "bunseki.cli.chat"),
        ("import bunseki.store.records as records", "bunseki.cli.chat"),
        ("from bunseki.store import Store", "bunseki.api.schemas"),
        ("from bunseki.store.models import Step", "bunseki.ui.render"),
        ("from bunseki import store", "bunseki.ui.render"),
        ("from ..store import Store", "bunseki.ui.render"),
        ("from ...store.models import User", "bunseki.api.routes.sessions"),
        ("def f():\n    from bunseki.store import Store\n", "bunseki.cli.app"),
        ("if TYPE_CHECKING:\n    from bunseki.store import Store\n", "bunseki.cli.app"),
    ],
)
def test_every_way_of_importing_the_store_is_seen(source: str, module: str) -> None:
    assert store_imports(source, module)


@pytest.mark.parametrize(
    "source",
    [
        "from bunseki.service import AnalysisService",
        "import bunseki.storefront",
        "from bunseki.domain import Step",
        "from . import render",
        "from .store_helpers import x",
    ],
)
def test_other_imports_pass(source: str) -> None:
    assert store_imports(source, "bunseki.cli.chat") == []


def test_no_interface_imports_the_store() -> None:
    offending = {
        _module_name(path): found
        for path in interface_modules()
        if (found := store_imports(path.read_text("utf-8"), _module_name(path), is_package=path.name == "__init__.py"))
    }
    assert offending == {}, "interfaces must use the services and the domain models, not the store: " + repr(offending)


# --- the domain: the bottom package, which every layer uses and which uses none ---

DOMAIN = PACKAGE / "domain"


def bunseki_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Every import in ``source`` (the text of ``module``) that reaches a Bunseki module outside the domain."""

    def outside(name: str) -> bool:
        inside = name == "bunseki.domain" or name.startswith("bunseki.domain.")
        return (name == "bunseki" or name.startswith("bunseki.")) and not inside

    return [line for line, names in resolved_imports(source, module, is_package=is_package) if any(map(outside, names))]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from bunseki.settings import Settings", True),
        ("import bunseki.store", True),
        ("from bunseki import usage", True),
        ("def f():\n    from bunseki.rag import SearchHit\n", True),
        ("from bunseki.domain.usage import TurnUsage", False),
        ("from bunseki.domain import forms", False),
        ("from .forms import Entity", False),
        ("from ..usage import TurnUsage", True),
        ("from pydantic import BaseModel", False),
        ("import json", False),
    ],
)
def test_an_import_from_outside_the_domain_is_seen(source: str, found: bool) -> None:
    assert bool(bunseki_imports(source, "bunseki.domain.sessions")) is found


def test_the_domain_imports_nothing_of_bunseki_but_itself() -> None:
    modules = sorted(DOMAIN.rglob("*.py"))
    assert DOMAIN / "sessions.py" in modules
    offending = {
        _module_name(path): found
        for path in modules
        if (
            found := bunseki_imports(path.read_text("utf-8"), _module_name(path), is_package=path.name == "__init__.py")
        )
    }
    assert offending == {}, f"bunseki.domain is the bottom layer: {offending!r}"


# --- sandbox backends: services and agents hold a SessionSandbox and never learn which backend is behind it ---

BACKENDS = ("bunseki.sandbox.local_backend", "bunseki.sandbox.ray_backend")
FACTORY = "bunseki.sandbox.backends"


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
    assert imports_of(source, "bunseki.service.sessions", BACKENDS)


def test_only_the_factory_names_a_backend() -> None:
    sandbox = PACKAGE / "sandbox"
    offending = {
        _module_name(path): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.is_relative_to(sandbox)
        and (
            found := imports_of(
                path.read_text("utf-8"), _module_name(path), BACKENDS, is_package=path.name == "__init__.py"
            )
        )
    }
    assert offending == {}, f"choose a backend with {FACTORY}.create, not by importing it: {offending!r}"
    factory = (sandbox / "backends.py").read_text("utf-8")
    assert "bunseki.sandbox.local_backend" in factory and "bunseki.sandbox.ray_backend" in factory
