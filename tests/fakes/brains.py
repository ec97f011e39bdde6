"""Brains for tests: the offline brain, held where a test needs a turn to be in progress."""

from __future__ import annotations

import threading

from bunseki.brain.analyst.contract import AnalystView, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain


class GatedBrain(OfflineAnalystBrain):
    """The offline brain, held at its first decision until the test lets it go."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def decide(self, view: AnalystView) -> ReasonOutput:
        self.entered.set()
        assert self.release.wait(30), "the test never released the brain"
        return super().decide(view)
