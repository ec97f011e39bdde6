"""The result line: how code that a brain writes hands its numbers back to the brain.

Generated code prints what a person should read, then one line ``BUNSEKI_RESULT {json}`` holding
the numbers the conclusion will quote. The brain reads its conclusion from that line only, so
every number it states was printed by executed code; people are shown the output without it.
"""

from __future__ import annotations

import json
from typing import Any, Final

RESULT_MARKER: Final = "BUNSEKI_RESULT "
Result = dict[str, Any]


def result_of(stdout: str) -> Result | None:
    """The last result line's JSON object, if the output holds a readable one."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            try:
                parsed = json.loads(line[len(RESULT_MARKER) :])
            except json.JSONDecodeError:
                return None
            return parsed if isinstance(parsed, dict) else None
    return None


def without_results(stdout: str) -> str:
    """The output as a person should see it: result lines removed."""
    return "\n".join(line for line in stdout.splitlines() if not line.startswith(RESULT_MARKER)).strip()
