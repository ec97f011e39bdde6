"""Growth of the offline question parser's time with the question's length.

    python benchmarks/parse_long.py

For each adversarial question (a repeated word, digits, kanji, dates, an answer format
followed by digits), the parse time at 50,000 characters is divided by the time at 5,000.
Linear reading gives a ratio near 10; the quadratic readers this replaced gave about 100
(20,000-character cases took 4 s to over 20 s before; 0.1 to 0.4 s after). Target: every
ratio ≤ 20. Shorter inputs are too fast to time reliably on a shared machine.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import pandas as pd

from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.data import load_table
from bunseki.data.summary import DataFrameInfo, summarize
from bunseki.samples import SALES_CSV

UNITS = {
    "repeated word": "sales ",
    "digits": "1",
    "digits and commas": "1,",
    "kanji": "売上",
    "dates": "1月2日",
    "per": "sales per ",
    "numbers with 万": "1万",
}
TARGET_RATIO = 20.0
SHORT, LONG = 5_000, 50_000


def timed(parse: Callable[[str, DataFrameInfo], object], text: str, info: DataFrameInfo) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        parse(text, info)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    infos = {
        "sample (ja)": summarize(load_table(SALES_CSV).frame),
        "shop (en)": summarize(
            pd.DataFrame({"region": ["East", "West"] * 5, "sales": [float(n) for n in range(10)], "units": range(10)})
        ),
    }
    parsers: dict[str, Callable[[str, DataFrameInfo], object]] = {
        "plan_question": lambda text, info: plan_question(text, info, "en"),
        "answer format": lambda text, info: plan_question("@a[x] " + text, info, "en"),
    }
    worst = 0.0
    print(f"{'input':<20} {'table':<12} {'parser':<14} {'5k ms':>8} {'50k ms':>8} {'ratio':>6}")
    for name, unit in UNITS.items():
        for table, info in infos.items():
            for parser_name, parse in parsers.items():
                short = timed(parse, (unit * SHORT)[:SHORT], info)
                long = timed(parse, (unit * LONG)[:LONG], info)
                ratio = long / max(short, 1e-6)
                worst = max(worst, ratio)
                print(f"{name:<20} {table:<12} {parser_name:<14} {short * 1e3:8.1f} {long * 1e3:8.1f} {ratio:6.1f}")
    print(f"worst ratio {worst:.1f} (target ≤ {TARGET_RATIO:.0f})")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
