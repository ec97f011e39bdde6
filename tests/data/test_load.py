"""load_table on real files: every encoding, delimiter, number and date style, format and failure."""

from __future__ import annotations

import codecs
import io
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from bunseki.data import SUPPORTED_SUFFIXES, LoadedTable, load_table
from bunseki.data.load import clean_column_names, ragged_rows, sniff_delimiter
from bunseki.errors import DataLoadError

SALES = (
    "日付,都道府県,店舗,商品名,数量,売上金額\n"
    '2024/01/05,東京都,新宿店,緑茶ペットボトル 500ml,12,"1,800"\n'
    '2024/01/05,大阪府,梅田店,おにぎり（鮭）,30,"4,500"\n'
    '2024/01/06,北海道,札幌店,カップラーメン しょうゆ味,8,"1,584"\n'
    '2024/01/07,福岡県,天神店,ボールペン 黒 10本入り,3,"1,440"\n'
)


def write(directory: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = directory / name
    path.write_bytes(text.encode(encoding))
    return path


def column_table(directory: Path, header: str, values: list[str], name: str = "table.csv") -> LoadedTable:
    """Load a two-column CSV whose first column is ``header`` with ``values``."""
    rows = "".join(f"{value},{index}\n" for index, value in enumerate(values))
    return load_table(write(directory, name, f"{header},番号\n{rows}"))


def load_error(path: Path, **options: int) -> DataLoadError:
    with pytest.raises(DataLoadError) as caught:
        load_table(path, **options)
    assert path.name in str(caught.value)
    assert caught.value.path == str(path)
    return caught.value


# Encodings --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "detected"),
    [
        ("utf-8", "utf-8"),
        ("utf-8-sig", "utf-8-sig"),
        ("cp932", "cp932"),
        ("shift_jis", "cp932"),
        ("euc_jp", "euc_jp"),
    ],
)
def test_a_japanese_sales_table_reads_the_same_in_every_encoding(tmp_path: Path, encoding: str, detected: str) -> None:
    table = load_table(write(tmp_path, "sales.csv", SALES, encoding))

    assert table.encoding == detected
    assert (table.format, table.delimiter, table.sheet) == ("csv", ",", None)
    assert list(table.frame.columns) == ["日付", "都道府県", "店舗", "商品名", "数量", "売上金額"]
    assert table.frame["商品名"].tolist() == [
        "緑茶ペットボトル 500ml",
        "おにぎり（鮭）",
        "カップラーメン しょうゆ味",
        "ボールペン 黒 10本入り",
    ]
    assert table.frame["売上金額"].tolist() == [1800, 4500, 1584, 1440]
    assert table.frame["日付"].iloc[3] == pd.Timestamp("2024-01-07")
    assert table.date_columns == ("日付",)


def test_kanji_only_euc_jp_reads_as_kanji_not_half_width_katakana(tmp_path: Path) -> None:
    text = "都道府県,市区町村\n北海道,札幌市\n大阪府,大阪市\n京都府,京都市\n福岡県,福岡市\n"
    table = load_table(write(tmp_path, "cities.csv", text, "euc_jp"))
    assert table.encoding == "euc_jp"
    assert table.frame["市区町村"].tolist() == ["札幌市", "大阪市", "京都市", "福岡市"]


def test_text_in_another_encoding_is_refused_with_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "customers.csv", "name,city\nJosé,São Paulo\nRené,Zürich\n", "cp1252")
    message = str(load_error(path))
    assert "not UTF-8, CP932 (Shift_JIS) or EUC-JP" in message
    assert "line 2" in message


def test_a_file_cut_inside_a_character_is_reported_as_truncated(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_bytes("店舗,備考\n新宿店,改装中\n梅田店,閉店".encode("cp932")[:-1])
    error = load_error(path)
    assert "ends in the middle of a CP932 character" in str(error)
    assert isinstance(error.__cause__, UnicodeDecodeError)


# Delimiters and quoting -------------------------------------------------------------------------


def test_a_tsv_file_is_read_with_tabs(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "sales.tsv", "店舗\t売上\n新宿店\t1200\n梅田店\t980\n", "cp932"))
    assert (table.format, table.delimiter) == ("tsv", "\t")
    assert table.frame["売上"].tolist() == [1200, 980]


