"""Questions that name their answer format, ``@name[value]`` (as DABench does).

The format is one slot of the question's intent (``intent.answer_format``); ``parse`` hands the
requested slots here to be filled, and the plan then goes through ``codegen`` and ``answer`` as
every other task does. A slot is resolved to a measure from the words of its
name and of its description (mean_price → the mean of Price; is_normal with "yes"/"no" → a
normality test), with columns and methods taken from the question and its constraints. The
generated code computes every slot separately, so one slot that fails does not lose the others,
and prints ``@name[value]`` lines rounded as the format asks.
"""

from __future__ import annotations

from typing import Any

from bunseki.brain.analyst.offline import catalog, measures
from bunseki.brain.analyst.offline.columns import ColumnMatcher
from bunseki.brain.analyst.offline.plan import Clarification, Plan, Slot
from bunseki.brain.analyst.offline.registry import concludes
from bunseki.brain.text import normalize
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language


def fill(requested: list[Slot], question: str, info: DataFrameInfo, language: Language) -> Plan | Clarification:
    """The plan of a question whose intent holds an answer format: each requested slot filled against the table.

    A slot whose name, description and question name no statistic is asked about (with the
    statistics and columns it could mean) instead of being given a default.
    """
    text = normalize(question)
    context = measures.Context.read(text, info, ColumnMatcher(info))
    slots = [measures.resolve(slot, context) for slot in requested]
    unknown = [slot for slot in slots if slot.measure is None]
    if unknown:
        return _ask_statistic(unknown, context, language)
    alike = _computed_alike(slots)
    if alike:
        return _ask_same(alike, language)
    return Plan(
        task="answers",
        language=language,
        slots=slots,
        assumptions=context.assumptions,
        method=context.options,
        derived_columns=context.derived,
    )


@concludes("answers")
def conclude(plan: Plan, result: dict[str, Any], language: Language) -> str:
    """The answers in the requested format, ``@name[value]`` for each one computed."""
    answers: dict[str, Any] = result.get("answers", {})
    pairs = " ".join(f"@{name}[{value}]" for name, value in answers.items() if value is not None)
    if pairs:
        return pairs
    return catalog.say("answers_none", language)


def table(plan: Plan, result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each requested value with what the format said of it and how it was computed."""
    answers: dict[str, Any] = result.get("answers", {})
    return [
        {
            "name": slot.name,
            "value": answers.get(slot.name),
            "how": slot.description[:200] or slot.measure,
            "computed as": measures.explain(slot),
        }
        for slot in plan.slots
    ]


def problems(result: dict[str, Any], language: Language) -> str | None:
    """The values that could not be computed, and why, as a list."""
    found: dict[str, str] = result.get("problems", {})
    if not found:
        return None
    listed = "\n".join(f"- {name}: {problem}" for name, problem in found.items())
    heading = catalog.say("answers_problems", language)
    return f"**{heading}**\n\n{listed}"


def _computed_alike(slots: list[Slot]) -> list[Slot]:
    """Slots with different names that the plan would compute identically (the same measure of the same
    columns over the same rows): the names say what tells them apart (class1/class2, survived/did not)
    and the reading did not find it, so any value given for them would be another question's answer."""
    by_computation: dict[str, list[Slot]] = {}
    for slot in slots:
        key = slot.model_dump_json(include={"measure", "column", "second", "filters"})
        by_computation.setdefault(key, []).append(slot)
    return next((group for group in by_computation.values() if len(group) > 1), [])


def _ask_same(alike: list[Slot], language: Language) -> Clarification:
    names = ", ".join(f"@{slot.name}" for slot in alike)
    question = catalog.say("ask_same_slots", language, names=names, computed=measures.explain(alike[0]))
    return Clarification(question=question, reason=f"{names} would be computed alike")


ASKABLE_STATS = ("mean", "median", "std", "min", "max", "sum", "count")


def _ask_statistic(unknown: list[Slot], context: measures.Context, language: Language) -> Clarification:
    """One question naming the slots that say nothing to compute, the statistics and the candidate columns."""
    names = ", ".join(f"@{slot.name}" for slot in unknown)
    columns = (
        list(dict.fromkeys([*(s.column for s in unknown if s.column), *context.numeric]))[:8]
        or [c.name for c in context.info.column_info if c.kind == "number"][:8]
    )
    separator = "、" if language == "ja" else ", "
    question = catalog.say(
        "ask_statistic",
        language,
        names=names,
        stats=separator.join(ASKABLE_STATS),
        columns=separator.join(columns) or "-",
    )
    return Clarification(question=question, reason=f"no statistic named for {names}")
