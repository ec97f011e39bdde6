"""validate_data on real files: what it finds, how it types columns, and the Parquet copy it writes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.data.validate import DataProblem, ValidatedTable, check_table, type_column, validate_data
from bunseki.errors import DataLoadError

ROWS = 40


def orders_csv() -> str:
    """A shop's export: yen signs and ▲ for minus, placeholders, はい/いいえ, 2024年1月, a code, a constant."""
    lines = ["注文番号,郵便番号,注文日,年月,売上,前年比,会員,担当,区分,備考"]
    for row in range(ROWS):
        sales = f"▲{row * 100:,}" if row == 3 else f"￥{row * 1234:,}"
        staff = "不明" if row in (5, 6) else ("-" if row == 7 else f"担当{row % 4}")
        member = "はい" if row % 3 else "いいえ"
        lines.append(
            f"C{row:05d},{row % 7:03d}-0001,2024/02/{row % 28 + 1:02d},2024年{row % 12 + 1}月,"
            f'"{sales}",{100 + row % 9}%,{member},{staff},一般,'
        )
    lines.append(lines[10])  # row 9 again: a duplicate row, and so a repeated order number
    return "\n".join(lines) + "\n"


@pytest.fixture
def validated(tmp_path: Path) -> ValidatedTable:
    source = tmp_path / "注文.csv"
    source.write_bytes(orders_csv().encode("cp932"))
    return validate_data(source, tmp_path / "workspace" / "validated.parquet")


def problems_of(validated: ValidatedTable) -> dict[tuple[str | None, str], DataProblem]:
    found = {(problem.column, problem.kind): problem for problem in validated.problems}
    assert len(found) == len(validated.problems), "one problem of a kind per column"
    return found


def test_a_cp932_export_is_read_typed_and_written_as_parquet(validated: ValidatedTable) -> None:
    assert (validated.encoding, validated.delimiter, validated.format) == ("cp932", ",", "csv")
    frame = validated.frame
    assert frame["売上"].tolist()[:5] == [0.0, 1234.0, 2468.0, -300.0, 4936.0]
    assert frame["前年比"].tolist()[:3] == [100, 101, 102]
    assert frame["会員"].dtype == "boolean" and frame["会員"].sum() == (np.arange(ROWS) % 3 != 0).sum()
    assert pd.api.types.is_datetime64_any_dtype(frame["注文日"])
    assert frame["年月"].iloc[0] == pd.Timestamp("2024-01-01") and frame["年月"].iloc[11] == pd.Timestamp("2024-12-01")
    assert frame["担当"].isna().sum() == 3
    assert frame["郵便番号"].iloc[0] == "000-0001"  # a code keeps its zeros
    written = pd.read_parquet(validated.path)
    pd.testing.assert_frame_equal(written, frame, check_dtype=False)
    assert list(written.dtypes.astype(str)) == list(frame.dtypes.astype(str))


def test_every_problem_is_found_with_its_count(validated: ValidatedTable) -> None:
    found = problems_of(validated)
    rows = ROWS + 1
    assert found["売上", "numbers_as_text"].count == rows
    assert found["前年比", "numbers_as_text"].count == rows
    assert found["会員", "booleans_as_text"].count == rows
    assert found["年月", "dates_as_text"].count == rows
    assert found["担当", "missing_markers"].count == 3
    assert set(found["担当", "missing_markers"].examples) == {"不明", "-"}
    assert found["担当", "missing_values"].count == 3
    assert found["区分", "constant_column"].count == rows
    assert found["備考", "empty_column"].count == rows
    assert found["注文番号", "id_column"].count == ROWS
    assert found["注文番号", "duplicate_ids"].count == 1
    assert found[None, "duplicate_rows"].count == 1
    assert set(found) == {
        ("売上", "numbers_as_text"),
        ("前年比", "numbers_as_text"),
        ("会員", "booleans_as_text"),
        ("年月", "dates_as_text"),
        ("担当", "missing_markers"),
        ("担当", "missing_values"),
        ("区分", "constant_column"),
        ("備考", "empty_column"),
        ("注文番号", "id_column"),
        ("注文番号", "duplicate_ids"),
        (None, "duplicate_rows"),
    }


def test_messages_are_in_english_and_japanese(validated: ValidatedTable) -> None:
    markers = problems_of(validated)["担当", "missing_markers"]
    assert markers.message("en") == markers.message_en and markers.message("ja") == markers.message_ja
    assert "3 values" in markers.message_en and "'不明'" in markers.message_en
    assert "3件" in markers.message_ja and "欠損" in markers.message_ja
    duplicates = problems_of(validated)[None, "duplicate_rows"]
    assert duplicates.message_en.startswith("1 row ") and duplicates.message_ja.startswith("1行")