def test_a_tab_separated_txt_file_is_reported_as_tsv(tmp_path: Path) -> None:
    # Splitting on the commas would be just as consistent; a .txt tie goes to the tab.
    table = load_table(write(tmp_path, "export.txt", "id\tname, kana\n1\t山田, ヤマダ\n2\t佐藤, サトウ\n"))
    assert (table.format, table.delimiter) == ("tsv", "\t")
    assert table.frame["name, kana"].tolist() == ["山田, ヤマダ", "佐藤, サトウ"]


def test_a_comma_separated_txt_file_is_a_csv(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "export.txt", "id,name\n1,山田\n2,佐藤\n"))
    assert (table.format, table.delimiter) == ("csv", ",")


def test_a_one_column_tsv_keeps_the_tab_default(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "names.tsv", "氏名\n山田太郎\n佐藤花子\n"))
    assert table.delimiter == "\t"
    assert table.frame["氏名"].tolist() == ["山田太郎", "佐藤花子"]


def test_semicolons_win_over_decimal_commas(tmp_path: Path) -> None:
    text = "商品;価格;数量\nりんご;1,5;1.234\nみかん;2,25;2.000\nぶどう;10,5;300\n"
    table = load_table(write(tmp_path, "european.csv", text))
    assert table.delimiter == ";"
    assert table.frame["価格"].tolist() == [1.5, 2.25, 10.5]  # and the commas are decimal marks
    assert [note.column for note in table.notes] == ["価格"]


def test_a_pipe_separated_file(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "dump.txt", "id|name|note\n1|山田|a,b\n2|佐藤|c,d\n"))
    assert table.delimiter == "|"
    assert table.frame["note"].tolist() == ["a,b", "c,d"]


def test_quoted_fields_keep_delimiters_newlines_and_quotes(tmp_path: Path) -> None:
    text = (
        'id,住所,備考\r\n1,"東京都千代田区丸の内1-1, 丸の内ビル","1行目\r\n2行目"\r\n'
        '2,大阪府,"彼は""はい""と言った"\r\n'
    )
    table = load_table(write(tmp_path, "addresses.csv", text, "cp932"))
    assert table.frame["住所"].iloc[0] == "東京都千代田区丸の内1-1, 丸の内ビル"
    assert table.frame["備考"].str.replace("\r\n", "\n").tolist() == ["1行目\n2行目", '彼は"はい"と言った']


def test_sniffing_prefers_the_delimiter_with_consistent_field_counts() -> None:
    assert sniff_delimiter("a;b;c\n1,5;2;3\n4;5,5;6\n") == ";"
    assert sniff_delimiter("a,b\n1,x;y;z\n2,w\n") == ","
    assert sniff_delimiter("just one column\nvalue\n", preferred="\t") == "\t"


def test_rows_with_fewer_fields_get_missing_values(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "short.csv", "店舗,売上,備考\n新宿店,1200\n梅田店,980,改装中\n"))
    assert table.frame["備考"].isna().tolist() == [True, False]
    assert table.frame["売上"].tolist() == [1200, 980]


# Numbers ----------------------------------------------------------------------------------------


def test_thousands_separators_become_numbers(tmp_path: Path) -> None:
    text = '売上,利益,件数\n"1,234","-1,234.5",7\n"12,345,678","2,000.25",8\n999,-5,9\n'
    frame = load_table(write(tmp_path, "pl.csv", text)).frame
    assert frame["売上"].dtype == "int64"
    assert frame["売上"].tolist() == [1234, 12345678, 999]
    assert frame["利益"].tolist() == [-1234.5, 2000.25, -5.0]


def test_missing_values_in_a_thousands_column_stay_missing(tmp_path: Path) -> None:
    frame = load_table(write(tmp_path, "pl.csv", 'id,売上\n1,"1,234"\n2,\n3,"5,000"\n')).frame
    assert frame["売上"].isna().tolist() == [False, True, False]
    assert frame["売上"].sum() == 6234


