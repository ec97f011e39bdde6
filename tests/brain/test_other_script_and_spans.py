"""Names written in the other script, lists under one negation, the date column a verb picks, and
which of two moments a span starts from.

Tables are made here; each test names a kind of question, not a wording to match.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bunseki.brain.transliteration import katakana_skeleton, latin_skeletons, sound_alike
from bunseki.data.summary import summarize
from tests.brain.planning import asked, plan

RNG = np.random.default_rng(11)
SIZE = 300
LEADERS = pd.DataFrame(
    {
        "氏名": RNG.choice(["Nixon", "Clinton", "Reagan", "Kennedy", "Eisenhower"], SIZE),
        "出生地": RNG.choice(["England", "Scotland", "Wales", "Ireland"], SIZE),
        "得点": RNG.integers(0, 100, SIZE),
        "所属": RNG.choice(["Prof", "AssocProf", "AsstProf"], SIZE),
    }
)
BOROUGHS = pd.DataFrame(
    {
        "borough": RNG.choice(["ウェストミンスター", "カムデン", "ハックニー", "ランベス"], SIZE),
        "victims": RNG.integers(0, 5, SIZE),
    }
)
PATIENTS = pd.DataFrame(
    {
        "患者ID": RNG.integers(1, 40, SIZE),
        "検査日": pd.date_range("2020-03-01", periods=SIZE, freq="D"),
        "部署": RNG.choice(["内科", "外科", "救急部", "小児科"], SIZE),
        "年齢": RNG.integers(1, 90, SIZE),
    }
)
POLLS = pd.DataFrame(
    {
        "startdate": pd.date_range("2016-06-01", periods=SIZE, freq="D"),
        "enddate": pd.date_range("2016-06-04", periods=SIZE, freq="D"),
        "samplesize": RNG.integers(300, 3000, SIZE),
    }
)
MICE = pd.DataFrame(
    {
        "調査日": pd.date_range("1990-01-01", periods=SIZE, freq="7D"),
        "性別": RNG.choice(["オス", "メス"], SIZE),
        "体重(g)": RNG.integers(5, 60, SIZE),
    }
)


@pytest.mark.parametrize(
    ("katakana", "latin"),
    [("ニクソン", "Nixon"), ("クリントン", "Clinton"), ("イングランド", "England"), ("マイクロソフト", "Microsoft"),
     ("ウェストミンスター", "Westminster"), ("ハンブルク", "Hamburg"), ("スカイウォーカー", "Skywalker")],
)  # fmt: skip
def test_a_name_sounds_alike_in_katakana_and_in_latin_letters(katakana: str, latin: str) -> None:
    assert any(sound_alike(katakana_skeleton(katakana), sound) for sound in latin_skeletons(latin))


@pytest.mark.parametrize(
    ("katakana", "latin"), [("パーセンタイル", "Central"), ("ドイツ", "Germany"), ("カナダ", "Kenya")]
)
def test_different_words_do_not_sound_alike(katakana: str, latin: str) -> None:
    assert not any(sound_alike(katakana_skeleton(katakana), sound) for sound in latin_skeletons(latin))


def test_a_value_written_in_katakana_is_the_datas_latin_value_and_the_reverse() -> None:
    read = plan("ニクソンの平均得点は？", summarize(LEADERS))
    assert [(f.column, f.value) for f in read.filters] == [("氏名", "Nixon")]
    read = plan("イングランド生まれの人の平均得点は？", summarize(LEADERS))
    assert [(f.column, f.value) for f in read.filters] == [("出生地", "England")]
    read = plan("What is the mean number of victims in Westminster?", summarize(BOROUGHS), "en")
    assert [(f.column, f.value) for f in read.filters] == [("borough", "ウェストミンスター")]


def test_a_list_of_values_under_one_negation_excludes_them_all() -> None:
    read = plan("内科と救急部を除くと、平均年齢はいくつ？", summarize(PATIENTS))
    assert [(f.column, f.op, sorted(f.value)) for f in read.filters] == [("部署", "not in", ["内科", "救急部"])]


def test_a_verb_of_ending_dates_the_rows_by_the_end_date() -> None:
    read = plan("2016年10月に終了した調査は何件ありますか", summarize(POLLS))
    assert read.date_column == "enddate" and read.filters[0].column == "enddate"
    assert plan("2016年10月に開始した調査は何件ありますか", summarize(POLLS)).date_column == "startdate"


def test_the_last_after_the_first_is_a_span_from_the_first() -> None:
    read = plan("患者ID 7の人の最後の検査は、最初の検査の何日後？", summarize(PATIENTS))
    assert read.span is not None and (read.span.start.kind, read.span.end.kind) == ("first", "last")


def test_how_many_days_before_a_day_asks_back_when_no_span_is_read() -> None:
    question = asked("メスが最後に記録された日は、2000年12月31日の何日前？", summarize(MICE))
    assert "期間" in question


def test_an_animals_sex_written_in_kanji_is_the_datas_katakana() -> None:
    read = plan("雄の平均体重は？", summarize(MICE))
    assert [(f.column, f.value) for f in read.filters] == [("性別", "オス")]
