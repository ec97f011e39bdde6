"""Axis ticks people read: 1.5億 or 150M rather than ``1e8`` as an offset above the axis.

`tick` writes one value in the units a reader of the language expects (Japanese 万 and 億,
English K, M and B); `readable_axes` puts it on every numeric axis of a figure and leaves date and
category axes alone. The charts of EDA and the analyst are drawn in the sandbox, whose code
carries this module's source (`SOURCE`): it needs matplotlib only.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_UNITS = {
    "ja": ((1e12, "兆"), (1e8, "億"), (1e4, "万")),
    "en": ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")),
}


def tick(value: float, language: str = "en") -> str:
    """``150000000`` → ``1.5億`` / ``150M``; ``12345`` → ``1.2万`` / ``12.3K``; small values as written."""
    for size, unit in _UNITS.get(language, _UNITS["en"]):
        if abs(value) >= size:
            scaled = value / size
            return (f"{scaled:,.0f}" if abs(scaled) >= 100 else f"{scaled:.3g}") + unit  # 7,500万, 1.5億
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:.3g}"


def readable_axes(figure: "Figure", language: str = "en") -> None:  # noqa: UP037  (the sandbox has no Figure name)
    """Every numeric axis of ``figure`` (a plain ScalarFormatter) gets `tick` and never an offset."""
    from matplotlib.ticker import FuncFormatter, ScalarFormatter

    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            if type(axis.get_major_formatter()) is ScalarFormatter:
                axis.set_major_formatter(FuncFormatter(lambda value, _, language=language: tick(value, language)))


SOURCE = "\n".join([f"_UNITS = {_UNITS!r}", inspect.getsource(tick), inspect.getsource(readable_axes)])
