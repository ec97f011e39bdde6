"""The one report model every agent produces and every renderer (Markdown, HTML, notebook) reads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bunseki.domain import Language


class ReportSection(BaseModel):
    """A report section: text (Markdown), an image (a path relative to the workspace) or a
    table (JSON: a list of records, as ``DataFrame.to_json(orient="records")`` writes it)."""

    model_config = ConfigDict(frozen=True)

    section_type: Literal["text", "image", "table"]
    content: str
    description: str | None = None


class ReportOutput(BaseModel):
    """A report: a title, the conclusion, the sections behind it and suggestions.

    ``conclusion`` answers the question directly, with its numbers, in a few sentences; the
    sections are the evidence behind it; suggestions are optional deeper analyses. Numbers in
    the conclusion come from execution output.
    """

    # Constraints live in validators, not in the JSON schema: strict structured-output modes
    # (OpenAI) reject keywords such as minLength.
    title: str
    conclusion: str
    sections: list[ReportSection]
    suggestions: list[str] | None = None
    assumptions: list[str] = Field(default_factory=list)
    language: Language = "ja"

    @field_validator("title", "conclusion")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @field_validator("sections")
    @classmethod
    def _has_evidence(cls, value: list[ReportSection]) -> list[ReportSection]:
        if not value:
            raise ValueError("a report needs at least one section of evidence")
        return value
