"""Import the analysis stack once, so every forked cell starts warm, and set up Japanese charts."""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

# Heavy modules that generated code imports most; importing them here costs start-up time
# once instead of every cell (a cell's imports are lost when it fails and rolls back).
WARM_MODULES = (
    "numpy",
    "pandas",
    "matplotlib",
    "matplotlib.pyplot",
    "seaborn",
    "scipy.stats",
    "sklearn",
    "sklearn.linear_model",
    "sklearn.model_selection",
    "sklearn.preprocessing",
    "sklearn.metrics",
    "sklearn.cluster",
    "sklearn.ensemble",
)


def warm_up() -> dict[str, str]:
    """Import the stack and install the chart fixes; returns library versions."""
    import matplotlib

    matplotlib.use("Agg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in WARM_MODULES:
            importlib.import_module(name)
    install_japanese_font()
    mark_saved_figures()
    versions: dict[str, str] = {}
    for name in ("numpy", "pandas", "matplotlib", "seaborn", "sklearn", "scipy"):
        versions[name] = getattr(importlib.import_module(name), "__version__", "?")
    return versions


def install_japanese_font() -> None:
    """Render Japanese in every chart, whatever the cell does to rcParams or seaborn themes.

    matplotlib-fontja registers IPAexGothic and makes it the default family. Seaborn's
    ``set_theme`` resets the family, so we also append IPAexGothic and DejaVu Sans to the
    per-glyph fallback list of every font lookup: Japanese always finds its glyphs, and Latin
    symbols IPAexGothic lacks (such as the minus sign) find theirs.
    """
    import matplotlib_fontja  # noqa: F401  (registers the font on import)
    from matplotlib import font_manager
    from matplotlib.font_manager import FontManager, FontProperties

    manager = font_manager.fontManager
    fallbacks = [
        manager.findfont(FontProperties(family=[family]), fallback_to_default=False)
        for family in ("IPAexGothic", "DejaVu Sans")
    ]
    original = FontManager._find_fonts_by_props

    def find_with_fallbacks(self: FontManager, prop: Any, *args: Any, **kwargs: Any) -> list[Any]:
        paths = list(original(self, prop, *args, **kwargs))
        if kwargs.get("fontext", args[0] if args else "ttf") != "ttf":
            return paths
        return paths + [path for path in fallbacks if path not in paths]

    FontManager._find_fonts_by_props = find_with_fallbacks  # type: ignore[method-assign]


def mark_saved_figures() -> None:
    """Remember which figures the cell saved into the workspace itself, to not save them twice."""
    from matplotlib.figure import Figure

    original = Figure.savefig

    def savefig(self: Figure, fname: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, fname, *args, **kwargs)
        if isinstance(fname, str | os.PathLike):
            target = os.path.abspath(os.fspath(fname))
            if target.startswith(os.getcwd() + os.sep):
                self._bunseki_saved = target  # type: ignore[attr-defined]
        return result

    Figure.savefig = savefig  # type: ignore[method-assign]
