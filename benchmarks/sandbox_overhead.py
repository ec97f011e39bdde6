"""Per-cell overhead of the warm sandbox, against three ways of running the same cells.

    python benchmarks/sandbox_overhead.py [--runs 20] [--json results.json]

Baselines, measured in the same run on the same machine:
- in-process ``exec`` (no isolation, no rollback): the floor;
- a cold ``python -c`` subprocess per cell (imports and data load every time);
- a Jupyter kernel driven by jupyter_client (warm, but no isolation and no rollback).

Cells: ``df.describe()`` on 100,000 rows, and a seaborn bar plot saved to PNG. Reported: the
median (p50) and p95 of each, the ratio to in-process exec, and the overheads of the sandbox
and of the Jupyter kernel over in-process exec in milliseconds. The runners take turns in 5
rounds (so that load from elsewhere on the machine hits them alike); within a round each runs
its cells back to back, the first one untimed. Targets: per cell, the sandbox's p50 overhead over
in-process exec (with isolation and rollback on) at most the Jupyter kernel's + 5 ms, in the
same run; session start ≤ 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np
import pandas as pd

from bunseki.sandbox import Sandbox, new_workspace
from bunseki.settings import Settings

CELLS = {
    "describe (100k rows)": "print(df.describe())",
    "seaborn plot to PNG": (
        "import seaborn as sns\n"
        "ax = sns.barplot(data=df.head(5000), x='地域', y='売上', errorbar=None)\n"
        "ax.set_title('地域別の売上')\n"
        "plt.savefig('bench.png', dpi=80)\n"
        "plt.close('all')"
    ),
}
PRELUDE = (
    "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
    "import matplotlib_fontja\nimport numpy as np\nimport pandas as pd\nimport seaborn as sns\n"
)
ROUNDS = 5
TARGET_MARGIN_MS = 5.0  # over the Jupyter kernel's own overhead, same run
TARGET_START_S = 2.0


def make_frame(rows: int = 100_000) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "日付": pd.date_range("2024-01-01", periods=rows, freq="min"),
            "地域": rng.choice(["北海道", "関東", "中部", "近畿", "九州"], rows),
            "売上": rng.integers(100, 100_000, rows),
            "数量": rng.integers(1, 50, rows),
            "単価": rng.normal(1000, 200, rows),
            "割引率": rng.uniform(0, 0.3, rows),
        }
    )


def timed(function: Callable[[], object], runs: int) -> list[float]:
    function()  # warm-up, not counted
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        function()
        samples.append(time.perf_counter() - began)
    return samples


def in_process(frame: pd.DataFrame, workdir: Path) -> Callable[[str], Callable[[], object]]:
    import matplotlib.pyplot as plt
    import matplotlib_fontja  # noqa: F401  (same fonts as the sandbox)

    namespace: dict[str, object] = {"df": frame, "plt": plt, "pd": pd, "np": np}

    def runner(code: str) -> Callable[[], object]:
        def run() -> None:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(workdir):
                exec(code, namespace)

        return run

    return runner


def cold_subprocess(data: Path, workdir: Path) -> Callable[[str], Callable[[], object]]:
    def runner(code: str) -> Callable[[], object]:
        program = PRELUDE + f"df = pd.read_pickle({str(data)!r})\n" + code

        def run() -> None:
            subprocess.run([sys.executable, "-c", program], cwd=workdir, check=True, capture_output=True)

        return run

    return runner


class Kernel:
    """A Jupyter kernel with the same prelude and data, driven over jupyter_client."""

    def __init__(self, data: Path, workdir: Path) -> None:
        from jupyter_client.manager import KernelManager

        began = time.perf_counter()
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(cwd=str(workdir))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        self.execute(PRELUDE + f"df = pd.read_pickle({str(data)!r})")
        self.start_s = time.perf_counter() - began

    def execute(self, code: str) -> None:
        reply = self.client.execute_interactive(code, timeout=120, output_hook=lambda message: None)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"kernel error: {reply['content']}")

    def runner(self, code: str) -> Callable[[], object]:
        return lambda: self.execute(code)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="timed runs per cell and runner (>= 20)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    runs = max(20, args.runs)
    frame = make_frame()
    root = Path(tempfile.mkdtemp(prefix="bunseki-bench-"))
    root.chmod(0o711)
    data = root / "frame.pkl"
    frame.to_pickle(data)
    workdir = root / "work"
    workdir.mkdir()
    settings = Settings(workspace_root=root)

    starts = []
    for _ in range(5):
        began = time.perf_counter()
        with Sandbox(new_workspace(root), settings=settings):
            starts.append(time.perf_counter() - began)
    sandbox = Sandbox(new_workspace(root), settings=settings)
    sandbox.start()
    sandbox.load_frame(frame)
    kernel = Kernel(data, workdir)

    runners = {
        "in-process exec": in_process(frame, workdir),
        f"warm sandbox ({sandbox.isolation.tier})": lambda code: lambda: _checked(sandbox.run(code)),
        "Jupyter kernel": kernel.runner,
        "cold python -c": cold_subprocess(data, workdir),
    }
    results: dict[str, dict[str, dict[str, float]]] = {}
    try:
        for cell, code in CELLS.items():
            results[cell] = {}
            samples: dict[str, list[float]] = {name: [] for name in runners}
            for turn in range(ROUNDS):  # rounds, so that load from elsewhere hits every runner alike
                order = list(runners)[turn % len(runners) :] + list(runners)[: turn % len(runners)]
                for name in order:
                    total = runs if "cold" not in name else max(20, runs // 2)
                    samples[name] += timed(runners[name](code), -(-total // ROUNDS))
            for name in runners:
                results[cell][name] = {
                    "p50_ms": statistics.median(samples[name]) * 1000,
                    "p95_ms": percentile(samples[name], 0.95) * 1000,
                }
            baseline = results[cell]["in-process exec"]["p50_ms"]
            for figures in results[cell].values():
                figures["overhead_p50_ms"] = figures["p50_ms"] - baseline
    finally:
        sandbox.close()
        kernel.close()

    report(results, statistics.median(starts), kernel.start_s, sandbox.isolation.tier or "?")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "cells": results,
                    "sandbox_start_s": statistics.median(starts),
                    "kernel_start_s": kernel.start_s,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    return 0


def _checked(result: object) -> None:
    if not getattr(result, "success", False):
        raise RuntimeError(f"benchmark cell failed in the sandbox: {getattr(result, 'error', result)}")


def report(results: dict[str, dict[str, dict[str, float]]], start_s: float, kernel_start_s: float, tier: str) -> None:
    print(f"\nSandbox overhead per cell (median of ≥ 20 runs; isolation: {tier}, rollback on)\n")
    header = f"{'cell':<22} {'runner':<24} {'p50 ms':>9} {'p95 ms':>9} {'× in-process':>13}"
    print(header)
    print("-" * len(header))
    verdicts = []
    for cell, runners in results.items():
        baseline = runners["in-process exec"]["p50_ms"]
        for name, figures in runners.items():
            ratio = figures["p50_ms"] / baseline
            print(f"{cell:<22} {name:<24} {figures['p50_ms']:>9.1f} {figures['p95_ms']:>9.1f} {ratio:>12.2f}×")
        sandbox = next(figures for name, figures in runners.items() if name.startswith("warm sandbox"))
        verdicts.append((cell, sandbox["overhead_p50_ms"], runners["Jupyter kernel"]["overhead_p50_ms"]))
        print()
    for cell, overhead, jupyter in verdicts:
        target = jupyter + TARGET_MARGIN_MS
        mark = "PASS" if overhead <= target else "MISS"
        print(
            f"{mark}  sandbox overhead on {cell}: {overhead:+.1f} ms p50 over in-process exec; "
            f"Jupyter kernel {jupyter:+.1f} ms (target ≤ Jupyter + {TARGET_MARGIN_MS:g} ms = {target:+.1f} ms)"
        )
    mark = "PASS" if start_s <= TARGET_START_S else "MISS"
    print(
        f"{mark}  sandbox session start: {start_s:.2f} s median of 5 (target ≤ {TARGET_START_S:g} s); "
        f"Jupyter kernel start + same imports: {kernel_start_s:.2f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
