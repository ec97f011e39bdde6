"""render_html and read_workspace_file: a self-contained page that never reads outside the workspace."""

from __future__ import annotations

import base64
import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from bunseki.domain import ReportOutput, ReportSection
from bunseki.report import read_workspace_file, render_html

SCRIPT = "<script>alert('x')</script>"


class Page(HTMLParser):
    """Every tag and attribute of a document, to check what a browser would load or run."""

    def __init__(self, document: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.feed(document)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend((name, value or "") for name, value in attrs)


def write_chart(path: Path, kind: str = "bar") -> bytes:
    """Save a small real chart (the format follows the suffix) and return its bytes."""
    figure = Figure(figsize=(3, 2))
    axes = figure.subplots()
    if kind == "bar":
        axes.bar(["Tokyo", "Osaka", "Fukuoka"], [5, 3, 2])
    else:
        axes.plot([1, 2, 3], [2, 4, 3])
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    return path.read_bytes()


def report_with(*sections: ReportSection, language: str = "ja", **fields: object) -> ReportOutput:
    values: dict[str, object] = {
        "title": "売上の分析",
        "conclusion": "東京都が最多です。",
        "language": language,
    }
    return ReportOutput.model_validate({**values, **fields, "sections": [s.model_dump() for s in sections]})


def image(path: str, description: str | None = "グラフ") -> ReportSection:
    return ReportSection(section_type="image", content=path, description=description)


def data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    directory = tmp_path / "workspace"
    (directory / "data").mkdir(parents=True)
    return directory


# The document ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "headings"),
    [
        ("ja", ["結論", "根拠", "前提", "追加の分析案", "実行したコード"]),
        (
            "en",
            ["Conclusion", "Evidence", "Assumptions", "Suggestions for deeper analysis", "Code that was run"],
        ),
    ],
)
def test_a_full_report_is_one_document_in_its_language(workspace: Path, language: str, headings: list[str]) -> None:
    chart = write_chart(workspace / "figures" / "地域別.png")
    records = [{"都道府県": "東京都", "売上金額": 1250000}, {"都道府県": "大阪府", "売上金額": 980000}]
    report = report_with(
        ReportSection(section_type="text", content="東京都が **56%** を占めます。"),
        image("figures/地域別.png", "地域別の売上"),
        ReportSection(section_type="table", content=json.dumps(records), description="売上の表"),
        language=language,
        assumptions=["税込みとみなしました"],
        suggestions=["月別の推移を見る"],
    )
    document = render_html(report, workspace, code_cells=["print(df['売上金額'].sum())"])

    assert document.startswith("<!DOCTYPE html>\n")
    assert f'<html lang="{language}">' in document
    assert '<meta charset="utf-8">' in document
    assert '"Hiragino Sans"' in document
    assert '"Noto Sans JP"' in document
    assert "<title>売上の分析</title>" in document
    assert [f"<h2>{heading}</h2>" in document for heading in headings] == [True] * 5
    positions = [document.index(f"<h2>{heading}</h2>") for heading in headings]
    assert positions == sorted(positions)
    assert "<p>東京都が <strong>56%</strong> を占めます。</p>" in document
    assert f'<img src="{data_uri(chart, "image/png")}" alt="地域別の売上">' in document
    assert "<figcaption>地域別の売上</figcaption>" in document
    assert "<caption>売上の表</caption>" in document
    assert '<td>東京都</td><td class="number">1,250,000</td>' in document
    assert "<li>税込みとみなしました</li>" in document
    assert "print(df[&#x27;売上金額&#x27;].sum())</code></pre>" in document
    assert "http://" not in document
    assert "https://" not in document


def test_optional_parts_are_left_out_when_empty(workspace: Path) -> None:
    document = render_html(report_with(ReportSection(section_type="text", content="本文")), workspace)
    assert "<h2>結論</h2>" in document
    for heading in ("前提", "追加の分析案", "実行したコード"):
        assert f"<h2>{heading}</h2>" not in document


