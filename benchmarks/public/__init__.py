"""The analyst's evaluation set on public tables nobody here made (``tables.py``).

Each question (``<table>.py``) has an id, a kind and an expected answer computed by pandas on the
file's own contents. The set is split by id: even ids are the tuning half, odd ids the held-out
half, which the brain is never tuned on. Every question ends right, wrong or asked back.

The questions were written from the tables' contents, as their users would ask, before the
brain was changed for them, in three batches (``PublicTable.batch``: the first has been tuned on
since, the second and third were each written by three people who did not read the brain); the
kinds are those analysts ask every day:
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from questions.expect import Compute

Kind = Literal[
    "basic",  # a count of rows, of distinct values, a plain statistic of one column
    "condition_stat",  # a condition on one column, a statistic of another
    "yes_no_value",  # a condition whose value the question writes otherwise than the data (あり vs True)
    "extreme_name",  # the row where a measure is largest or smallest, named by another column
    "extreme_date",  # the date of such a row
    "percentile",  # a quantile or percentile, the boundary of the top or bottom share
    "difference",  # the difference between two groups or two periods
    "ratio",  # the ratio of two groups or periods, or a share
    "by_period",  # a count or sum by the year, month or weekday of a date column
    "duration",  # time between two dates, or as of a given date (tenure, age, days since)
    "period_total",  # a total, mean or count within one year or period
    "group_in_period",  # a statistic per group within one period (the top group of one year)
    "ranking_within",  # a ranking (top N) within a subset or a period
    "yes_no_answer",  # a question answered yes or no
]
KINDS: tuple[Kind, ...] = get_args(Kind)


@dataclass(frozen=True)
class PublicQuestion:
    id: int  # unique in its table; even: tuning half, odd: held-out half
    text: str
    kind: Kind
    expect: Compute

    @property
    def held_out(self) -> bool:
        return self.id % 2 == 1


Q = PublicQuestion
