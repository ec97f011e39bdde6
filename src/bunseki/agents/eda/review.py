"""The two human reviews: what a paused run shows, and the answers it accepts on resume."""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt
from pydantic import BaseModel, Field, ValidationError, model_validator

from bunseki.agents.eda.state import Action
from bunseki.errors import InputError

FEEDBACK_CHARS = 4000


class Answer(BaseModel):
    """A review's answer: approve, feedback (with its text), or stop."""

    action: Action
    feedback: str | None = Field(default=None, max_length=FEEDBACK_CHARS)

    @model_validator(mode="after")
    def _feedback_has_text(self) -> Answer:
        text = (self.feedback or "").strip()
        if self.action == "feedback" and not text:
            raise ValueError("feedback needs its text: say what to change")
        self.feedback = text or None
        return self


def parse(value: Any) -> Answer:
    """A resume value as an `Answer`; InputError says what is wrong with it."""
    try:
        return Answer.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(error["msg"] for error in exc.errors())
        raise InputError(f"A review answers with approve, feedback (and its text) or stop: {problems}.") from exc


def ask(shown: dict[str, Any]) -> Answer:
    """Pause the run showing ``shown``; on resume (from any process), the person's answer."""
    return parse(interrupt(shown))


LIMIT = {
    "ja": "修正の上限（{limit} 回）に達しました。承認するか中止してください。",
    "en": "The limit of {limit} rounds of feedback has been reached: approve or stop.",
}
