"""The evaluation tables, generated at run time from a fixed seed (nothing large is committed).

Thirteen everyday domains, with column names in Japanese, English or both, written to disk the way
such files arrive (the Japanese sales ledger in CP932, one file with a UTF-8 BOM).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20240401


@dataclass(frozen=True)
class Table:
    name: str
    file: str
    build: Callable[[np.random.Generator], pd.DataFrame]
    encoding: str = "utf-8"

    def frame(self) -> pd.DataFrame:
        return self.build(np.random.default_rng([SEED, sum(map(ord, self.name))]))

    def write(self, directory: Path) -> Path:
        path = directory / self.file
        self.frame().to_csv(path, index=False, encoding=self.encoding)
        return path


def _spikes(rng: np.random.Generator, values: np.ndarray, count: int, factor: float) -> np.ndarray:
    """A few readings far from the rest, as real logs have."""
    values = np.asarray(values, dtype=float).copy()
    picked = rng.choice(len(values), count, replace=False)
    values[picked] = values[picked] * factor
    return values


def sales_jp(rng: np.random.Generator) -> pd.DataFrame:
    rows = 2400
    stores = ["東京店", "大阪店", "名古屋店", "福岡店", "札幌店"]
    products = {
        "食品": ["おにぎり", "弁当", "パン", "サラダ"],
        "飲料": ["お茶", "コーヒー", "ジュース"],
        "日用品": ["洗剤", "ティッシュ", "歯ブラシ"],
        "雑貨": ["ノート", "ボールペン"],
    }
    price = {
        "おにぎり": 150,
        "弁当": 580,
        "パン": 220,
        "サラダ": 380,
        "お茶": 160,
        "コーヒー": 190,
        "ジュース": 170,
        "洗剤": 420,
        "ティッシュ": 300,
        "歯ブラシ": 250,
        "ノート": 180,
        "ボールペン": 120,
    }
    category = rng.choice(list(products), rows, p=[0.45, 0.3, 0.15, 0.1])
    product = [rng.choice(products[c]) for c in category]
    dates = pd.Timestamp("2023-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 731, rows)), unit="D")
    store = rng.choice(stores, rows, p=[0.32, 0.24, 0.18, 0.14, 0.12])
    growth = 1 + 0.25 * (dates - dates.min()).days / 730
    quantity = np.maximum(1, (rng.poisson(6, rows) * growth).round()).astype(int)
    amount = np.array([price[p] for p in product]) * np.asarray(quantity)
    amount = _spikes(rng, amount, 8, 12).astype(int)
    return pd.DataFrame(
        {
            "日付": dates.strftime("%Y/%m/%d"),
            "店舗": store,
            "商品": product,
            "カテゴリ": category,
            "数量": quantity,
            "金額": amount,
        }
    )


def sensors(rng: np.random.Generator) -> pd.DataFrame:
    rows = 2016
    times = pd.date_range("2024-03-01", periods=rows, freq="30min")
    sensor = np.tile(["S-01", "S-02", "S-03", "S-04"], rows // 4)
    hour = times.hour.to_numpy()
    temperature = 18 + 6 * np.sin((hour - 6) / 24 * 2 * np.pi) + rng.normal(0, 1.2, rows) + np.arange(rows) * 0.001
    humidity = 70 - 1.8 * (temperature - 18) + rng.normal(0, 4, rows)
    pressure = 1013 + rng.normal(0, 3, rows)
    temperature[rng.choice(rows, 7, replace=False)] += 25
    status = np.where(rng.random(rows) < 0.04, "error", "ok")
    return pd.DataFrame(
        {
            "timestamp": times.strftime("%Y-%m-%d %H:%M"),
            "sensor_id": sensor,
            "temperature": temperature.round(2),
            "humidity": humidity.round(1),
            "pressure": pressure.round(1),
            "status": status,
        }
    )


def bills(rng: np.random.Generator) -> pd.DataFrame:
    rows = 420
    size = rng.choice([1, 2, 3, 4, 5, 6], rows, p=[0.05, 0.5, 0.2, 0.17, 0.05, 0.03])
    total = (size * rng.gamma(4, 2.6, rows) + 3).round(2)
    smoker = rng.choice(["Yes", "No"], rows, p=[0.38, 0.62])
    tip = (total * rng.normal(0.16, 0.04, rows) + np.where(smoker == "Yes", -0.4, 0)).clip(1).round(2)
    day = rng.choice(["Thur", "Fri", "Sat", "Sun"], rows, p=[0.25, 0.1, 0.35, 0.3])
    time = np.where(rng.random(rows) < 0.3, "Lunch", "Dinner")
    sex = rng.choice(["Female", "Male"], rows, p=[0.36, 0.64])
    return pd.DataFrame(
        {"total_bill": total, "tip": tip, "sex": sex, "smoker": smoker, "day": day, "time": time, "size": size}
    )


def indicators(rng: np.random.Generator) -> pd.DataFrame:
    countries = {
        "Japan": ("Asia", 127e6, 40000),
        "India": ("Asia", 1.25e9, 1500),
        "China": ("Asia", 1.35e9, 6000),
        "Germany": ("Europe", 82e6, 42000),
        "France": ("Europe", 65e6, 38000),
        "Brazil": ("Americas", 195e6, 9000),
        "United States": ("Americas", 310e6, 48000),
        "Nigeria": ("Africa", 160e6, 2200),
        "Kenya": ("Africa", 42e6, 1000),
        "Indonesia": ("Asia", 240e6, 3100),
        "Mexico": ("Americas", 115e6, 8500),
        "Egypt": ("Africa", 82e6, 2600),
    }
    rows = []
    for country, (region, population, gdp_pc) in countries.items():
        pop_growth, gdp_growth = rng.uniform(-0.003, 0.027), rng.uniform(0.0, 0.07)
        for offset, year in enumerate(range(2010, 2021)):
            pop = population * (1 + pop_growth) ** offset
            per_capita = gdp_pc * (1 + gdp_growth) ** offset * rng.normal(1, 0.02)
            rows.append(
                {
                    "country": country,
                    "region": region,
                    "year": year,
                    "population": int(pop),
                    "gdp_usd": round(pop * per_capita),
                    "gdp_per_capita": round(per_capita, 1),
                    "life_expectancy": round(55 + 9 * np.log10(per_capita) - 12 + rng.normal(0, 1), 1),
                    "co2_per_capita": round(0.0002 * per_capita + rng.normal(1, 0.5), 2),
                }
            )
    return pd.DataFrame(rows)


def hr(rng: np.random.Generator) -> pd.DataFrame:
    rows = 360
    department = rng.choice(
        ["営業部", "開発部", "人事部", "経理部", "マーケティング部"], rows, p=[0.3, 0.3, 0.1, 0.1, 0.2]
    )
    age = rng.integers(22, 63, rows)
    tenure = np.minimum(age - 22, rng.integers(0, 30, rows))
    salary = (350 + 9 * tenure + np.where(department == "開発部", 80, 0) + rng.normal(0, 60, rows)).round() * 10000
    overtime = rng.gamma(2, 9, rows).round(1)
    remote = rng.choice(["有", "無"], rows, p=[0.45, 0.55])
    rating = rng.choice(["S", "A", "B", "C"], rows, p=[0.1, 0.3, 0.45, 0.15])
    return pd.DataFrame(
        {
            "社員番号": [f"E{1000 + i}" for i in range(rows)],
            "部署": department,
            "年齢": age,
            "勤続年数": tenure,
            "年収": salary.astype(int),
            "残業時間": overtime,
            "在宅勤務": remote,
            "評価": rating,
            "入社日": (
                pd.Timestamp("2024-04-01") - pd.to_timedelta(tenure * 365 + rng.integers(0, 300, rows), unit="D")
            ).strftime("%Y-%m-%d"),
        }
    )


def traffic(rng: np.random.Generator) -> pd.DataFrame:
    days = pd.date_range("2024-01-01", "2024-06-30", freq="D")
    pages = ["/home", "/pricing", "/blog", "/docs", "/signup"]
    sources = ["organic", "ads", "social", "email"]
    rows = []
    for offset, day in enumerate(days):
        for page in pages:
            source = sources[rng.integers(0, 4)]
            sessions = int(
                rng.poisson(
                    {"/home": 900, "/pricing": 300, "/blog": 500, "/docs": 420, "/signup": 150}[page]
                    * (1 + offset / 400)
                    * (0.8 if day.weekday() >= 5 else 1)
                )
            )
            rows.append(
                {
                    "date": day.strftime("%Y-%m-%d"),
                    "page": page,
                    "source": source,
                    "sessions": sessions,
                    "pageviews": int(sessions * rng.uniform(1.2, 3.0)),
                    "bounce_rate": round(rng.uniform(0.25, 0.75), 3),
                    "conversions": int(rng.binomial(sessions, 0.03 if page == "/signup" else 0.01)),
                }
            )
    frame = pd.DataFrame(rows)
    frame.loc[rng.choice(len(frame), 5, replace=False), "sessions"] *= 8
    return frame


def inventory(rng: np.random.Generator) -> pd.DataFrame:
    rows = 300
    warehouse = rng.choice(["東京倉庫", "大阪倉庫", "福岡倉庫"], rows, p=[0.45, 0.35, 0.2])
    category = rng.choice(["部品", "工具", "消耗品", "梱包材"], rows)
    stock = rng.integers(0, 800, rows)
    reorder = rng.integers(50, 300, rows)
    cost = rng.choice([120, 480, 950, 2300, 5600, 12800], rows)
    return pd.DataFrame(
        {
            "品番": [f"P-{i:04d}" for i in range(rows)],
            "品名": [f"{c}{i:03d}" for i, c in enumerate(category)],
            "倉庫": warehouse,
            "分類": category,
            "在庫数": stock,
            "発注点": reorder,
            "単価": cost,
            "最終入荷日": (pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365, rows), unit="D")).strftime(
                "%Y-%m-%d"
            ),
        }
    )


def weather(rng: np.random.Generator) -> pd.DataFrame:
    days = pd.date_range("2023-01-01", "2024-12-31", freq="D")
    cities = {"東京": 16, "札幌": 9, "那覇": 23, "大阪": 17}
    rows = []
    for city, mean in cities.items():
        season = 9 * np.sin((days.dayofyear.to_numpy() - 110) / 365 * 2 * np.pi)
        high = mean + 4 + season + rng.normal(0, 2.2, len(days))
        low = high - rng.uniform(5, 10, len(days))
        rain = np.where(rng.random(len(days)) < 0.3, rng.gamma(1.5, 8, len(days)), 0).round(1)
        for i, day in enumerate(days):
            rows.append(
                {
                    "日付": day.strftime("%Y-%m-%d"),
                    "都市": city,
                    "最高気温": round(high[i], 1),
                    "最低気温": round(low[i], 1),
                    "降水量": rain[i],
                    "天気": "雨" if rain[i] > 1 else ("曇り" if rng.random() < 0.4 else "晴れ"),
                }
            )
    return pd.DataFrame(rows)


def grades(rng: np.random.Generator) -> pd.DataFrame:
    rows = 240
    club = rng.choice(["はい", "いいえ"], rows, p=[0.6, 0.4])
    ability = rng.normal(0, 1, rows)
    japanese = (62 + 10 * ability + rng.normal(0, 8, rows)).clip(0, 100).round()
    math = (58 + 13 * ability + rng.normal(0, 9, rows)).clip(0, 100).round()
    english = (60 + 8 * ability + rng.normal(0, 11, rows)).clip(0, 100).round()
    math[rng.choice(rows, 3, replace=False)] = [3, 5, 2]
    return pd.DataFrame(
        {
            "生徒ID": [f"S{i:03d}" for i in range(rows)],
            "クラス": rng.choice(["1組", "2組", "3組", "4組"], rows),
            "性別": rng.choice(["男", "女"], rows),
            "部活": club,
            "国語": japanese.astype(int),
            "数学": math.astype(int),
            "英語": english.astype(int),
            "欠席日数": rng.poisson(3, rows),
        }
    )


def orders(rng: np.random.Generator) -> pd.DataFrame:
    rows = 1500
    dates = pd.Timestamp("2023-04-01") + pd.to_timedelta(np.sort(rng.integers(0, 731, rows)), unit="D")
    member = rng.choice(["yes", "no"], rows, p=[0.42, 0.58])
    category = rng.choice(["Books", "Electronics", "Fashion", "Home", "Toys"], rows, p=[0.25, 0.2, 0.25, 0.2, 0.1])
    base = {"Books": 1800, "Electronics": 24000, "Fashion": 6500, "Home": 8800, "Toys": 4200}
    amount = np.array([base[c] for c in category]) * rng.lognormal(0, 0.4, rows) * np.where(member == "yes", 1.15, 1)
    shipping = np.where(amount > 5000, 0, 550)
    payment = rng.choice(["カード", "コンビニ払い", "代引き", "PayPay"], rows, p=[0.55, 0.15, 0.1, 0.2])
    return pd.DataFrame(
        {
            "注文ID": [f"A{100000 + i}" for i in range(rows)],
            "注文日": dates.strftime("%Y-%m-%d"),
            "会員": member,
            "category": category,
            "金額": amount.round().astype(int),
            "送料": shipping,
            "支払方法": payment,
            "都道府県": rng.choice(["東京都", "神奈川県", "大阪府", "愛知県", "北海道"], rows),
        }
    )


def hotel(rng: np.random.Generator) -> pd.DataFrame:
    rows = 900
    arrival = pd.Timestamp("2024-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 366, rows)), unit="D")
    room = rng.choice(["Single", "Double", "Suite"], rows, p=[0.45, 0.45, 0.1])
    nights = rng.integers(1, 8, rows)
    rate = (
        np.array([{"Single": 9000, "Double": 14000, "Suite": 38000}[r] for r in room])
        * (1 + 0.3 * np.isin(arrival.month, [7, 8, 12]))
        * rng.normal(1, 0.08, rows)
    )
    canceled = rng.choice(["Yes", "No"], rows, p=[0.18, 0.82])
    return pd.DataFrame(
        {
            "booking_id": np.arange(1, rows + 1),
            "arrival_date": arrival.strftime("%Y-%m-%d"),
            "room_type": room,
            "nights": nights,
            "nightly_rate": rate.round(),
            "revenue": (rate * nights).round(),
            "canceled": canceled,
            "channel": rng.choice(["Direct", "OTA", "Travel agent"], rows, p=[0.3, 0.55, 0.15]),
            "guests": rng.integers(1, 5, rows),
        }
    )


def clinic(rng: np.random.Generator) -> pd.DataFrame:
    """Outpatient visits of a small hospital over two Japanese fiscal years (Japanese headers)."""
    rows = 1800
    days = pd.Timestamp("2023-04-01") + pd.to_timedelta(np.sort(rng.integers(0, 731, rows)), unit="D")
    department = rng.choice(
        ["内科", "外科", "小児科", "整形外科", "皮膚科", "眼科"], rows, p=[0.3, 0.12, 0.18, 0.17, 0.12, 0.11]
    )
    first_visit = rng.choice(["初診", "再診"], rows, p=[0.35, 0.65])
    age = np.where(department == "小児科", rng.integers(0, 15, rows), rng.integers(15, 92, rows))
    wait = rng.gamma(3, 9, rows) * np.where(first_visit == "初診", 1.4, 1.0) * (1 + 0.15 * (days.dayofweek == 0))
    fee = (
        np.array(
            [
                {"内科": 3200, "外科": 5200, "小児科": 2400, "整形外科": 4100, "皮膚科": 2100, "眼科": 2800}[d]
                for d in department
            ]
        )
        * rng.lognormal(0, 0.35, rows)
        * (1 + 0.12 * (days - days.min()).days / 730)
    )
    fee = _spikes(rng, fee, 6, 9)
    return pd.DataFrame(
        {
            "受診日": days.strftime("%Y/%m/%d"),
            "診療科": department,
            "初診再診": first_visit,
            "年齢": age,
            "待ち時間（分）": wait.round().astype(int),
            "診療費": fee.round(-1).astype(int),
            "紹介状": rng.choice(["あり", "なし"], rows, p=[0.2, 0.8]),
            "保険種別": rng.choice(["社保", "国保", "後期高齢"], rows, p=[0.5, 0.32, 0.18]),
        }
    )


def returns(rng: np.random.Generator) -> pd.DataFrame:
    """E-commerce returns over eighteen months (English headers)."""
    rows = 1300
    returned = pd.Timestamp("2024-01-01") + pd.to_timedelta(np.sort(rng.integers(0, 547, rows)), unit="D")
    category = rng.choice(["Apparel", "Electronics", "Home", "Beauty", "Toys"], rows, p=[0.38, 0.2, 0.18, 0.14, 0.1])
    price = np.array([{"Apparel": 48, "Electronics": 260, "Home": 85, "Beauty": 32, "Toys": 40}[c] for c in category])
    refund = price * rng.lognormal(0, 0.45, rows) * (1 - 0.2 * (returned - returned.min()).days / 547)
    reason = rng.choice(
        ["Wrong size", "Damaged", "Not as described", "Changed mind", "Late delivery"],
        rows,
        p=[0.3, 0.2, 0.2, 0.2, 0.1],
    )
    fee = np.where(reason == "Changed mind", (refund * 0.1).round(2), 0.0)
    return pd.DataFrame(
        {
            "return_id": [f"RT-{20000 + i}" for i in range(rows)],
            "return_date": returned.strftime("%Y-%m-%d"),
            "product_category": category,
            "reason": reason,
            "refund_usd": refund.round(2),
            "restocking_fee": fee,
            "days_since_purchase": rng.integers(1, 60, rows),
            "customer_tier": rng.choice(["Gold", "Silver", "Bronze"], rows, p=[0.2, 0.35, 0.45]),
            "resellable": rng.choice(["Y", "N"], rows, p=[0.64, 0.36]),
            "warehouse": rng.choice(["Reno", "Dallas", "Atlanta", "Newark"], rows, p=[0.3, 0.28, 0.22, 0.2]),
        }
    )


TABLES = {
    table.name: table
    for table in [
        Table("sales", "売上明細_2023-2024.csv", sales_jp, encoding="cp932"),
        Table("sensors", "sensor_readings.csv", sensors),
        Table("bills", "restaurant_bills.csv", bills),
        Table("indicators", "world_indicators.csv", indicators),
        Table("hr", "社員データ.csv", hr, encoding="utf-8-sig"),
        Table("traffic", "web_traffic.csv", traffic),
        Table("inventory", "在庫一覧.csv", inventory),
        Table("weather", "気象データ.csv", weather),
        Table("grades", "成績.csv", grades),
        Table("orders", "ec_orders.csv", orders),
        Table("hotel", "hotel_bookings.csv", hotel),
        Table("clinic", "外来受診_2023-2024年度.csv", clinic, encoding="utf-8-sig"),
        Table("returns", "returns_2024-2025.csv", returns),
    ]
}
