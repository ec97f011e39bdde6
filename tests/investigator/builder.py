"""Builds small investigation cases: a buggy algorithm's output, a correct one's as the reference."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from bunseki.investigation.diagnostics import runs


def _run(source: str, function: str, frame: pd.DataFrame, folder: Path, name: str) -> dict[str, np.ndarray]:
    """The columns the algorithm writes: its flag ``z``, and any other column it returns."""
    path = folder / f"_{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"case_{name}_{abs(hash(str(folder)))}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path.unlink()
    result = getattr(module, function)(frame.copy())
    if isinstance(result, pd.DataFrame):
        return {str(c): result[c].to_numpy() for c in result.columns}
    return {"z": np.asarray(result, dtype=int)}


def build_case(
    folder: Path,
    *,
    buggy: str,
    correct: str,
    signals: dict[str, dict[str, Any]],
    function: str = "detect",
    env: str | None = None,
    spec: str = "The flag z marks events of x.",
) -> Path:
    """Write code, spec, env and one dataset per signal; return the manifest's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "algo.py").write_text(buggy, encoding="utf-8")
    (folder / "spec.md").write_text(f"# Spec\n\n{spec}\n", encoding="utf-8")
    datasets = []
    for name, columns in signals.items():
        frame = pd.DataFrame({"frame": np.arange(len(next(iter(columns.values())))), **columns})
        out = frame.assign(**_run(buggy, function, frame, folder, "buggy"))
        core = frame.assign(**_run(correct, function, frame, folder, "correct"))
        out.to_csv(folder / f"{name}_output.csv", index=False)
        core.to_csv(folder / f"{name}_core.csv", index=False)
        ranges = runs([int(f) for f in core.loc[core["z"] == 1, "frame"]])
        text = "frames " + " and ".join(f"{s}-{e}" for s, e in ranges) + " have z=1"
        datasets.append(
            {"name": name, "output_csv": f"{name}_output.csv", "core_csv": f"{name}_core.csv", "expected": text}
        )
    manifest: dict[str, Any] = {
        "name": folder.name,
        "specs": ["spec.md"],
        "codes": ["algo.py"],
        "entry": f"algo.py:{function}",
        "datasets": datasets,
    }
    if env:
        (folder / "env.py").write_text(env, encoding="utf-8")
        manifest["env_codes"] = ["env.py"]
    path = folder / "case.yaml"
    path.write_text(yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path
