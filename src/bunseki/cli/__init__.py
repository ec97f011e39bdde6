"""The ``bunseki`` command line: a thin layer over the service layer."""

from bunseki.cli import (  # noqa: F401  (each module registers its commands)
    analyze,
    bench,
    chat,
    doctor,
    eda,
    investigate,
    kb,
    run_code,
    serve,
    sessions,
    ui,
    users,
)
from bunseki.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