@pytest.mark.parametrize(
    "values",
    [
        ['"1,234"', "未定"],  # a word among the numbers
        ['"12,34"', '"1,234"'],  # not a thousands grouping
        ['"001,002"', '"003,004"'],  # code lists, not numbers
    ],
    ids=["word", "bad-grouping", "codes"],
)
def test_columns_that_are_not_all_numbers_stay_text(tmp_path: Path, values: list[str]) -> None:
    rows = "".join(f"{value},x\n" for value in values)
    frame = load_table(write(tmp_path, "mixed.csv", f"値,他\n{rows}")).frame
    assert pd.api.types.is_string_dtype(frame["値"])


# Dates ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "values", "expected"),
    [
        ("日付", ["2024-01-05", "2024-02-10"], "2024-01-05"),
        ("timestamp", ["2024-01-05 09:30:00", "2024-01-05T18:00", "2024-01-06"], "2024-01-05 09:30"),
        ("売上日", ["2024/01/05", "2024/12/25"], "2024-01-05"),
        ("計上", ["2024/1/5", "2024/12/25"], "2024-01-05"),
        ("受付日時", ["2024/1/5 10:30", "2024/12/25 09:05"], "2024-01-05 10:30"),
        ("受付日時", ["2024/01/05 10:30:15", "2024/12/25 09:05:00"], "2024-01-05 10:30:15"),
        ("日付", ["2024年1月5日", "2023年12月31日"], "2024-01-05"),
        ("日付", ["20240105", "20231231"], "2024-01-05"),
        ("order_date", ["20240105", "20231231"], "2024-01-05"),
        ("年月日", ["20240105", ""], "2024-01-05"),
    ],
)
def test_date_columns_become_datetimes(tmp_path: Path, header: str, values: list[str], expected: str) -> None:
    table = column_table(tmp_path, header, values)
    assert table.date_columns == (header,)
    assert pd.api.types.is_datetime64_any_dtype(table.frame[header])
    assert table.frame[header].iloc[0] == pd.Timestamp(expected)


@pytest.mark.parametrize(
    ("header", "values"),
    [
        ("顧客ID", ["1001", "1002", "1003"]),
        ("code", ["20240105", "20231231"]),  # eight digits, but nothing says they are dates
        ("郵便番号", ["100-0001", "530-0001"]),
        ("商品コード", ["A-2024-01", "B-2024-02"]),
        ("年月", ["2024-01", "2024-02"]),  # not a format we read as dates
        ("日付", ["12345678", "99999999"]),  # a date name, but not dates
        ("電話番号", ["03-1234-5678", "06-2345-6789"]),
    ],
)
def test_integers_and_codes_are_never_dates(tmp_path: Path, header: str, values: list[str]) -> None:
    table = column_table(tmp_path, header, values)
    assert table.date_columns == ()
    assert not pd.api.types.is_datetime64_any_dtype(table.frame[header])


def test_a_few_stray_values_do_not_stop_a_date_column(tmp_path: Path) -> None:
    values = [f"2024/01/{day:02d}" for day in range(1, 20)] + ["不明"]
    column = column_table(tmp_path, "日付", values).frame["日付"]
    assert column.isna().tolist() == [False] * 19 + [True]


def test_more_than_five_percent_of_non_dates_keeps_the_text(tmp_path: Path) -> None:
    values = [f"2024/01/{day:02d}" for day in range(1, 19)] + ["不明", "未定"]
    table = column_table(tmp_path, "日付", values)
    assert table.date_columns == ()
    assert table.frame["日付"].iloc[-1] == "未定"


def test_date_columns_lists_every_converted_column_in_order(tmp_path: Path) -> None:
    text = "受注日,顧客ID,出荷日\n2024/01/05,1001,2024年1月8日\n2024/01/06,1002,2024年1月9日\n"
    table = load_table(write(tmp_path, "orders.csv", text))
    assert table.date_columns == ("受注日", "出荷日")
    assert table.frame["顧客ID"].dtype == "int64"


# Column names -----------------------------------------------------------------------------------


