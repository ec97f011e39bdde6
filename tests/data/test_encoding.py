"""detect_encoding on realistic Japanese tables in every encoding they arrive in."""

from __future__ import annotations

import codecs

import pytest

from bunseki.data import detect_encoding
from bunseki.data.encoding import plausibility
from bunseki.errors import DataLoadError

ADDRESSES = (
    "顧客ID,氏名,住所,郵便番号\n"
    "1001,山田太郎,東京都千代田区丸の内1-1-1,100-0001\n"
    "1002,佐藤花子,大阪府大阪市北区梅田3丁目1番,530-0001\n"
    "1003,鈴木一郎,北海道札幌市中央区北1条西2丁目,060-0001\n"
)
PRODUCTS = (
    "商品名,カテゴリ,単価\n"
    "緑茶ペットボトル 500ml,飲料,150\n"
    "カップラーメン しょうゆ味,食品,198\n"
    "ボールペン 黒 10本入り,文房具,480\n"
    "※在庫なし（取り寄せ）,その他,1200\n"
)
PREFECTURES = "都道府県,人口\n北海道,5140000\n青森県,1200000\n東京都,14040000\n大阪府,8780000\n沖縄県,1470000\n"
# The EUC-JP bytes of these tables also decode as CP932, mostly into half-width katakana.
CITIES = "都道府県,市区町村\n北海道,札幌市\n大阪府,大阪市\n京都府,京都市\n福岡県,福岡市\n"
BRANCHES = "氏名,支店\n山田太郎,新宿\n佐藤花子,梅田\n"
MENU = "商品,価格\nコーヒー,400\nジュース,350\nケーキ,500\n"
# NEC and IBM extensions (①, ㈱, 髙) exist in CP932 only.
VENDOR_EXTENSIONS = "取引先,担当\n㈱山田商事,髙橋\n①丸の内支店,﨑山\n"
DATES = "日付,売上\n2024年1月5日,1200\n2024年2月10日,3400\n2023年12月31日,560\n"
HALF_WIDTH = "口座名義,金額\nﾔﾏﾀﾞ ﾀﾛｳ,10000\nｽｽﾞｷ ｲﾁﾛｳ,5000\nｶ)ﾔﾏﾀﾞｼｮｳｼﾞ,32000\n"

TABLES = {
    "addresses": ADDRESSES,
    "products": PRODUCTS,
    "prefectures": PREFECTURES,
    "cities": CITIES,
    "branches": BRANCHES,
    "menu": MENU,
    "dates": DATES,
}


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize(
    ("encoding", "expected"),
    [("utf-8", "utf-8"), ("cp932", "cp932"), ("shift_jis", "cp932"), ("euc_jp", "euc_jp")],
)
def test_realistic_tables_are_detected_in_each_encoding(table: str, encoding: str, expected: str) -> None:
    raw = table.encode(encoding)
    assert detect_encoding(raw) == expected
    assert raw.decode(detect_encoding(raw)) == table


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_a_utf8_byte_order_mark_is_reported_as_utf8_sig(table: str) -> None:
    raw = table.encode("utf-8-sig")
    assert detect_encoding(raw) == "utf-8-sig"
    assert raw.decode("utf-8-sig") == table


@pytest.mark.parametrize("table", [CITIES, BRANCHES, MENU], ids=["cities", "branches", "menu"])
def test_euc_jp_that_also_decodes_as_cp932_is_euc_jp(table: str) -> None:
    raw = table.encode("euc_jp")
    assert raw.decode("cp932") != table  # the ambiguity is real: CP932 reads these bytes too
    assert detect_encoding(raw) == "euc_jp"


def test_cp932_vendor_extensions_are_cp932() -> None:
    assert detect_encoding(VENDOR_EXTENSIONS.encode("cp932")) == "cp932"


def test_half_width_katakana_in_cp932_is_cp932() -> None:
    assert detect_encoding(HALF_WIDTH.encode("cp932")) == "cp932"


def test_pure_ascii_is_utf8() -> None:
    assert detect_encoding(b"id,name,amount\n1,apple,100\n") == "utf-8"
    assert detect_encoding(b"") == "utf-8"


@pytest.mark.parametrize("encoding", ["utf-8", "cp932", "euc_jp"])
def test_a_prefix_cut_inside_a_character_is_still_detected(encoding: str) -> None:
    raw = ADDRESSES.encode(encoding)
    cut = raw[: raw.index("梅".encode(encoding)) + 1]
    assert detect_encoding(cut) == encoding


def test_utf16_is_refused_with_advice() -> None:
    with pytest.raises(DataLoadError, match=r"UTF-16.*save it as UTF-8"):
        detect_encoding(codecs.BOM_UTF16_LE + ADDRESSES.encode("utf-16-le"))


def test_western_european_text_fits_none_and_names_the_line() -> None:
    raw = "name,city\nJosé,São Paulo\nRené,Zürich\n".encode("cp1252")
    with pytest.raises(DataLoadError, match=r"not UTF-8, CP932 \(Shift_JIS\) or EUC-JP.*line 2"):
        detect_encoding(raw)


def test_a_byte_order_mark_before_non_utf8_text_is_refused() -> None:
    with pytest.raises(DataLoadError, match="byte order mark but is not valid UTF-8"):
        detect_encoding(codecs.BOM_UTF8 + ADDRESSES.encode("cp932"))


def test_plausibility_prefers_kana_and_common_kanji_over_half_width_and_rare_symbols() -> None:
    kanji, _ = plausibility("山田太郎")
    kana, _ = plausibility("カップラーメン しょうゆ味")
    half_width, _ = plausibility("ｻｳﾅﾄﾂﾀﾏｺ")
    private_use, _ = plausibility("\ue000\ue001")
    assert kanji == kana == 1.0
    assert private_use < half_width < kanji


def test_misplaced_voicing_marks_make_half_width_text_less_plausible() -> None:
    well_formed, _ = plausibility("ﾔﾏﾀﾞ ﾀﾛｳ")
    misplaced, _ = plausibility("ﾔﾏﾀ ﾀﾞﾞﾛｳ")
    assert misplaced < well_formed


def test_plausibility_counts_only_non_ascii_characters() -> None:
    assert plausibility("id,name\n1,apple\n") == (1.0, 0)
    assert plausibility("1,東京都\n")[1] == 3
