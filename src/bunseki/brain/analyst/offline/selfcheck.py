"""Before answering: will the plan give the asked quantity in the asked form?

A share or a change asked as a percentage must come out as a percentage, "which …" as the name
of the winner, "the top 5" as five items. A plan that cannot produce that form would answer
another question with a right-looking number, so the analyst asks one precise question instead.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.analyst.offline import catalog
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.brain.analyst.offline.reading import read_top
from bunseki.brain.analyst.offline.vocab import PERCENT_ASKED, WHICH
from bunseki.brain.text import normalize
from bunseki.domain import Language

_PERCENT: Final = re.compile(PERCENT_ASKED, re.IGNORECASE)
PERCENT_TASKS: Final = frozenset({"ratio", "share", "growth", "missing", "trend", "answers"})
# The planner's "which" also takes "what is …" (any question would); here only a name asked for counts.
_WHICH: Final = re.compile(WHICH + r"|どちら|何曜日|what (?:day|month|year|week)", re.IGNORECASE)
ONE_NUMBER_TASKS: Final = frozenset({"stat", "count"})  # a single number, no name in it


def asked_count(question: str) -> int | None:
    """The number of items a question asks for ("上位5", "top 3", "the 3 largest"), read as the planner reads it."""
    return read_top(normalize(question).lower())[0]


def check(plan: Plan, question: str, language: Language) -> Clarification | None:
    """None when the plan answers in the asked form; else the one question to ask instead."""
    what = plan.target or catalog.say("rows_word", language)
    if _PERCENT.search(question) and plan.task not in PERCENT_TASKS:
        return Clarification(
            question=catalog.say("check_percent", language, what=what),
            reason="a percentage was asked, and the plan computes no percentage",
        )
    count = asked_count(question)
    if count is not None and plan.task in ("group", "top") and plan.top_n is not None and plan.top_n != count:
        return Clarification(
            question=catalog.say("check_count", language, count=count, planned=plan.top_n),
            reason=f"{count} items were asked, and the plan lists {plan.top_n}",
        )
    if _WHICH.search(question) and plan.task in ONE_NUMBER_TASKS and not plan.group_by:
        return Clarification(
            question=catalog.say("check_which", language, what=what),
            reason="a name was asked ('which'), and the plan computes one number",
        )
    return None
