"""Before answering: will the plan give the asked quantity in the asked form?

A share or a change asked as a percentage must come out as a percentage, "which …" as the name
of the winner, "the top 5" as five items. A plan that cannot produce that form would answer
another question with a right-looking number, so the analyst asks one precise question instead.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.models import Language
from bunseki.brain.offline import catalog
from bunseki.brain.offline.plan import Clarification, Plan

# Asking for a percentage, not naming one in a condition (「割引率が10%以上の」 is a filter).
_PERCENT: Final = re.compile(
    r"何\s*[%％]|何パーセント|何割|割合|構成比|シェア|占め|増加率|減少率|成長率|伸び率|変化率|増減率|"
    r"what percent|percentage|\bshare\b|proportion|fraction of|growth rate|rate of change",
    re.IGNORECASE,
)
PERCENT_TASKS: Final = frozenset({"ratio", "share", "growth", "missing", "trend", "answers"})
_COUNT: Final = re.compile(
    r"(?:上位|下位|ベスト|ワースト|トップ)\s*(?P<ja>\d{1,3})|"
    r"\b(?:top|bottom|first)\s+(?P<en>\d{1,3})\b|"
    r"\b(?P<en2>\d{1,3})\s+(?:largest|smallest|biggest|highest|lowest|best|worst|most|least)\b",
    re.IGNORECASE,
)
_WHICH: Final = re.compile(
    r"どの|どれ|どこ|どちら|誰|何曜日|何月|\bwhich\b|\bwho\b|what (?:day|month|year|week)",
    re.IGNORECASE,
)
ONE_NUMBER_TASKS: Final = frozenset({"stat", "count"})  # a single number, no name in it


def asked_count(question: str) -> int | None:
    """The number of items a question asks for ("上位5", "top 3", "the 3 largest"), if it names one."""
    found = _COUNT.search(question)
    if found is None:
        return None
    return int(found.group("ja") or found.group("en") or found.group("en2"))


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