def test_column_names_are_stripped_unique_and_never_blank(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "names.csv", " 売上 ,売上,, \n1,2,3,4\n"))
    assert list(table.frame.columns) == ["売上", "売上.1", "Unnamed: 2", "Unnamed: 3"]


def test_clean_column_names_never_collides_with_an_existing_name() -> None:
    names = clean_column_names(["a", "a", "a.1", 2024])
    assert names == ["a", "a.1", "a.1.1", "2024"]


# Errors -----------------------------------------------------------------------------------------


def test_a_missing_file(tmp_path: Path) -> None:
    error = load_error(tmp_path / "nothing.csv")
    assert "does not exist" in str(error)


def test_a_directory(tmp_path: Path) -> None:
    (tmp_path / "folder.csv").mkdir()
    assert "is a directory" in str(load_error(tmp_path / "folder.csv"))


@pytest.mark.parametrize(
    "content",
    [b"", b"  \r\n\n\t", "　\n".encode("cp932"), codecs.BOM_UTF8 + b"\n"],
    ids=["zero-bytes", "whitespace", "full-width-space", "bom-only"],
)
def test_an_empty_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(content)
    assert "is empty" in str(load_error(path))


@pytest.mark.parametrize("text", ["日付,売上\n", "日付,売上\n\n\n"], ids=["header", "header-blank-lines"])
def test_a_header_without_data_rows(tmp_path: Path, text: str) -> None:
    assert "has a header but no data rows" in str(load_error(write(tmp_path, "sales.csv", text)))


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("report.csv", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "looks like a PDF, not a CSV"),
        ("chart.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "looks like a PNG image, not a text file"),
        ("book.csv", b"PK\x03\x04\x14\x00\x06\x00", "looks like a ZIP archive, not a CSV; if it is an Excel"),
        ("old.tsv", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00", "looks like an old Excel .xls workbook"),
        ("dump.csv", b"id,name\n1,\x00\x00\x01\x02\n", "contains binary data (NUL bytes)"),
        ("unicode.txt", codecs.BOM_UTF16_LE + "店舗\t売上\n".encode("utf-16-le"), "is UTF-16 text"),
    ],
)
def test_binary_content_behind_a_text_suffix(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert expected in str(load_error(path))


def test_an_unclosed_quote_names_its_line(tmp_path: Path) -> None:
    text = '店舗,備考\n新宿店,改装中\n梅田店,"閉店セール\n札幌店,通常\n'
    error = load_error(write(tmp_path, "truncated.csv", text))
    assert "ends inside a quoted field that starts on line 3" in str(error)
    assert "truncated" in str(error)
    assert isinstance(error.__cause__, pd.errors.ParserError)


def test_ragged_rows_are_named_with_their_lines_and_field_counts(tmp_path: Path) -> None:
    text = "店舗,売上\n新宿店,1200\n梅田店,1,980\n札幌店,870\n天神店,1,2,3\n"
    error = load_error(write(tmp_path, "ragged.csv", text))
    message = str(error)
    assert "line 3 has 3 fields, line 5 has 4 fields, but the header has 2" in message
    assert "Quote values that contain ','" in message
    assert isinstance(error.__cause__, pd.errors.ParserError)


def test_a_ragged_first_data_row_is_not_turned_into_an_index(tmp_path: Path) -> None:
    text = "店舗,売上\n新宿店,1,200\n梅田店,980\n"
    assert "line 2 has 3 fields" in str(load_error(write(tmp_path, "ragged.csv", text)))


def test_many_ragged_rows_are_summarised(tmp_path: Path) -> None:
    rows = "".join(f"店舗{index},1,{index}00\n" for index in range(8))
    message = str(load_error(write(tmp_path, "ragged.csv", f"店舗,売上\n{rows}")))
    assert "line 2 has 3 fields" in message
    assert "line 6 has 3 fields (and 3 more rows)" in message
    assert "line 7" not in message


def test_ragged_rows_skips_blank_lines_but_counts_them() -> None:
    assert ragged_rows('a,b\n\n1,2,3\n"x\ny",2\n4,5,6\n', ",") == (2, [(3, 3), (6, 3)])


@pytest.mark.parametrize("name", ["old.xls", "data.json", "README"])
def test_unsupported_types_name_the_supported_formats(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("x")
    message = str(load_error(path))
    assert "unsupported file type" in message
    assert all(suffix in message for suffix in SUPPORTED_SUFFIXES)


def test_a_file_over_max_bytes_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "sales.csv", SALES)
    size = path.stat().st_size
    assert "more than the 100 bytes limit" in str(load_error(path, max_bytes=100))
    assert len(load_table(path, max_bytes=size).frame) == 4


# Excel ------------------------------------------------------------------------------------------


def sales_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "日付": pd.to_datetime(["2024-01-05", "2024-01-06"]),
            "店舗": ["新宿店", "梅田店"],
            "売上金額": [1800, 4500],
            "出荷日": ["2024年1月8日", "2024年1月9日"],
        }
    )


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm"])
def test_the_first_sheet_of_a_workbook(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"sales{suffix}"
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        sales_frame().to_excel(writer, sheet_name="売上", index=False)
        pd.DataFrame({"x": [1]}).to_excel(writer, sheet_name="メモ", index=False)

    table = load_table(path)

    assert (table.format, table.sheet, table.encoding, table.delimiter) == ("excel", "売上", None, None)
    assert table.frame["店舗"].tolist() == ["新宿店", "梅田店"]
    assert table.frame["売上金額"].tolist() == [1800, 4500]
    assert table.date_columns == ("日付", "出荷日")
    assert table.frame["出荷日"].iloc[1] == pd.Timestamp("2024-01-09")


def test_a_workbook_with_a_header_only(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    sales_frame().head(0).to_excel(path, index=False)
    assert "has a header but no data rows" in str(load_error(path))


def test_a_workbook_whose_first_sheet_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.xlsx"
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        pd.DataFrame().to_excel(writer, sheet_name="表紙", index=False)
        sales_frame().to_excel(writer, sheet_name="売上", index=False)
    assert "its first sheet ('表紙') is empty" in str(load_error(path))


def test_a_text_file_named_xlsx(tmp_path: Path) -> None:
    message = str(load_error(write(tmp_path, "sales.xlsx", SALES)))
    assert "is not an Excel workbook" in message


def test_an_old_xls_named_xlsx(tmp_path: Path) -> None:
    path = tmp_path / "old.xlsx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512))
    assert "old .xls workbook or a password-protected one" in str(load_error(path))


@pytest.mark.parametrize("damage", ["truncated", "not-a-workbook"])
def test_a_damaged_workbook(tmp_path: Path, damage: str) -> None:
    buffer = io.BytesIO()
    if damage == "truncated":
        sales_frame().to_excel(buffer, index=False)
        content = buffer.getvalue()[: len(buffer.getvalue()) // 2]
    else:
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("hello.txt", "こんにちは")
        content = buffer.getvalue()
    path = tmp_path / "sales.xlsx"
    path.write_bytes(content)
    error = load_error(path)
    assert "could not be read as an Excel workbook" in str(error)
    assert error.__cause__ is not None


# Parquet ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".parquet", ".pq"])
def test_a_parquet_round_trip_keeps_its_types(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"sales{suffix}"
    sales_frame().to_parquet(path)

    table = load_table(path)

    assert (table.format, table.sheet, table.encoding, table.delimiter) == ("parquet", None, None, None)
    assert table.frame["店舗"].tolist() == ["新宿店", "梅田店"]
    assert table.frame["売上金額"].tolist() == [1800, 4500]
    # typed columns are left as Parquet typed them; a text column of dates is read as a CSV's would be
    assert table.date_columns == ("日付", "出荷日")
    assert table.frame["出荷日"].dt.strftime("%Y-%m-%d").tolist() == ["2024-01-08", "2024-01-09"]


def test_a_parquet_file_without_rows(tmp_path: Path) -> None:
    path = tmp_path / "empty.parquet"
    sales_frame().head(0).to_parquet(path)
    assert "no data rows" in str(load_error(path))


def test_a_csv_named_parquet(tmp_path: Path) -> None:
    assert "is not a Parquet file" in str(load_error(write(tmp_path, "sales.parquet", SALES)))


def test_a_truncated_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "sales.parquet"
    sales_frame().to_parquet(path)
    path.write_bytes(path.read_bytes()[:-100])
    assert "is truncated" in str(load_error(path))


def test_a_damaged_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "sales.parquet"
    sales_frame().to_parquet(path)
    content = path.read_bytes()
    path.write_bytes(content[:4] + bytes(len(content) - 8) + content[-4:])
    error = load_error(path)
    assert "could not be read as Parquet" in str(error)
    assert error.__cause__ is not None


# Types ------------------------------------------------------------------------------------------


def test_codes_with_leading_zeros_stay_text(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "codes.csv",
        "郵便番号,団体コード,電話,数量\n0600001,011002,0312345678,5\n1000001,131016,0661234567,7\n",
    )
    frame = load_table(path).frame
    assert frame["郵便番号"].tolist() == ["0600001", "1000001"]
    assert frame["団体コード"].tolist() == ["011002", "131016"]
    assert frame["電話"].tolist() == ["0312345678", "0661234567"]
    assert frame["数量"].dtype == "int64"


def test_numbers_zero_and_decimals_below_one_are_numbers(tmp_path: Path) -> None:
    frame = load_table(write(tmp_path, "n.csv", "率,値\n0.25,0\n0.5,-3\n,12\n")).frame
    assert frame["率"].dtype == "float64"
    assert frame["率"].isna().sum() == 1
    assert frame["値"].tolist() == [0, -3, 12]


def test_true_false_columns_are_booleans(tmp_path: Path) -> None:
    frame = load_table(write(tmp_path, "b.csv", "会員,名前\nTrue,佐藤\nfalse,鈴木\n,高橋\n")).frame
    assert str(frame["会員"].dtype) == "boolean"
    assert frame["会員"].tolist()[:2] == [True, False]
    assert pd.isna(frame["会員"].iloc[2])


def test_a_hundred_thousand_row_cp932_file(tmp_path: Path) -> None:
    stores = ["新宿店", "梅田店", "札幌店", "天神店", "名古屋栄店"]
    products = ["緑茶ペットボトル 500ml", "おにぎり（鮭）", "カップラーメン しょうゆ味", "ボールペン 黒"]
    lines = ["日付,店舗,商品名,数量,単価,売上金額"]
    for row in range(100_000):
        quantity, price = row % 50 + 1, (row % 7 + 1) * 180
        lines.append(
            f"2024/{row % 12 + 1:02d}/{row % 28 + 1:02d},{stores[row % 5]},{products[row % 4]},"
            f'{quantity},{price},"{quantity * price:,}"'
        )
    path = write(tmp_path, "big.csv", "\r\n".join(lines) + "\r\n", "cp932")
    assert path.stat().st_size > 5_000_000
    table = load_table(path)
    assert table.frame.shape == (100_000, 6)
    assert table.encoding == "cp932"
    assert table.date_columns == ("日付",)
    assert table.frame["売上金額"].dtype == "int64"
    assert table.frame["店舗"].iloc[4] == "名古屋栄店"


def test_placeholders_for_missing_values_do_not_keep_numbers_and_dates_as_text(tmp_path: Path) -> None:
    path = tmp_path / "amounts.csv"
    path.write_text('店,金額,日付,区分\nA,"¥1,234",2024-01-05,x\nB,-,不明,-\nC,"¥2,000",2024/03/07,N/A\n', "utf-8")
    table = load_table(path)
    assert table.frame["金額"].tolist()[::2] == [1234.0, 2000.0]
    assert pd.isna(table.frame["金額"][1])
    assert pd.api.types.is_datetime64_any_dtype(table.frame["日付"])
    assert table.frame["区分"].tolist()[:2] == ["x", "-"]  # text stays as written
    missing = {note.column: note for note in table.notes if note.kind == "missing"}
    assert set(missing) == {"金額", "日付"}
    assert "'-'" in missing["金額"].en and "不明" in missing["日付"].ja
