"""Latency of a whole offline analyst turn on a 100,000-row table, once the sandbox is warm.

    python benchmarks/offline_turn.py [--runs 24]

A turn is everything `bunseki analyze` does for one question after the session is open: read
the question, plan, write and run the code in the sandbox (chart included), write the report
and save it as Markdown, HTML and a notebook. The baseline, measured in the same run, is the
bare pandas computation of the same answers in-process. Target: ≤ 1 s p50 per turn.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bunseki.service.analysis import AnalysisSession
from bunseki.settings import Settings

QUESTIONS = [
    "地域別の売上の合計をグラフにして",
    "関東の売上の平均は？",
    "月別の売上推移",
    "売上上位5店舗は？",
    "数量と売上の相関は？",
    "total sales by category",
]
TARGET_S = 1.0


def make_table(rows: int = 100_000) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame(
        {
            "日付": pd.date_range("2023-01-01", periods=rows, freq="5min").strftime("%Y/%m/%d"),
            "地域": rng.choice(["北海道", "東北", "関東", "中部", "近畿", "九州"], rows),
            "店舗": rng.choice([f"店舗{i:02d}" for i in range(40)], rows),
            "カテゴリ": rng.choice(["食品", "飲料", "日用品", "家電"], rows),
            "数量": rng.integers(1, 30, rows),
            "売上": rng.integers(100, 50_000, rows),
        }
    )


def baseline(frame: pd.DataFrame) -> None:
    """The same answers computed directly in-process (no sandbox, no report)."""
    frame.groupby("地域")["売上"].sum()
    frame.loc[frame["地域"] == "関東", "売上"].mean()
    frame.set_index(pd.to_datetime(frame["日付"]))["売上"].resample("MS").sum()
    frame.groupby("店舗")["売上"].sum().nlargest(5)
    frame["数量"].corr(frame["売上"])
    frame.groupby("カテゴリ")["売上"].sum()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=24, help="timed turns (>= 20), cycling through the questions")
    runs = max(20, parser.parse_args().runs)
    root = Path(tempfile.mkdtemp(prefix="bunseki-turn-"))
    root.chmod(0o711)
    try:
        frame = make_table()
        path = root / "売上_10万行.csv"
        frame.to_csv(path, index=False, encoding="cp932")
        opened = time.perf_counter()
        session = AnalysisSession(path, settings=Settings(workspace_root=root, model="offline"))
        open_s = time.perf_counter() - opened
        loaded = frame.assign(日付=pd.to_datetime(frame["日付"]))
        base = []
        for _ in range(5):
            began = time.perf_counter()
            baseline(loaded)
            base.append((time.perf_counter() - began) / len(QUESTIONS))
        with session:
            session.ask(QUESTIONS[0])  # warm-up, not counted
            turns = []
            for number in range(runs):
                session.messages = []
                began = time.perf_counter()
                result = session.ask(QUESTIONS[number % len(QUESTIONS)])
                turns.append(time.perf_counter() - began)
                if result.status != "finalized":
                    raise RuntimeError(f"turn {number} ended {result.status}: {result.error or result.question}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    p50, p95 = statistics.median(turns), sorted(turns)[round(0.95 * (len(turns) - 1))]
    reference = statistics.median(base)
    print(f"\nOffline analyst turn on 100,000 rows ({runs} turns over {len(QUESTIONS)} questions)\n")
    print(f"{'measure':<44} {'seconds':>9}")
    print(f"{'session open (load CSV, start sandbox)':<44} {open_s:>9.3f}")
    print(f"{'turn p50 (plan, run, chart, report ×3)':<44} {p50:>9.3f}")
    print(f"{'turn p95':<44} {p95:>9.3f}")
    print(f"{'baseline: same answers in pandas, per question':<44} {reference:>9.3f}")
    print(f"\nturn p50 = {p50 / reference:.1f} × the bare pandas computation")
    print(f"{'PASS' if p50 <= TARGET_S else 'MISS'}  offline turn p50 {p50:.3f} s (target ≤ {TARGET_S:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
