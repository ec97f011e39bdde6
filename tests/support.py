"""Helpers shared by tests (fixtures live in conftest.py)."""

from __future__ import annotations

from typing import get_args

from bunseki.sandbox import isolation
from bunseki.settings import IsolationChoice, Settings


def available_tiers() -> list[str]:
    """The isolation tiers this machine offers, strongest first."""
    tiers = []
    for tier in get_args(IsolationChoice):
        if tier != "auto" and isolation.probe(Settings(sandbox_isolation=tier)).tier == tier:
            tiers.append(tier)
    return tiers
