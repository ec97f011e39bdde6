"""Run dependencies of the investigator graph (never checkpointed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bunseki.brain.investigator import InvestigatorBrain
from bunseki.investigation.case import Case
from bunseki.sandbox import Sandbox


@dataclass
class InvestigatorContext:
    brain: InvestigatorBrain
    case: Case
    workspace: Path
    sandbox: Callable[[], Sandbox]
