"""The one report model every agent produces and every renderer (Markdown, HTML, notebook, the web UI)
reads, and the fixed wording of a report in each language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bunseki.domain.language import Language


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


@dataclass(frozen=True)
class Labels:
    """The fixed wording of a report in one language; ``{…}`` fields are filled in by callers."""

    conclusion: str
    evidence: str
    assumptions: str
    suggestions: str
    code: str
    rows_left_out: str  # {shown}, {total}, {left_out}
    empty_table: str
    unreadable_table: str
    image_unavailable: str  # {path}


LABELS: Final[dict[Language, Labels]] = {
    "ja": Labels(
        conclusion="結論",
        evidence="根拠",
        assumptions="前提",
        suggestions="追加の分析案",
        code="実行したコード",
        rows_left_out="全 {total:,} 行のうち先頭 {shown:,} 行を表示しています（{left_out:,} 行は省略）。",
        empty_table="（表は空です）",
        unreadable_table="表のデータを読み取れなかったため、そのまま表示します。",
        image_unavailable="画像を表示できません: {path}",
    ),
    "en": Labels(
        conclusion="Conclusion",
        evidence="Evidence",
        assumptions="Assumptions",
        suggestions="Suggestions for deeper analysis",
        code="Code that was run",
        rows_left_out="Showing the first {shown:,} of {total:,} rows ({left_out:,} left out).",
        empty_table="(The table is empty.)",
        unreadable_table="The table data could not be read, so it is shown as is.",
        image_unavailable="Image not available: {path}",
    ),
}
