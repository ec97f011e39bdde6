"""The code the investigator runs in the sandbox: summaries, charts, eval_func and re-runs of variants.

Each cell prints one JSON line prefixed with ``RESULT:``; paths are relative to the workspace.
"""

from __future__ import annotations

import json
from typing import Any

MARK = "RESULT:"

_PRELUDE = """
import json, sys, time, importlib.util
import numpy as np
import pandas as pd

def _load(path, name):
    directory = str(__import__("pathlib").Path(path).parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

def _flags(result, column, length):
    if isinstance(result, pd.DataFrame):
        result = result[column]
    values = np.asarray(result, dtype=float).reshape(-1)
    if len(values) != length:
        raise ValueError(f"the algorithm returned {len(values)} values for {length} frames")
    return values

def _evaluate(env_codes, frame, expected):
    # The case's eval_func on frame: eval_func(df) or eval_func(df, expected) by its signature, with
    # expected as the manifest writes it (the text). A harness that raises or returns no verdict is
    # reported, never counted as a pass or a fail.
    for path in env_codes:
        try:
            module = _load(path, "env_" + str(abs(hash(path))))
        except Exception as exc:
            return {"passed": None, "detail": {}, "error": f"{path} cannot be imported: {type(exc).__name__}: {exc}"}
        harness = getattr(module, "eval_func", None)
        if not callable(harness):
            continue
        try:
            verdict = harness(frame.copy(), expected) if _takes_expected(harness) else harness(frame.copy())
        except Exception as exc:
            return {"passed": None, "detail": {}, "error": f"eval_func raised {type(exc).__name__}: {exc}"}
        return _verdict(verdict)
    return None

def _takes_expected(function):
    import inspect
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters)

class VariantTimeout(Exception):
    pass

def _limit(seconds):
    # Stop the code run after ``seconds`` (0: no limit) with VariantTimeout; a no-op off the main thread.
    import signal
    def stop(signum, frame):
        raise VariantTimeout(f"the variant ran longer than {seconds} s (an endless loop?)")
    try:
        signal.signal(signal.SIGALRM, stop if seconds else signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    except ValueError:
        pass

def _short(value):
    text = str(value)
    return text if len(text) <= 200 else text[:199] + "…"

def _verdict(verdict):
    # A bool; a tuple or list whose first item is the bool; a mapping with passed. Anything else is an error.
    if isinstance(verdict, (bool, np.bool_)):
        return {"passed": bool(verdict), "detail": {}}
    if isinstance(verdict, (tuple, list)) and verdict and isinstance(verdict[0], (bool, np.bool_)):
        return {"passed": bool(verdict[0]), "detail": {str(i): _short(v) for i, v in enumerate(verdict[1:], 1)}}
    if hasattr(verdict, "keys") and "passed" in verdict and isinstance(verdict["passed"], (bool, np.bool_)):
        detail = {str(k): _short(v) for k, v in verdict.items() if k != "passed"}
        return {"passed": bool(verdict["passed"]), "detail": detail}
    return {
        "passed": None,
        "detail": {},
        "error": (
            f"eval_func returned {type(verdict).__name__} {_short(verdict)!r}; a verdict is a bool, a tuple or "
            "list whose first item is that bool, or a mapping with a bool under 'passed'"
        ),
    }
"""


