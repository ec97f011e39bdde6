"""Profiling a 1,000,000 × 20 mixed table: Bunseki's EDA profile against ydata-profiling and bare pandas.

    python benchmarks/eda_profile.py [--rows 1000000] [--skip-ydata]

One table (IDs, dates, categories, free text, booleans, numbers with missing values, ties,
zeros, outliers and 1% duplicate rows) is written once as Parquet; every runner reads that file
in a process of its own, is warmed up on its first 1,000 rows, then profiles the whole table once.
Three rounds (--repeat) run every runner in turn and each runner's best time counts, as the
machine may be busy with other work; memory is the largest growth of any round:

- ydata-profiling in minimal mode, with Pearson and Spearman correlations and duplicate rows
  switched on so that it computes the same core statistics; the statistics only (get_description),
  not the HTML. It runs in a virtual environment of its own (its pins clash with ours), created on
  first use under ~/.cache/bunseki (or $XDG_CACHE_HOME/bunseki) with pip from the package registry.
- bare pandas, the floor: describe(), isna().sum() and corr() (no distinct counts, frequent values,
  duplicates, Spearman or dates).
- Bunseki's profile_table, on one thread and on its default threads (one per core, at most 4).

Peak memory is the growth of the runner's resident set while it profiles, over the frame's own
size in memory (deep). Targets: ≥ 10× faster than ydata-profiling, within 3× of the bare-pandas
floor, peak memory ≤ 3× the frame.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

YDATA_REQUIREMENT = "ydata-profiling>=4.18,<5"
TARGET_VS_YDATA = 10.0
TARGET_VS_FLOOR = 3.0
TARGET_MEMORY = 3.0
WARM_UP_ROWS = 1000
CHECKED = ("単価", "売上", "年齢")  # statistics every runner reports, to show they agree


def make_table(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(11)

    def with_gaps(values: np.ndarray, share: float) -> np.ndarray:
        values = values.astype("float64")
        values[rng.random(rows) < share] = np.nan
        return values

    price = rng.lognormal(8, 1, rows)
    quantity = rng.integers(1, 20, rows)
    frame = pd.DataFrame(
        {
            "注文ID": [f"O{index:08d}" for index in range(rows)],
            "注文日": pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 1500, rows), unit="D"),
            "登録日時": pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 10**8, rows), unit="s"),
            "地域": rng.choice(["北海道", "東北", "関東", "中部", "近畿", "中国", "四国", "九州"], rows),
            "店舗": rng.choice([f"店舗{index:03d}" for index in range(300)], rows),
            "カテゴリ": rng.choice(["食品", "飲料", "日用品", "家電", "衣料"], rows),
            "支払方法": rng.choice(["現金", "カード", "電子マネー", None], rows, p=[0.3, 0.4, 0.25, 0.05]),
            "メモ": rng.choice([f"メモ{index}" for index in range(200_000)], rows),
            "会員": rng.random(rows) < 0.4,
            "返品": pd.array(np.where(rng.random(rows) < 0.02, None, rng.random(rows) < 0.05), dtype="boolean"),
            "単価": price,
            "数量": quantity,
            "売上": with_gaps(price * quantity, 0.03),
            "割引率": with_gaps(rng.beta(1, 8, rows), 0.1),
            "年齢": with_gaps(rng.normal(42, 12, rows).round(), 0.05),
            "評価": rng.integers(1, 6, rows),
            "配送日数": rng.poisson(3, rows),
            "気温": rng.normal(15, 8, rows),
            "ポイント": np.where(rng.random(rows) < 0.6, 0, rng.integers(1, 500, rows)),
            "センサー": np.where(rng.random(rows) < 0.001, rng.normal(0, 100, rows), rng.normal(0, 1, rows)),
        }
    )
    copies, originals = rng.choice(rows, rows // 100, replace=False), rng.choice(rows, rows // 100)
    for name in frame.columns:  # 1% of the rows repeat another row exactly
        values = frame[name].to_numpy(copy=True)
        values[copies] = values[originals]
        frame[name] = pd.array(values, dtype=frame[name].dtype)
    return frame


# Runners: each runs in a process of its own and prints one JSON line -----------------------------


def run_ydata(frame: pd.DataFrame) -> dict[str, Any]:
    from ydata_profiling import ProfileReport

    report = ProfileReport(
        frame,
        minimal=True,
        progress_bar=False,
        correlations={
            "auto": {"calculate": False},
            "pearson": {"calculate": True},
            "spearman": {"calculate": True},
        },
        duplicates={"head": 10},
    )
    description = report.get_description()
    variables = description.variables
    pearson = description.correlations["pearson"]
    spearman = description.correlations["spearman"]
    return {
        "duplicates": int(description.table.get("n_duplicates", -1)),
        "checked": {
            name: [variables[name]["mean"], variables[name]["std"], variables[name]["n_missing"]] for name in CHECKED
        },
        "pearson": float(pearson.loc["単価", "売上"]),
        "spearman": float(spearman.loc["単価", "売上"]),
    }


def run_pandas(frame: pd.DataFrame) -> dict[str, Any]:
    described = frame.describe()
    missing = frame.isna().sum()
    correlations = frame.corr(numeric_only=True)
    return {
        "duplicates": None,
        "checked": {
            name: [described.loc["mean", name], described.loc["std", name], int(missing[name])] for name in CHECKED
        },
        "pearson": float(correlations.loc["単価", "売上"]),
        "spearman": None,
    }


def run_ours(frame: pd.DataFrame, workers: int | None) -> dict[str, Any]:
    from bunseki.data.profile import profile_table

    profile = profile_table(frame, workers=workers)
    pair = next(pair for pair in profile.correlations if {pair.a, pair.b} == {"単価", "売上"})
    checked = {}
    for name in CHECKED:
        column = profile.column(name)
        assert column is not None
        checked[name] = [column.mean, column.std, column.missing]
    return {"duplicates": profile.duplicates, "checked": checked, "pearson": pair.pearson, "spearman": pair.spearman}


RUNNERS: dict[str, Callable[[pd.DataFrame], dict[str, Any]]] = {
    "ydata": run_ydata,
    "pandas": run_pandas,
    "ours-1": lambda frame: run_ours(frame, workers=1),
    "ours": lambda frame: run_ours(frame, workers=None),
}


def child(runner: str, data: Path) -> None:
    """Profile the table in ``data`` with one runner and print what it took, as JSON."""
    warnings.filterwarnings("ignore")
    frame = pd.read_parquet(data)
    profile = RUNNERS[runner]
    profile(frame.head(WARM_UP_ROWS).copy())  # imports and first-call costs, for every runner alike
    gc.collect()
    resident = _memory("VmRSS")
    resettable = _reset_peak()
    began = time.perf_counter()
    result = profile(frame)
    seconds = time.perf_counter() - began
    peak = _memory("VmHWM") if resettable else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    result |= {
        "seconds": seconds,
        "peak_growth": peak - resident,
        "frame_bytes": int(frame.memory_usage(deep=True).sum()),
    }
    print(json.dumps(result, default=float))


def _memory(field: str) -> int:
    """A VmRSS/VmHWM line of /proc/self/status, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_peak() -> bool:
    """Make VmHWM the current resident size (Linux ≥ 4.0), so the peak is the profiling's own."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


# The parent: the table, the ydata-profiling environment, the runs and the report -----------------


def ydata_python() -> Path | None:
    """The Python of a virtual environment with ydata-profiling, created on first use; None if it cannot be."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bunseki"
    venv = cache / "ydata-profiling-venv"
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import ydata_profiling, pyarrow"]
    if python.exists() and subprocess.run(probe, capture_output=True, check=False).returncode == 0:
        return python
    print(f"Creating {venv} with {YDATA_REQUIREMENT} (once) …", flush=True)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", YDATA_REQUIREMENT, "pyarrow"], check=True)
    except (OSError, subprocess.CalledProcessError) as exc:  # offline, say: the other runners still run
        print(f"ydata-profiling is left out: its environment could not be set up ({exc}).", flush=True)
        return None
    return python


