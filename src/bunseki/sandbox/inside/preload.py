"""Import the analysis stack once, so every forked cell starts warm, and set up Japanese charts."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
import warnings
from typing import Any

# What nearly every cell uses: a worker imports these before its first cell whatever it was started by.
CORE_MODULES = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot")
# Heavy modules that generated code imports less often. The zygote imports them too: it pays once for
# all the workers it forks (a cell's imports are lost when it fails and rolls back, so a fork that has
# them never pays again). A worker started on its own imports them when a cell first uses them: its
# start is what the person waits for (about 0.8 s of CPU less here), and most sessions never need them.
WARM_MODULES = (
    *CORE_MODULES,
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
# Bound in every fresh namespace (holder.py), so imported lazily when not warmed.
LAZY_MODULES = ("seaborn",)
VERSIONS = {  # the import name, and the distribution that says its version
    "numpy": "numpy",
    "pandas": "pandas",
    "matplotlib": "matplotlib",
    "seaborn": "seaborn",
    "sklearn": "scikit-learn",
    "scipy": "scipy",
}


def warm_up(*, everything: bool = True) -> dict[str, str]:
    """Import the stack (``everything``) or its core, install the chart fixes; returns library versions."""
    import matplotlib

    matplotlib.use("Agg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in WARM_MODULES if everything else CORE_MODULES:
            importlib.import_module(name)
    if not everything:
        for name in LAZY_MODULES:
            _import_lazily(name)
    install_japanese_font()
    mark_saved_figures()
    return {name: _version(distribution) for name, distribution in VERSIONS.items()}


def _import_lazily(name: str) -> None:
    """Put ``name`` in ``sys.modules`` as a module that runs its code on first use."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return  # not installed: a cell's import says so
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


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
