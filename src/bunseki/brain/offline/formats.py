"""Questions that name their answer format, ``@name[value]`` (as DABench does).

Each requested name becomes a slot. A slot is resolved to a measure from the words of its
name and of its description (mean_fare → the mean of Fare; is_normal with "yes"/"no" → a
normality test), with columns and methods taken from the question and its constraints. The
generated code computes every slot separately, so one slot that fails does not lose the others,
and prints ``@name[value]`` lines rounded as the format asks.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bunseki.brain.models import ExecutionRecord, Language
from bunseki.brain.offline import measures
from bunseki.brain.offline.columns import ColumnMatcher
from bunseki.brain.offline.plan import Plan, Slot
from bunseki.brain.offline.text import normalize
from bunseki.data.summary import DataFrameInfo
from bunseki.report.models import ReportOutput, ReportSection

# Bounded name and placeholder: "@a[@a[@a[…" without a closing bracket is otherwise rescanned
# to the end of the line from every "@", which is quadratic.
SLOT = re.compile(r"@(?P<name>[A-Za-z_]\w{0,79})\[(?P<placeholder>[^\]\n]{0,200})\]")
NEARBY = 2000  # characters after a slot where the format may say more about it
WORD_DECIMALS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
DECIMALS = re.compile(r"(?P<n>\d|zero|one|two|three|four|five|six)\s+decimal(?:\s+places?|s)?", re.IGNORECASE)
INTEGER = re.compile(r"\b(?:integer|whole number|rounded to the nearest (?:integer|whole)|no decimal)", re.IGNORECASE)
QUOTED = re.compile(r"[\"“']([^\"”'\n]{1,40})[\"”']")


def has_format(text: str) -> bool:
    return bool(SLOT.search(text))


def plan_answers(question: str, info: DataFrameInfo, language: Language) -> Plan | None:
    """A plan with one slot per ``@name[...]`` in the question, or None when there is none."""
    text = normalize(question)
    found = list(SLOT.finditer(text))
    if not found:
        return None
    matcher = ColumnMatcher(info)
    context = measures.Context.read(text, info, matcher)
    slots: list[Slot] = []
    names: set[str] = set()
    for index, match in enumerate(found):
        name = match.group("name")
        if name in names:
            continue
        names.add(name)
        description = _description(text, match, found[index + 1] if index + 1 < len(found) else None)
        slot = Slot(
            name=name,
            description=description,
            decimals=_decimals(description, text),
            choices=_choices(description, match.group("placeholder")),
        )
        slots.append(measures.resolve(slot, context))
    return Plan(
        task="answers",
        language=language,
        slots=slots,
        assumptions=context.assumptions,
        options=context.options,
        derived_columns=context.derived,
    )


def generate(plan: Plan, info: DataFrameInfo) -> str:
    """Code that computes every slot on its own and prints ``@name[value]`` lines."""
    return measures.generate(plan, info)


def build_report(plan: Plan, record: ExecutionRecord, result: dict[str, Any]) -> ReportOutput:
    """The answers in the requested format first, then how each was computed."""
    answers: dict[str, Any] = result.get("answers", {})
    problems: dict[str, str] = result.get("problems", {})
    pairs = " ".join(f"@{name}[{value}]" for name, value in answers.items() if value is not None)
    japanese = plan.language == "ja"
    if not pairs:
        conclusion = (
            "指定された形式の値を計算できませんでした。"
            if japanese
            else "None of the requested values could be computed."
        )
    else:
        conclusion = pairs
    rows = []
    for slot in plan.slots:
        rows.append(
            {
                "name": slot.name,
                "value": answers.get(slot.name),
                "how": slot.description[:200] or slot.measure,
                "computed as": measures.explain(slot),
            }
        )
    sections = [
        ReportSection(
            section_type="table",
            content=json.dumps(rows, ensure_ascii=False, default=str),
            description="回答と計算方法" if japanese else "Answers and how they were computed",
        ),
    ]
    output = record.visible_stdout
    if output:
        sections.append(ReportSection(section_type="text", content=f"```\n{output[:3000]}\n```"))
    if problems:
        listed = "\n".join(f"- {name}: {problem}" for name, problem in problems.items())
        heading = "計算できなかった値" if japanese else "Values that could not be computed"
        sections.append(ReportSection(section_type="text", content=f"**{heading}**\n\n{listed}"))
    title = "指定形式での回答" if japanese else "Answers in the requested format"
    return ReportOutput(
        title=title,
        conclusion=conclusion,
        sections=sections,
        assumptions=plan.assumptions,
        language=plan.language,
    )


def _description(text: str, match: re.Match[str], following: re.Match[str] | None) -> str:
    """What the format says about this slot: the sentence(s) that mention its placeholder."""
    placeholder = match.group("placeholder").strip()
    end = following.start() if following else len(text)
    own = text[match.end() : end]
    mentions = []
    if placeholder:
        for sentence in re.split(r"(?<=[.;])\s+|\n", text[match.start() : match.start() + NEARBY]):
            if placeholder in sentence and sentence.strip() and not sentence.strip().startswith("@"):
                mentions.append(sentence.strip())
    return " ".join([own.strip(), *mentions]).strip()[:600]


def _decimals(description: str, text: str) -> int | None:
    for source in (description, text):
        match = DECIMALS.search(source)
        if match:
            value = match.group("n").lower()
            return int(value) if value.isdigit() else WORD_DECIMALS[value]
        if INTEGER.search(source):
            return 0
    return None


def _choices(description: str, placeholder: str) -> list[str]:
    """The values a slot may take, when the format lists them ("yes" or "no", True/False)."""
    found = [value.strip() for value in QUOTED.findall(placeholder) + QUOTED.findall(description)]
    placeholder_words = {placeholder.strip(), placeholder.strip().strip('"')}
    choices = [
        value for value in dict.fromkeys(found) if value and value not in placeholder_words and len(value.split()) <= 4
    ]
    if not choices and re.search(r"\bboolean\b|\bTrue\b[^.]{0,200}\bFalse\b", placeholder + " " + description):
        choices = ["True", "False"]
    return choices
