"""Regenerate the bundled sample table (deterministic): ``python scripts/make_sample_data.py``.

A year of daily sales for a fictional Japanese retail chain, written in CP932 as Japanese
spreadsheets export it. The numbers carry real structure (regional size, seasonality, weekend
lift, category mix, a few missing values) so that analyses of it have something to find.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parents[1] / "src" / "bunseki" / "samples" / "sales_cp932.csv"

STORES = [
    ("北海道", "北海道", "札幌店", 0.9),
    ("東北", "宮城県", "仙台店", 0.8),
    ("関東", "東京都", "新宿店", 1.6),
    ("関東", "東京都", "渋谷店", 1.4),
    ("関東", "神奈川県", "横浜店", 1.2),
    ("中部", "愛知県", "名古屋店", 1.1),
    ("近畿", "大阪府", "梅田店", 1.3),
    ("近畿", "京都府", "京都店", 0.9),
    ("中国", "広島県", "広島店", 0.7),
    ("九州", "福岡県", "博多店", 1.0),
]
CATEGORIES = {
    "食品": (1.0, 900),
    "飲料": (0.6, 350),
    "日用品": (0.5, 700),
    "衣料品": (0.35, 3800),
    "家電": (0.12, 24000),
}


def build(seed: int = 20240101) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    days = pd.date_range("2024-01-01", "2024-12-31", freq="D")
    rows = []
    for day in days:
        season = 1 + 0.18 * np.sin((day.day_of_year - 100) / 365 * 2 * np.pi) + (0.35 if day.month == 12 else 0)
        weekend = 1.25 if day.day_of_week >= 5 else 1.0
        for region, prefecture, store, size in STORES:
            for category, (share, price) in CATEGORIES.items():
                lift = 1.6 if category == "飲料" and day.month in (7, 8) else 1.0
                quantity = rng.poisson(40 * size * share * season * weekend * lift)
                unit = price * rng.uniform(0.9, 1.1)
                rows.append(
                    {
                        "日付": day.strftime("%Y/%m/%d"),
                        "地域": region,
                        "都道府県": prefecture,
                        "店舗": store,
                        "商品カテゴリ": category,
                        "数量": int(quantity),
                        "売上金額": int(round(quantity * unit, -1)),
                        "客数": int(rng.poisson(quantity * 0.7 + 1)),
                    }
                )
    frame = pd.DataFrame(rows)
    # A few blanks, as real exports have.
    frame.loc[rng.choice(len(frame), 25, replace=False), "客数"] = None
    frame["客数"] = frame["客数"].astype("Int64")
    return frame


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    build().to_csv(OUT, index=False, encoding="cp932")
    print(f"wrote {OUT}")