def test_the_profile_comes_with_it(validated: ValidatedTable) -> None:
    profile = validated.profile
    assert profile.rows == ROWS + 1 and profile.duplicates == 1
    sales = profile.column("売上")
    assert sales is not None and sales.kind == "numeric"
    assert sales.mean == pytest.approx(validated.frame["売上"].mean())
    assert profile.column("注文番号").kind == "id"  # type: ignore[union-attr]


def test_a_clean_table_has_no_problems(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "日付": pd.date_range("2024-01-01", periods=ROWS, freq="D").strftime("%Y-%m-%d"),
            "店舗": rng.choice(["新宿", "梅田", "博多"], ROWS),
            "売上": rng.integers(100, 10_000, ROWS),
            "気温": rng.normal(15, 5, ROWS).round(1),
        }
    )
    source = tmp_path / "clean.tsv"
    frame.to_csv(source, sep="\t", index=False)
    validated = validate_data(source, tmp_path / "clean.parquet")
    assert validated.problems == []
    assert validated.delimiter == "\t" and validated.encoding == "utf-8"
    assert (tmp_path / "clean.parquet").is_file()


def test_mostly_numbers_keep_the_numbers_and_report_the_rest() -> None:
    values = [str(number) for number in range(95)] + ["abc", "12kg", "abc", "n/a?", "x"]
    column, found = type_column("重量", pd.Series(values, dtype="str"))
    assert column is not None and column.notna().sum() == 95 and column.iloc[94] == 94
    kinds = {problem.kind: problem for problem in found}
    assert kinds["numbers_as_text"].count == 95
    assert kinds["mixed_types"].count == 5 and kinds["mixed_types"].examples == ["abc", "12kg", "n/a?"]


def test_half_numbers_stay_text_and_are_reported_as_mixed() -> None:
    values = ["1", "2", "3", "4", "五", "六", "7", "8"]
    column, found = type_column("数", pd.Series(values, dtype="str"))
    assert column is None
    assert [(problem.kind, problem.count) for problem in found] == [("mixed_types", 2)]
    assert found[0].examples == ["五", "六"] and "75%" in found[0].message_en


def test_objects_from_excel_with_numbers_and_text_are_mixed(tmp_path: Path) -> None:
    path = tmp_path / "混在.xlsx"
    pd.DataFrame({"値": [1, 2, 3, "欠品", 5, 6], "名前": list("abcdef")}).to_excel(path, index=False)
    validated = validate_data(path, tmp_path / "out.parquet")
    found = problems_of(validated)
    assert found["値", "mixed_types"].count == 1 and found["値", "mixed_types"].examples == ["欠品"]
    assert pd.read_parquet(validated.path)["値"].tolist() == ["1", "2", "3", "欠品", "5", "6"]


def test_numbers_stored_as_text_in_parquet_are_typed(tmp_path: Path) -> None:
    source = tmp_path / "text.parquet"
    amounts = ["１，２００", "300", "▲50", None] * 10
    pd.DataFrame({"金額": amounts, "フラグ": ["Y", "N", "Y", "N"] * 10}).to_parquet(source)
    validated = validate_data(source, tmp_path / "typed.parquet")
    assert validated.frame["金額"].isna().sum() == 10
    assert validated.frame["金額"].iloc[:3].tolist() == [1200.0, 300.0, -50.0]
    assert validated.frame["フラグ"].tolist()[:2] == [True, False]
    kinds = {(problem.column, problem.kind) for problem in validated.problems}
    assert kinds == {
        ("金額", "numbers_as_text"),
        ("金額", "missing_values"),
        ("フラグ", "booleans_as_text"),
        (None, "duplicate_rows"),
    }


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        (["0123", "0456", "7890"], None),  # codes with leading zeros stay text
        (["2024.01.05", "2024.02.10", "2024.12.31"], "dates_as_text"),
        (["有", "無", "有"], "booleans_as_text"),
        (["○", "×", None], "booleans_as_text"),
        (["1,5", "2,5", "3,5"], None),  # decimal commas are not thousands separators
        (["東京", "大阪", "名古屋"], None),
    ],
)
def test_type_column(values: list[str | None], kind: str | None) -> None:
    column, found = type_column("列", pd.Series(values, dtype="str"))
    assert [problem.kind for problem in found] == ([kind] if kind else [])
    assert (column is None) == (kind is None)


def test_typed_columns_are_left_alone() -> None:
    frame = pd.DataFrame({"x": [1.0, 2.0, None], "d": pd.to_datetime(["2024-01-01", None, "2024-01-03"])})
    typed, problems, _ = check_table(frame)
    assert [problem.kind for problem in problems] == ["missing_values", "missing_values"]
    pd.testing.assert_frame_equal(typed, frame)


def test_an_unreadable_file_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "broken.csv"
    source.write_bytes(b"%PDF-1.4 not a table")
    with pytest.raises(DataLoadError, match="PDF"):
        validate_data(source, tmp_path / "out.parquet")
    assert not (tmp_path / "out.parquet").exists()