def check_cell(spec: dict[str, Any]) -> str:
    """Summaries of both CSVs, a chart with the expected region, and eval_func on the output."""
    return (
        _PRELUDE
        + f"""
spec = json.loads({json.dumps(json.dumps(spec))})
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out = pd.read_csv(spec["output"])
core = pd.read_csv(spec["core"])
column, frame_col = spec["column"], spec["frame_column"]
inputs = [c for c in out.columns if c not in (column, frame_col) and pd.api.types.is_numeric_dtype(out[c])]
fig, axes = plt.subplots(2, 1, figsize=(9, 5), sharex=True)
for name in inputs:
    axes[0].plot(out[frame_col], out[name], label=name)
axes[0].legend(loc="upper right")
axes[1].step(out[frame_col], out[column], where="mid", label="output")
axes[1].step(core[frame_col], core[column] * 0.9, where="mid", label="reference (x0.9)")
for ax in axes:
    for start, end in spec["ranges"]:
        ax.axvspan(start - 0.5, end + 0.5, color="orange", alpha=0.2)
axes[1].legend(loc="upper right")
axes[1].set_xlabel(frame_col)
fig.suptitle(spec["title"])
fig.tight_layout()
fig.savefig(spec["chart"], dpi=80)
plt.close(fig)
summary = {{
    "output": {{"rows": len(out), "columns": list(out.columns), "missing": int(out.isna().sum().sum()),
               "describe": out.describe().round(4).to_dict()}},
    "core": {{"rows": len(core), "columns": list(core.columns), "missing": int(core.isna().sum().sum())}},
    "inputs": inputs,
    "eval": _evaluate(spec["env_codes"], out, spec["expected"]),
}}
print("{MARK}" + json.dumps(summary, default=str))
"""
    )


def variants_cell(spec: dict[str, Any]) -> str:
    """Run each variant on the output's inputs (and the other datasets'); compare with references and eval."""
    return (
        _PRELUDE
        + f"""
spec = json.loads({json.dumps(json.dumps(spec))})
out = pd.read_csv(spec["output"])
core = pd.read_csv(spec["core"])
column = spec["column"]
frame = out.drop(columns=[column])
reference = core[column].to_numpy(dtype=float)
recorded = out[column].to_numpy(dtype=float)
results = []  # in the order of spec["variants"]: their ids are long, and stdout is bounded
began = time.monotonic()
for variant_id, path in spec["variants"]:
    if time.monotonic() - began > spec["budget_seconds"]:
        results.append({{"ok": False, "error": "not run: this iteration's time budget was spent"}})
        continue
    try:
        _limit(spec["variant_seconds"])  # an edit can make a loop endless (a step of 0)
        module = _load(path, "variant_" + str(abs(hash(path))))
        result = getattr(module, spec["function"])(frame.copy())
        flags = _flags(result, column, len(frame))
        # Other columns the algorithm returns (a converted or smoothed signal) must match the reference's too.
        written = [c for c in getattr(result, "columns", []) if c != column and c in core.columns]
        signals_match = all(
            np.allclose(np.asarray(result[c], dtype=float), core[c].to_numpy(dtype=float), equal_nan=True)
            for c in written
        )
        patched = out.copy()
        patched[column] = flags
        others = []
        for other in spec.get("others", []):
            other_out = pd.read_csv(other["output"])
            other_ref = pd.read_csv(other["core"])[column].to_numpy(dtype=float)
            other_flags = _flags(
                getattr(module, spec["function"])(other_out.drop(columns=[column])), column, len(other_out)
            )
            others.append(bool(np.array_equal(other_flags, other_ref)))
        verdict = _evaluate(spec["env_codes"], patched, spec["expected"])
        results.append({{
            "ok": True,
            "matches_reference": bool(np.array_equal(flags, reference)),
            "mismatches": int((flags != reference).sum()),
            "reproduces_output": bool(np.array_equal(flags, recorded)),
            "signals_match": bool(signals_match),
            "others_match": all(others),
            "eval": None if verdict is None else {{"passed": verdict["passed"]}},
        }})
    except Exception as exc:
        results.append({{"ok": False, "error": _short(f"{{type(exc).__name__}}: {{exc}}")}})
    finally:
        _limit(0)
print("{MARK}" + json.dumps(results))
"""
    )


def parse_result(stdout: str | None) -> Any:
    """The cell's result; None when it printed none (or a cut one: its output is bounded)."""
    for line in reversed((stdout or "").splitlines()):
        if line.startswith(MARK):
            try:
                return json.loads(line[len(MARK) :])
            except json.JSONDecodeError:
                return None
    return None


def variant_results(stdout: str | None, variants: list[tuple[str, str]]) -> dict[str, Any] | None:
    """The variants cell's results by variant id; None when it printed none, or not one per variant."""
    found = parse_result(stdout)
    if not isinstance(found, list) or len(found) != len(variants):
        return None
    return {variant_id: result for (variant_id, _), result in zip(variants, found, strict=True)}
