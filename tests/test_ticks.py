"""Axis ticks in the units a reader expects, and never an offset."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib_fontja  # noqa: F401  (the sandbox's Japanese font, as its preload makes it the default)
import pandas as pd
import pytest

from bunseki.report.ticks import SOURCE, readable_axes, tick


@pytest.mark.parametrize(
    ("value", "ja", "en"),
    [
        (150_000_000, "1.5億", "150M"),
        (75_000_000, "7,500万", "75M"),
        (12_345, "1.23万", "12.3K"),
        (2_500_000_000_000, "2.5兆", "2.5T"),
        (950, "950", "950"),
        (0.25, "0.25", "0.25"),
        (-3_000_000, "-300万", "-3M"),
    ],
)
def test_values_in_the_units_of_the_readers_language(value: float, ja: str, en: str) -> None:
    assert (tick(value, "ja"), tick(value, "en")) == (ja, en)


def test_numeric_axes_get_the_ticks_and_no_offset_while_date_axes_stay_dates() -> None:
    series = pd.Series([1.2e8, 1.5e8, 1.7e8], index=pd.date_range("2024-01-01", periods=3, freq="MS"))
    figure, axes = plt.subplots()
    axes.plot(series.index, series.to_numpy())
    readable_axes(figure, "ja")
    figure.canvas.draw()
    labels = [label.get_text() for label in axes.get_yticklabels()]
    assert any(label.endswith("億") for label in labels) and axes.yaxis.get_offset_text().get_text() == ""
    assert not any("億" in label.get_text() for label in axes.get_xticklabels())  # the dates are left alone
    plt.close(figure)
    namespace: dict[str, object] = {}
    exec(compile(SOURCE, "<cell>", "exec", dont_inherit=True), namespace)  # as a cell: no future import
    assert namespace["tick"](150_000_000, "en") == "150M"  # type: ignore[operator]