def test_nothing_is_loaded_from_outside_the_page(workspace: Path) -> None:
    write_chart(workspace / "chart.png")
    text = (
        "[出典](https://example.com/source) と <https://example.com/auto> と "
        "![外部画像](http://tracker.example/pixel.png) と [節](#根拠)"
    )
    report = report_with(
        ReportSection(section_type="text", content=text),
        image("chart.png"),
        suggestions=["[リンク](https://example.com/more) を見る"],
    )
    document = render_html(report, workspace)
    page = Page(document)

    assert "[出典](https://example.com/source)" in document  # shown as text, not a link
    assert "url(" not in document
    assert not {"script", "link", "iframe", "object", "embed", "base"} & set(page.tags)
    references = [value for name, value in page.attributes if name in ("src", "href", "srcset", "action")]
    assert references  # the chart and the in-page link are there
    assert all(value.startswith(("data:", "#")) for value in references), references


def test_raw_html_from_the_model_is_shown_as_text_never_run(workspace: Path) -> None:
    records = [{f"列{SCRIPT}": f"値{SCRIPT}"}]
    report = report_with(
        ReportSection(section_type="text", content=f"本文 {SCRIPT}\n\n<div onclick='x()'>クリック</div>"),
        ReportSection(section_type="table", content=json.dumps(records), description=f"表 {SCRIPT}"),
        ReportSection(section_type="table", content=f"not json {SCRIPT}"),
        image("missing.png", description=f"図 {SCRIPT}"),
        title=f"題 {SCRIPT}",
        conclusion=f"結論 {SCRIPT}",
        assumptions=[f"前提 {SCRIPT}"],
        suggestions=[f"提案 {SCRIPT}"],
    )
    document = render_html(report, workspace, code_cells=[f"print({SCRIPT!r})"])
    page = Page(document)

    assert "script" not in page.tags
    assert not [name for name, _ in page.attributes if name.startswith("on")]
    assert "<p>&lt;div onclick='x()'&gt;クリック&lt;/div&gt;</p>" in document
    assert "<script" not in document
    assert document.count("&lt;script&gt;") == 12


def test_png_jpeg_and_svg_images_are_embedded_with_their_types(workspace: Path) -> None:
    png = write_chart(workspace / "figures" / "bar.png")
    jpeg = write_chart(workspace / "figures" / "line.jpg", kind="line")
    svg = write_chart(workspace / "figures" / "line.svg", kind="line")
    report = report_with(image("figures/bar.png"), image("figures/line.jpg"), image("./figures/line.svg"))
    document = render_html(report, workspace)

    assert data_uri(png, "image/png") in document
    assert data_uri(jpeg, "image/jpeg") in document
    assert data_uri(svg, "image/svg+xml") in document
    assert "<svg" not in document  # embedded as an image, never inlined into the page


def test_a_missing_image_gives_a_visible_note(workspace: Path) -> None:
    report = report_with(image("figures/none.png", "地域別"))
    document = render_html(report, workspace)
    assert '<p class="missing">画像を表示できません: figures/none.png</p>' in document
    assert "<figcaption>地域別</figcaption>" in document
    assert "<img" not in document

    english = render_html(report_with(image("figures/none.png"), language="en"), workspace)
    assert "Image not available: figures/none.png" in english


def test_an_image_of_another_type_is_not_embedded(workspace: Path) -> None:
    (workspace / "notes.html").write_text(SCRIPT, encoding="utf-8")
    document = render_html(report_with(image("notes.html")), workspace)
    assert "画像を表示できません: notes.html" in document
    assert "data:" not in document


# Images planted by cell code -------------------------------------------------------------------


def test_a_symlink_to_a_file_outside_the_workspace_is_not_embedded(workspace: Path, tmp_path: Path) -> None:
    secret = write_chart(tmp_path / "elsewhere" / "secret.png", kind="line")
    (workspace / "figures").mkdir()
    (workspace / "figures" / "chart.png").symlink_to(tmp_path / "elsewhere" / "secret.png")
    (workspace / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)

    report = report_with(image("figures/chart.png"), image("linked/secret.png"))
    document = render_html(report, workspace)

    assert base64.b64encode(secret[:300]).decode("ascii") not in document  # not even its start
    assert "<img" not in document
    assert document.count('<p class="missing">') == 2