def run(runner: str, python: Path, data: Path) -> dict[str, Any]:
    """One timed profile by ``runner``, in a process of its own."""
    environment = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
    command = [str(python), __file__, "--runner", runner, "--data", str(data)]
    finished = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    if finished.returncode != 0:
        raise RuntimeError(f"{runner} failed:\n{finished.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(finished.stdout.strip().splitlines()[-1])
    return result


def report(rows: int, repeat: int, results: dict[str, dict[str, Any]]) -> None:
    from bunseki.data.profile import default_workers

    floor = results["pandas"]["seconds"]
    ydata = results.get("ydata", {}).get("seconds")
    names = {
        "ydata": "ydata-profiling (minimal + correlations)",
        "pandas": "bare pandas floor (describe, isna, corr)",
        "ours-1": "Bunseki profile_table, 1 thread",
        "ours": f"Bunseki profile_table, {default_workers()} threads",
    }
    print(f"\nProfiling {rows:,} rows × 20 columns (mixed); best of {repeat} rounds, each run after a warm-up\n")
    header = (
        f"{'runner':<42} {'seconds':>8} {'ydata ÷':>8} {'÷ floor':>8} {'peak MB':>8} {'frame MB':>9} {'× frame':>8}"
    )
    print(header)
    print("-" * len(header))
    for key, result in results.items():
        seconds = result["seconds"]
        speedup = f"{ydata / seconds:.1f}×" if ydata else "-"
        growth, frame = result["peak_growth"] / 1e6, result["frame_bytes"] / 1e6
        print(
            f"{names[key]:<42} {seconds:>8.2f} {speedup:>8} {seconds / floor:>7.2f}× "
            f"{growth:>8.0f} {frame:>9.0f} {growth / frame:>7.2f}×"
        )
    print(
        "\nSeconds per round: "
        + "; ".join(
            f"{key} " + " / ".join(f"{seconds:.2f}" for seconds in result["times"]) for key, result in results.items()
        )
    )
    print("\nThe same statistics (mean, std, missing of 単価 / 売上 / 年齢; duplicates; 単価~売上):")
    for key, result in results.items():
        checked = "  ".join(
            f"{name} {values[0]:.4f}/{values[1]:.4f}/{int(values[2])}" for name, values in result["checked"].items()
        )
        pair = f"r={result['pearson']:.6f}" + (f" ρ={result['spearman']:.6f}" if result["spearman"] is not None else "")
        duplicates = "-" if result["duplicates"] is None else f"{result['duplicates']:,}"
        print(f"  {key:<7} dup {duplicates:>7}  {pair}  {checked}")
    if "ydata" in results:
        print("  (ydata-profiling's n_duplicates counts groups of repeated rows, not the rows that repeat)")
    ours = results["ours"]
    print()
    if ydata:
        _verdict(
            ydata / ours["seconds"] >= TARGET_VS_YDATA,
            f"{ydata / ours['seconds']:.1f}× faster than ydata-profiling",
            f"≥ {TARGET_VS_YDATA:g}×",
        )
    _verdict(
        ours["seconds"] / floor <= TARGET_VS_FLOOR,
        f"{ours['seconds'] / floor:.2f}× the bare-pandas floor",
        f"≤ {TARGET_VS_FLOOR:g}×",
    )
    single = results["ours-1"]["seconds"] / floor
    print(f"      (on one thread: {single:.2f}× the floor)")
    memory = ours["peak_growth"] / ours["frame_bytes"]
    _verdict(memory <= TARGET_MEMORY, f"peak memory {memory:.2f}× the frame", f"≤ {TARGET_MEMORY:g}×")


def _best(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A runner's fastest round, with the largest memory growth of any round and every time."""
    best = dict(min(results, key=lambda result: float(result["seconds"])))
    best["peak_growth"] = max(result["peak_growth"] for result in results)
    best["times"] = [result["seconds"] for result in results]
    return best


def _verdict(passed: bool, measured: str, target: str) -> None:
    print(f"{'PASS' if passed else 'MISS'}  {measured} (target {target})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="rounds of timed runs; each runner's best counts")
    parser.add_argument("--skip-ydata", action="store_true", help="leave ydata-profiling out (it takes minutes)")
    parser.add_argument("--runner", choices=sorted(RUNNERS), help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.runner:
        child(arguments.runner, arguments.data)
        return 0
    directory = Path(tempfile.mkdtemp(prefix="bunseki-eda-bench-"))
    try:
        data = directory / "table.parquet"
        make_table(arguments.rows).to_parquet(data, index=False)
        runners = {"pandas": Path(sys.executable), "ours-1": Path(sys.executable), "ours": Path(sys.executable)}
        ydata = None if arguments.skip_ydata else ydata_python()
        if ydata is not None:
            runners = {"ydata": ydata, **runners}
        rounds: dict[str, list[dict[str, Any]]] = {runner: [] for runner in runners}
        for round_number in range(1, max(1, arguments.repeat) + 1):
            # Rounds interleave the runners, so that other work on the machine weighs on all of them alike.
            for runner, python in runners.items():
                print(f"round {round_number}: {runner} …", flush=True)
                rounds[runner].append(run(runner, python, data))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    report(arguments.rows, max(1, arguments.repeat), {runner: _best(results) for runner, results in rounds.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
