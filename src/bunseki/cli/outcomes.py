"""How a command ends: its exit status and, with ``--format json``, the one JSON error object.

Scripts read two things: the exit status (which kind of outcome) and, in JSON mode, exactly one
JSON object on stdout, errors included. Both are decided here, from the error tree in
`bunseki.errors`, so that every command agrees.

| status | meaning                                                    | errors                                   |
|-------:|------------------------------------------------------------|------------------------------------------|
| 0      | done                                                       |                                          |
| 1      | failed: a run ended in error, the person declined, or a bug | anything outside the tree               |
| 2      | usage: an argument, option or setting is wrong             | ConfigurationError, usage errors         |
| 3      | input: the data, document or question cannot be used       | InputError (DataLoadError, …)            |
| 4      | model: the language model gave no usable answer            | ModelError                               |
| 5      | unavailable: the database, sandbox or vector store failed  | StorageError, SandboxError, KnowledgeBaseError |
| 6      | not found: no such session, snapshot, run or collection    | NotFound, Unauthorized                   |
| 7      | conflict: it clashes with what exists (a name, a file)      | Conflict, SessionBusy                    |
"""

from __future__ import annotations

from typing import Any

import typer

from bunseki.errors import (
    BunsekiError,
    ConfigurationError,
    Conflict,
    InputError,
    KnowledgeBaseError,
    ModelError,
    NotFound,
    SandboxError,
    StorageError,
    Unauthorized,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_MODEL = 4
EXIT_UNAVAILABLE = 5
EXIT_NOT_FOUND = 6
EXIT_CONFLICT = 7

# Most specific first: the first class an error is an instance of decides.
_EXIT_BY_ERROR: tuple[tuple[type[BunsekiError], int], ...] = (
    (ConfigurationError, EXIT_USAGE),
    (InputError, EXIT_INPUT),
    (ModelError, EXIT_MODEL),
    (StorageError, EXIT_UNAVAILABLE),
    (SandboxError, EXIT_UNAVAILABLE),
    (KnowledgeBaseError, EXIT_UNAVAILABLE),
    (NotFound, EXIT_NOT_FOUND),
    (Unauthorized, EXIT_NOT_FOUND),
    (Conflict, EXIT_CONFLICT),
)

# Options that ask a command for machine-readable output.
_JSON_FORMATS = ("json", "jsonl")


class UsageProblem(Exception):
    """The command line is wrong in a way Click cannot check itself (a missing pair, a bad mix)."""


class InternalError(Exception):
    """Stands for an unexpected exception (a bug) in the error object's ``type``."""


def exit_code(error: BaseException) -> int:
    """The exit status for an error that ends a command."""
    if isinstance(error, UsageProblem):
        return EXIT_USAGE
    for kind, code in _EXIT_BY_ERROR:
        if isinstance(error, kind):
            return code
    return EXIT_FAILED


def error_type(error: BaseException) -> str:
    """The name scripts match on: the class of our own errors, ``UsageError`` or ``InternalError``."""
    if isinstance(error, UsageProblem) or getattr(error, "exit_code", None) == EXIT_USAGE:
        return "UsageError"
    if isinstance(error, BunsekiError | typer.TyperException):  # ours, or one Click raised on purpose
        return type(error).__name__
    return InternalError.__name__


def error_message(error: BaseException) -> str:
    formatted = getattr(error, "format_message", None)  # Click's errors keep their text there
    text = str(formatted() if callable(formatted) else error).strip()
    if error_type(error) != InternalError.__name__:
        return text or type(error).__name__
    return f"{type(error).__name__}: {text} (this is a bug in Bunseki; please report it with the command you ran)"


def error_object(error: BaseException, code: int | None = None) -> dict[str, Any]:
    """The JSON object every failed command prints in JSON mode."""
    return {
        "status": "error",
        "error": {
            "type": error_type(error),
            "message": error_message(error),
            "exit_code": exit_code(error) if code is None else code,
        },
    }


def failed_run(payload: dict[str, Any], message: str | None) -> dict[str, Any]:
    """A result whose run ended in error (``status`` "error"), its ``error`` shaped like every
    other error object so that a script reads errors one way; exit status 1."""
    text = message or "the run ended in an error"
    return payload | {"status": "error", "error": {"type": "RunFailed", "message": text, "exit_code": EXIT_FAILED}}


def run_json(payload: dict[str, Any], message: str | None) -> dict[str, Any]:
    """A run's JSON as a command prints it: as it is, or as `failed_run` when its ``status`` is "error"."""
    return failed_run(payload, message) if payload.get("status") == "error" else payload


def wants_json(args: list[str]) -> bool:
    """Whether a command line asks for JSON (``--json``, ``--format json``, ``--format=jsonl``)."""
    for index, arg in enumerate(args):
        if arg == "--":
            return False
        if arg == "--json":
            return True
        if arg.startswith("--format="):
            return arg.removeprefix("--format=") in _JSON_FORMATS
        if arg == "--format" and index + 1 < len(args):
            return args[index + 1] in _JSON_FORMATS
    return False
