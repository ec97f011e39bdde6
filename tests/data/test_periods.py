"""Partial periods: how much of its first and last period a series' dates cover."""

from __future__ import annotations

import pandas as pd
import pytest

from bunseki.data.periods import SOURCE, partial_ends, period_coverage


@pytest.mark.parametrize(
    ("dates", "rule", "coverage"),
    [
        (pd.date_range("2024-01-04", "2024-03-04", freq="D"), "W-MON", (5 / 7, 1.0)),  # Thursday to a Monday
        (pd.date_range("2024-01-04", "2024-03-04", freq="D"), "MS", (28 / 31, 4 / 31)),
        (pd.date_range("2023-01-01", "2024-03-01", freq="MS"), "MS", (1.0, 1.0)),  # monthly rows: whole months
        (pd.date_range("2023-01-01", "2024-03-01", freq="MS"), "YS", (1.0, 3 / 12)),
        (pd.date_range("2024-01-01 00:00", "2024-01-10 05:00", freq="h"), "D", (1.0, 6 / 24)),
        (pd.DatetimeIndex(["2024-01-01"]), "MS", (1.0, 1.0)),  # one date says nothing
    ],
)
def test_coverage_of_the_first_and_last_period(
    dates: pd.DatetimeIndex, rule: str, coverage: tuple[float, float]
) -> None:
    head, tail = period_coverage(pd.Series(dates), rule)
    assert head == pytest.approx(coverage[0], abs=0.02) and tail == pytest.approx(coverage[1], abs=0.02)


def test_partial_ends_needs_three_periods_and_runs_from_its_source_alone() -> None:
    days = pd.Series(pd.date_range("2024-01-04", "2024-03-05", freq="D"))
    assert partial_ends(days, "W-MON", 10) == (True, True)
    assert partial_ends(days, "W-MON", 2) == (False, False)
    namespace: dict[str, object] = {"pd": pd}
    exec(compile(SOURCE, "<cell>", "exec", dont_inherit=True), namespace)  # as a cell: no future import
    assert namespace["partial_ends"](days, "W-MON", 10) == (True, True)  # type: ignore[operator]
