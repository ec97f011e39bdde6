"""The ``bunseki`` command line: a thin layer over the service layer."""

from bunseki.cli import analyze, bench, chat, doctor, eda, kb, run_code, serve, sessions, ui, users  # noqa: F401  (each module registers its commands)
from bunseki.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
