"""Numbers in a model's words must come from executed output: finding those that do not.

A model may word what execution found (a root cause, what the mismatches show) but may not add
numbers of its own. Numbers compare by value, so ``0.80`` is grounded by ``0.8``; identifiers such
as ``H2`` or ``x1`` are not numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

# ASCII word characters only: in Japanese a number touches letters (フレーム12件) and still counts.
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])-?\d+(?:\.\d+)?(?![A-Za-z0-9_])")


def numbers_in(text: str) -> set[float]:
    return {float(m) for m in _NUMBER.findall(text)}


def facts_text(*parts: Any) -> str:
    """Executed output (dicts, lists, strings) as one text to look numbers up in."""
    return "\n".join(p if isinstance(p, str) else json.dumps(p, ensure_ascii=False, default=str) for p in parts)


def ungrounded(text: str, facts: str | Iterable[float]) -> list[str]:
    """The numbers of ``text`` (as written) that ``facts`` does not contain, in order."""
    known = numbers_in(facts) if isinstance(facts, str) else set(facts)
    return list(dict.fromkeys(m for m in _NUMBER.findall(text) if float(m) not in known))


def redact(text: str, facts: str) -> tuple[str, list[str]]:
    """``text`` with each ungrounded number replaced by ``[?]``, and those numbers."""
    known = numbers_in(facts)
    missing = ungrounded(text, known)
    return _NUMBER.sub(lambda m: m.group() if float(m.group()) in known else "[?]", text), missing
