"""The Typer application every command module registers on."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from bunseki.cli.outcomes import EXIT_FAILED as EXIT_FAILED
from bunseki.cli.outcomes import EXIT_OK as EXIT_OK
from bunseki.cli.outcomes import EXIT_USAGE as EXIT_USAGE
from bunseki.cli.outcomes import UsageProblem, error_object, exit_code, wants_json
from bunseki.errors import BunsekiError
from bunseki.service import AnalysisService
from bunseki.settings import Settings

console = Console()
errors = Console(stderr=True)


class OneOutcomeGroup(TyperGroup):
    """Every command ends the same way: an error is one line on stderr (with ``--json`` or
    ``--format json``: one JSON error object on stdout) and an exit status that tells its kind
    (`bunseki.cli.outcomes`); never a traceback."""

    def invoke(self, ctx: Any) -> Any:  # Any: Typer vendors its own Click
        as_json = wants_json([*getattr(ctx, "_protected_args", []), *ctx.args])
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except typer.TyperException as exc:  # Click's own usage errors: Click prints them unless JSON is wanted
            if not as_json:
                raise
            print_json(error_object(exc, exc.exit_code), one_line=True)
            raise typer.Exit(exc.exit_code) from exc
        except Exception as exc:
            if not isinstance(exc, BunsekiError | UsageProblem):  # a bug: keep its traceback for whoever logs
                logging.getLogger("bunseki.cli").debug("unexpected error", exc_info=exc)
            raise report(exc, as_json=as_json) from exc


def report(exc: BaseException, *, as_json: bool) -> typer.Exit:
    """Print an error the one way (a line, or the JSON error object) and return the exit to raise."""
    shown = error_object(exc)
    if as_json:
        print_json(shown, one_line=True)  # one line: also a valid line of JSONL (--format jsonl)
    elif isinstance(exc, UsageProblem):
        errors.print(f"[bold red]Error:[/] {escape(shown['error']['message'])}", highlight=False, soft_wrap=True)
    else:
        errors.print(
            f"[bold red]{shown['error']['type']}:[/] {escape(shown['error']['message'])}",
            highlight=False,
            soft_wrap=True,
        )
    return typer.Exit(exit_code(exc))


app = typer.Typer(
    cls=OneOutcomeGroup,
    name="bunseki",
    help="Bunseki (分析): ask questions about your data; every number comes from executed code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

WorkspaceRoot = Annotated[
    Path | None, typer.Option("--workspace-root", file_okay=False, help="Where workspaces (and bunseki.db) are.")
]
Model = Annotated[str | None, typer.Option("--model", help="provider:model (default: BUNSEKI_MODEL or offline).")]
OutputFormat = Annotated[str, typer.Option("--format", help="markdown or json.")]


def fail_usage(message: str) -> UsageProblem:
    """A usage error to raise: printed as ``Error: message`` (or the JSON error object), exit status 2."""
    return UsageProblem(message)


def markdown_or_json(output_format: str) -> Literal["markdown", "json"]:
    """The ``--format`` given, refused as a usage error unless it is markdown or json."""
    if output_format == "json":
        return "json"
    if output_format != "markdown":
        raise fail_usage("--format must be markdown or json")
    return "markdown"


def settings_for(workspace_root: Path | None = None) -> Settings:
    """The environment's settings, with the options a command line may override."""
    settings = Settings()
    if workspace_root is not None:
        settings = settings.model_copy(update={"workspace_root": workspace_root})
    return settings


def print_json(payload: object, *, one_line: bool = False) -> None:
    import json

    indent = None if one_line else 2
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=indent, default=str) + "\n")


class _Closable(Protocol):
    def close(self) -> None: ...


Service = TypeVar("Service", bound=_Closable)


@contextmanager
def opened(make: Callable[[Settings], Service], workspace_root: Path | None) -> Iterator[Service]:
    """A service made for the command line's settings, closed after; a refusal reaches the
    application's one error handler (`OneOutcomeGroup`)."""
    service = make(settings_for(workspace_root))
    try:
        yield service
    finally:
        service.close()


def open_service(workspace_root: Path | None) -> AbstractContextManager[AnalysisService]:
    """The analysis service for the command line's settings."""
    return opened(AnalysisService, workspace_root)
