"""Every error Bunseki raises on purpose, in one tree.

Messages say what happened and what to do next, because they reach people (CLI, API, UI)
and, for analysis failures, language models that retry.

```
BunsekiError
├── ConfigurationError          a setting is wrong or something the setting needs is missing
├── InputError                  what the person handed us cannot be used
│   ├── DataLoadError           a data file is empty, binary, truncated, ragged or unsupported
│   │   └── UnsupportedFileType a file type Bunseki does not read (by its name)
│   ├── DocumentReadError       a document for a knowledge base cannot be read (type, encoding, damage)
│   ├── UploadTooLarge          an uploaded file is over the configured size cap
│   ├── CaseArchiveError        an uploaded case archive has a member that escapes it or a link; no manifest
│   ├── QuestionTooLong         a question is over the configured length cap
│   └── ToolRetry               a data tool got arguments that cannot work; says which would
├── Unauthorized                no API key, or one that is not valid (any more)
├── NotFound                    no such session, snapshot, report, user or collection (for this person)
├── Conflict                    the request clashes with the current state
│   ├── SessionBusy             a turn of this session is already running
│   └── SnapshotNameTaken       the session already has a snapshot of that name
├── KnowledgeBaseError          Qdrant (embedded, or the server at QDRANT_URL) cannot be used
├── SandboxError                the sandbox itself (not the code in it) failed
│   ├── IsolationUnavailable    no isolation tier works here and unsafe mode is not enabled
│   └── SandboxStartError       the sandbox worker did not come up
└── ModelError                  the language model could not give a usable answer
    ├── ModelRequestError       the request failed (network, authentication, quota, timeout)
    │   └── ModelTimeoutError   the server did not answer in time, or the turn's time limit ran out
    └── ModelOutputError        the answer did not fit the expected structure, even after a retry
```

A cell that fails (an exception, a limit, a policy violation) is not an error of this tree: it is
an `ExecutionResult` with `success=False`, because the agent loop feeds it back to the model.
Third-party exceptions are translated into these classes once, where they cross our boundary.
"""

from __future__ import annotations


class BunsekiError(Exception):
    """Root of every error Bunseki raises on purpose."""


class ConfigurationError(BunsekiError):
    """A setting is invalid, or something a setting refers to is missing."""


class InputError(BunsekiError):
    """Input from the person (a file, an argument) cannot be used as given."""


class DataLoadError(InputError):
    """A data file could not be read into a table; the message says why and what to try."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class UnsupportedFileType(DataLoadError):
    """The file's type (by its extension) is not one Bunseki reads; the message lists those it does."""


class DocumentReadError(InputError):
    """A document could not be read into a knowledge base; the message says why and what to try."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class UploadTooLarge(InputError):
    """An uploaded file is larger than BUNSEKI_MAX_UPLOAD_MB."""


class CaseArchiveError(InputError):
    """An uploaded case archive cannot be unpacked safely (the message names the member and why), or
    holds no manifest."""


class QuestionTooLong(InputError):
    """A question is longer than BUNSEKI_MAX_QUESTION_CHARS; refused before any work starts."""


class ToolRetry(InputError):
    """A data tool was called with arguments that cannot work.

    The message names the valid choices (columns, operators) so that a model can call again.
    """


class Unauthorized(BunsekiError):
    """No API key was given, or it is not a valid one (unknown or revoked)."""


class NotFound(BunsekiError):
    """No such session, snapshot, report, user or collection, or not one the caller may see."""


class Conflict(BunsekiError):
    """The request clashes with the current state of what it addresses."""


class SessionBusy(Conflict):
    """A turn of this session is already running; turns of one session never overlap."""


class SnapshotNameTaken(Conflict):
    """The session already has a snapshot of this name; names are unique so a restore by name is unambiguous."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"「{name}」という名前のスナップショットはすでにあります / this session already has a snapshot "
            f"named '{name}': choose another name, or delete that snapshot first"
        )
        self.name = name


class StorageError(BunsekiError):
    """The database cannot be reached or used (BUNSEKI_DATABASE_URL, the server, the disk)."""


class KnowledgeBaseError(BunsekiError):
    """The vector store cannot be used: the server is unreachable or refuses, the embedded store is
    locked by another process, or a collection was built by an incompatible pipeline."""


class KnowledgeBaseLocked(KnowledgeBaseError):
    """The embedded knowledge base (Qdrant in the workspace root) is open in another process; embedded
    Qdrant allows one process at a time, so stop the other one or share a Qdrant server (QDRANT_URL)."""


class SandboxError(BunsekiError):
    """The sandbox machinery failed, as opposed to the code that ran in it."""


class IsolationUnavailable(SandboxError):
    """No isolation tier works on this machine and the unsafe local mode was not enabled."""


class SandboxStartError(SandboxError):
    """The sandbox worker process did not start or did not report ready in time."""


class SandboxLost(SandboxError):
    """The machine running the session's sandbox was lost while a cell ran: the session was restored to
    before that step; ask again.
    セッションを実行していたマシンが失われました。その手順の前の状態に戻したので、もう一度質問してください。"""

    MESSAGE = (
        "The machine running this session was lost while a cell ran; the session was restored to before that "
        "step, so please ask again. / セッションを実行していたマシンが失われました。その手順の前の状態に"
        "戻したので、もう一度質問してください。"
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.MESSAGE)


class SandboxFenced(SandboxError):
    """A newer instance of this session's sandbox has started elsewhere, so this one may no longer write
    the session's state (an old instance on a cut-off node)."""


class ModelError(BunsekiError):
    """The language model could not give a usable answer."""


class ModelRequestError(ModelError):
    """A request to the model failed: network, authentication, quota or timeout."""


class ModelTimeoutError(ModelRequestError):
    """The model did not answer within BUNSEKI_LLM_TIMEOUT_S, or the turn's deadline
    (BUNSEKI_TURN_DEADLINE_S) passed before another call could start."""


class ModelOutputError(ModelError):
    """The model's answer did not fit the expected structure, even after asking again."""
