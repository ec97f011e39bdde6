"""A unified diff of one file, applied to its text: how a model's free-form patch reaches a copy of the code.

Strict where it matters: every context and removed line must be in the file as written (a hunk
may sit a few lines off its stated position, as diffs written by hand or by a model often do);
anything else raises `PatchError` naming the hunk, and nothing is applied.
"""

from __future__ import annotations

import re

from bunseki.errors import InputError

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
MAX_DRIFT = 40  # lines a hunk may sit away from where its header says


class PatchError(InputError):
    """A unified diff that does not apply to the file as it is."""


def apply_unified_diff(source: str, diff: str) -> str:
    """``source`` with the hunks of ``diff`` applied (headers ``---``/``+++`` optional)."""
    hunks = _hunks(diff)
    if not hunks:
        raise PatchError("the patch has no hunk (a line starting with @@ -N,M +N,M @@)")
    lines = source.splitlines()
    ending = "\n" if source.endswith("\n") or not source else ""
    offset = 0
    for number, (start, body) in enumerate(hunks, 1):
        old = [text for sign, text in body if sign in " -"]
        at = _find(lines, old, max(start - 1 + offset, 0))
        if at is None:
            shown = old[0] if old else "(nothing)"
            raise PatchError(f"hunk {number} does not match the file (its first line: {shown!r})")
        originals = iter(lines[at : at + len(old)])
        kept = []  # context lines as the file writes them (a diff may have lost their trailing spaces)
        for sign, text in body:
            if sign in " -":
                original = next(originals)
                if sign == " ":
                    kept.append(original)
            else:
                kept.append(text)
        lines[at : at + len(old)] = kept
        offset += len(kept) - len(old)
    return "\n".join(lines) + ending


def _hunks(diff: str) -> list[tuple[int, list[tuple[str, str]]]]:
    hunks: list[tuple[int, list[tuple[str, str]]]] = []
    for line in diff.splitlines():
        header = _HUNK.match(line)
        if header:
            hunks.append((int(header.group(1)), []))
        elif line.startswith(("--- ", "+++ ", "diff ", "index ", "\\ No newline")) or not hunks:
            continue
        elif line[:1] in (" ", "-", "+"):
            hunks[-1][1].append((line[0], line[1:]))
        elif line == "":  # a blank context line whose leading space was lost
            hunks[-1][1].append((" ", ""))
        else:
            raise PatchError(f"the patch has a line that is not context, removal or addition: {line[:60]!r}")
    return [(start, body) for start, body in hunks if body]


def _find(lines: list[str], block: list[str], near: int) -> int | None:
    """Where ``block`` occurs in ``lines``, the nearest to ``near`` within MAX_DRIFT lines."""
    if not block:
        return min(near, len(lines))
    for drift in range(MAX_DRIFT + 1):
        for at in (near - drift, near + drift) if drift else (near,):
            if 0 <= at <= len(lines) - len(block) and _same(lines[at : at + len(block)], block):
                return at
    return None


def _same(lines: list[str], block: list[str]) -> bool:
    """Equal but for trailing spaces, which diffs written by hand or by a model often lose."""
    return [line.rstrip() for line in lines] == [line.rstrip() for line in block]
