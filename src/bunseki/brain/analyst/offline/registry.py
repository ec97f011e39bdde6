"""Every task the offline analyst plans, one registered object each: the code that computes it and the
conclusion that states what that code printed.

The code lives in ``codegen`` and the conclusion in ``answer``, next to the helpers each shares with
its neighbours; each registers itself here with ``writes`` or ``concludes``. ``kind`` hands out the
task's object, and refuses one that lacks either half, so a task is never planned that cannot be
computed or stated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar, get_args

from bunseki.brain.analyst.offline.plan import Plan, Task
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

Code = Callable[[Plan, DataFrameInfo], list[str]]  # the lines that compute the task's ``result`` dict
Conclusion = Callable[[Plan, dict[str, Any], Language], str]  # the sentence that states ``result``
_F = TypeVar("_F", bound=Callable[..., Any])


@dataclass(frozen=True)
class TaskKind:
    """One task: its code and its conclusion."""

    name: Task
    code: Code
    conclusion: Conclusion


@dataclass
class _Halves:
    code: Code | None = None
    conclusion: Conclusion | None = None


_REGISTERED: Final[dict[Task, _Halves]] = {name: _Halves() for name in get_args(Task)}


def writes(*names: Task) -> Callable[[_F], _F]:
    """Register the decorated function as the code of the tasks ``names``."""
    return _registrar("code", names)


def concludes(*names: Task) -> Callable[[_F], _F]:
    """Register the decorated function as the conclusion of the tasks ``names``."""
    return _registrar("conclusion", names)


def _registrar(half: str, names: tuple[Task, ...]) -> Callable[[_F], _F]:
    def register(function: _F) -> _F:
        for name in names:
            setattr(_REGISTERED[name], half, function)
        return function

    return register


def kind(name: Task) -> TaskKind:
    """The registered task ``name``; a LookupError if its code or its conclusion is missing."""
    halves = _REGISTERED[name]
    if halves.code is None or halves.conclusion is None:
        missing = "code" if halves.code is None else "conclusion"
        raise LookupError(f"the task {name!r} has no {missing} registered")
    return TaskKind(name, halves.code, halves.conclusion)