@pytest.mark.parametrize("relative", ["../outside.png", "figures/../../outside.png", "data/../../outside.png"])
def test_paths_that_climb_out_of_the_workspace_are_refused(workspace: Path, tmp_path: Path, relative: str) -> None:
    outside = write_chart(tmp_path / "outside.png")
    (workspace / "figures").mkdir()
    assert (workspace / relative).resolve().read_bytes() == outside  # the path does lead there

    document = render_html(report_with(image(relative)), workspace)
    assert base64.b64encode(outside).decode("ascii") not in document
    assert document.count('<p class="missing">') == 1
    assert read_workspace_file(workspace, relative, max_bytes=1 << 20) is None


def test_absolute_paths_are_refused_even_inside_the_workspace(workspace: Path, tmp_path: Path) -> None:
    write_chart(tmp_path / "outside.png")
    inside = write_chart(workspace / "chart.png")
    for path in (tmp_path / "outside.png", workspace / "chart.png"):
        assert read_workspace_file(workspace, str(path), max_bytes=1 << 20) is None
    document = render_html(report_with(image(str(workspace / "chart.png"))), workspace)
    assert base64.b64encode(inside).decode("ascii") not in document


def test_the_reader_returns_regular_files_inside_the_workspace(workspace: Path) -> None:
    chart = write_chart(workspace / "figures" / "月別 売上.png")
    assert read_workspace_file(workspace, "figures/月別 売上.png", max_bytes=len(chart)) == chart
    assert read_workspace_file(workspace, "./figures//月別 売上.png", max_bytes=len(chart)) == chart
    assert read_workspace_file(workspace, "figures/月別 売上.png", max_bytes=len(chart) - 1) is None


def test_the_reader_refuses_what_is_not_a_regular_file(workspace: Path) -> None:
    os.mkfifo(workspace / "pipe.png")  # opening it for reading would block without O_NONBLOCK
    (workspace / "figures").mkdir()
    for relative in ("pipe.png", "figures", ".", "", "figures/\0.png", "missing/chart.png"):
        assert read_workspace_file(workspace, relative, max_bytes=1 << 20) is None, relative


def test_the_workspace_itself_may_be_reached_through_a_symlink(tmp_path: Path) -> None:
    chart = write_chart(tmp_path / "real" / "chart.png")
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    assert read_workspace_file(tmp_path / "alias", "chart.png", max_bytes=1 << 20) == chart


def test_an_image_over_the_size_limit_is_not_embedded(workspace: Path) -> None:
    with (workspace / "huge.png").open("wb") as handle:
        handle.truncate(20 * 1024 * 1024 + 1)
    document = render_html(report_with(image("huge.png")), workspace)
    assert "画像を表示できません: huge.png" in document
    assert len(document) < 100_000


# Tables -------------------------------------------------------------------------------------------


def test_long_tables_show_two_hundred_rows_and_a_note(workspace: Path) -> None:
    records = [{"店舗": f"店舗{number}", "売上": number} for number in range(1, 251)]
    section = ReportSection(section_type="table", content=json.dumps(records, ensure_ascii=False))
    document = render_html(report_with(section), workspace)
    assert document.count("<tr>") == 1 + 200
    assert "<td>店舗200</td>" in document
    assert "店舗201" not in document
    assert "全 250 行のうち先頭 200 行を表示しています（50 行は省略）。" in document


def test_table_cells_keep_pipes_and_line_breaks(workspace: Path) -> None:
    records = [{"商品|名": "りんご|みかん", "備考": "一行目\n二行目", "数量": None}]
    section = ReportSection(section_type="table", content=json.dumps(records, ensure_ascii=False))
    document = render_html(report_with(section), workspace)
    assert "<th>商品|名</th><th>備考</th><th>数量</th>" in document
    assert "<td>りんご|みかん</td><td>一行目\n二行目</td><td></td>" in document


def test_invalid_table_json_is_shown_as_code(workspace: Path) -> None:
    section = ReportSection(section_type="table", content='[{"店舗": "新宿店", <b>', description="売上")
    document = render_html(report_with(section), workspace)
    assert '<pre><code class="language-json">[{&quot;店舗&quot;: &quot;新宿店&quot;, &lt;b&gt;</code></pre>' in document
    assert "表のデータを読み取れなかったため、そのまま表示します。" in document
    assert "<table" not in document
