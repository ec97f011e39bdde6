"""The Typer application every command module registers on."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Annotated, Protocol, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from bunseki.errors import BunsekiError, InputError
from bunseki.service import AnalysisService
from bunseki.settings import Settings

app = typer.Typer(
    name="bunseki",
    help="Bunseki (分析): ask questions about your data; every number comes from executed code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

console = Console()
errors = Console(stderr=True)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

WorkspaceRoot = Annotated[
    Path | None, typer.Option("--workspace-root", file_okay=False, help="Where workspaces (and bunseki.db) are.")
]


def fail_usage(message: str) -> typer.Exit:
    """Print a usage error the way Click does and return the exit to raise."""
    errors.print(f"[bold red]Error:[/] {message}", highlight=False)
    return typer.Exit(EXIT_USAGE)


def settings_for(workspace_root: Path | None = None) -> Settings:
    """The environment's settings, with the options a command line may override."""
    settings = Settings()
    if workspace_root is not None:
        settings = settings.model_copy(update={"workspace_root": workspace_root})
    return settings


def print_json(payload: object) -> None:
    import json

    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


class _Closable(Protocol):
    def close(self) -> None: ...


Service = TypeVar("Service", bound=_Closable)


@contextmanager
def opened(
    make: Callable[[Settings], Service], workspace_root: Path | None, *, json_error: dict[str, object] | None = None
) -> Iterator[Service]:
    """A service made for the command line's settings, closed after; a refusal is one line (with
    ``json_error``: that JSON object plus ``error``) and exit status 1 (2 for bad input)."""
    service: Service | None = None
    try:
        service = make(settings_for(workspace_root))
        yield service
    except BunsekiError as exc:
        if json_error is not None:
            print_json(json_error | {"error": f"{type(exc).__name__}: {exc}"})
        else:
            errors.print(f"[bold red]{type(exc).__name__}:[/] {escape(str(exc))}")
        raise typer.Exit(2 if isinstance(exc, InputError) else EXIT_FAILED) from exc
    finally:
        if service is not None:
            service.close()


def open_service(workspace_root: Path | None) -> AbstractContextManager[AnalysisService]:
    """The analysis service, with refusals printed as one line and exit status 1 (2 for bad input)."""
    return opened(AnalysisService, workspace_root)
