"""render_markdown: headings in both languages, every section type, tables, and relative images."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from matplotlib.figure import Figure

from bunseki.domain import Language, ReportOutput, ReportSection
from bunseki.report import render_markdown

HEADINGS = {
    "ja": ["## 結論", "## 根拠", "## 前提", "## 追加の分析案", "## 実行したコード"],
    "en": [
        "## Conclusion",
        "## Evidence",
        "## Assumptions",
        "## Suggestions for deeper analysis",
        "## Code that was run",
    ],
}
SALES_RECORDS = [
    {"都道府県": "東京都", "売上金額": 1_250_000, "前年比": 1.08},
    {"都道府県": "大阪府", "売上金額": 980_000, "前年比": None},
]


def full_report(language: str) -> ReportOutput:
    """A report with one section of each type, assumptions and suggestions."""
    return ReportOutput.model_validate(
        {
            "title": "地域別の売上" if language == "ja" else "Sales by region",
            "conclusion": "東京都の売上が最も多く 1,250,000 円でした。",
            "sections": [
                {"section_type": "text", "content": "東京都が **全体の 56%** を占めます。\n\n- 大阪府が次点"},
                {"section_type": "image", "content": "figures/sales.png", "description": "地域別の売上"},
                {"section_type": "table", "content": json.dumps(SALES_RECORDS), "description": "売上の表"},
            ],
            "assumptions": ["売上金額は税込みとみなしました"],
            "suggestions": ["月別の推移を見る", "店舗別に分解する"],
            "language": language,
        }
    )


def table_report(content: str, language: Language = "ja") -> ReportOutput:
    section = ReportSection(section_type="table", content=content)
    return ReportOutput(title="表", conclusion="表を示します。", sections=[section], language=language)


def gfm_html(markdown: str) -> str:
    """The Markdown as a GitHub-style viewer renders it (tables on, raw HTML such as <br> allowed)."""
    rendered: str = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    return rendered


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_part_appears_in_order_with_headings_in_the_report_language(language: str) -> None:
    markdown = render_markdown(full_report(language), code_cells=["print(df.shape)", "df.describe()"])

    title = "# 地域別の売上" if language == "ja" else "# Sales by region"
    parts = [
        title,
        HEADINGS[language][0],
        "東京都の売上が最も多く 1,250,000 円でした。",
        HEADINGS[language][1],
        "東京都が **全体の 56%** を占めます。\n\n- 大阪府が次点",
        "![地域別の売上](figures/sales.png)\n\n*地域別の売上*",
        "*売上の表*",
        "| 都道府県 | 売上金額 | 前年比 |\n| --- | ---: | ---: |\n"
        "| 東京都 | 1,250,000 | 1.08 |\n| 大阪府 | 980,000 |  |",
        HEADINGS[language][2],
        "- 売上金額は税込みとみなしました",
        HEADINGS[language][3],
        "- 月別の推移を見る\n- 店舗別に分解する",
        HEADINGS[language][4],
        "```python\nprint(df.shape)\n```",
        "```python\ndf.describe()\n```",
    ]
    positions = [markdown.find(part) for part in parts]
    assert -1 not in positions, [part for part, at in zip(parts, positions, strict=True) if at == -1]
    assert positions == sorted(positions)
    assert markdown.startswith(title + "\n")
    other = "en" if language == "ja" else "ja"
    assert not any(heading in markdown for heading in HEADINGS[other])


def test_optional_parts_are_left_out_when_empty() -> None:
    report = table_report(json.dumps(SALES_RECORDS))
    markdown = render_markdown(report)
    assert "## 結論" in markdown
    assert "## 根拠" in markdown
    for heading in HEADINGS["ja"][2:]:
        assert heading not in markdown


def test_image_paths_stay_relative_so_a_moved_workspace_still_shows_them(tmp_path: Path) -> None:
    workspace = tmp_path / "20240105093000"
    figure = Figure(figsize=(3, 2))
    figure.subplots().bar(["Tokyo", "Osaka"], [3, 2])
    (workspace / "figures").mkdir(parents=True)
    figure.savefig(workspace / "figures" / "売上 (月別).png")
    section = ReportSection(section_type="image", content="figures/売上 (月別).png", description="月別の売上")
    report = ReportOutput(title="月別", conclusion="一月が最多です。", sections=[section])
    (workspace / "report.md").write_text(render_markdown(report), encoding="utf-8")

    moved = shutil.move(workspace, tmp_path / "archive" / "moved")
    markdown = (Path(moved) / "report.md").read_text(encoding="utf-8")
    images = [
        child
        for token in MarkdownIt().parse(markdown)
        if token.type == "inline"
        for child in token.children or []
        if child.type == "image"
    ]
    assert len(images) == 1
    source = unquote(str(images[0].attrs["src"]))
    assert source == "figures/売上 (月別).png"
    assert (Path(moved) / source).is_file()
    assert str(tmp_path) not in markdown


def test_long_tables_show_fifty_rows_and_say_how_many_were_left_out() -> None:
    records = [{"店舗": f"店舗{number}", "売上": number * 100} for number in range(1, 63)]
    html = gfm_html(render_markdown(table_report(json.dumps(records, ensure_ascii=False))))
    assert html.count("<tr>") == 1 + 50  # the header row and fifty data rows
    assert "<td>店舗50</td>" in html
    assert "店舗51" not in html
    assert "全 62 行のうち先頭 50 行を表示しています（12 行は省略）。" in html

    english = render_markdown(table_report(json.dumps(records), language="en"))
    assert "Showing the first 50 of 62 rows (12 left out)." in english


def test_a_table_of_exactly_fifty_rows_has_no_note() -> None:
    records = [{"n": number} for number in range(50)]
    markdown = render_markdown(table_report(json.dumps(records)))
    assert markdown.count("\n| ") == 1 + 1 + 50
    assert "省略" not in markdown


def test_pipes_newlines_and_markup_in_cells_stay_inside_their_cell() -> None:
    records = [{"商品|名": "りんご|みかん", "備考": "一行目\n二行目", "記号": "*強調* <b>太字</b>"}]
    html = gfm_html(render_markdown(table_report(json.dumps(records, ensure_ascii=False))))
    assert html.count("<th>") == 3
    assert html.count("<td>") == 3
    assert "<th>商品|名</th>" in html
    assert "<td>りんご|みかん</td>" in html
    assert "<td>一行目<br>二行目</td>" in html
    assert "<td>*強調* &lt;b&gt;太字&lt;/b&gt;</td>" in html


@pytest.mark.parametrize(
    "content",
    ['[{"店舗": "新宿店", "売上": 1200}', '{"店舗": "新宿店"}', "[1, 2, 3]", "売上は 1200 円"],
)
def test_table_content_that_is_not_json_records_is_shown_as_a_code_block(content: str) -> None:
    markdown = render_markdown(table_report(content))
    assert f"```json\n{content}\n```" in markdown
    assert "表のデータを読み取れなかったため、そのまま表示します。" in markdown
    assert "| " not in markdown


def test_an_empty_table_says_so() -> None:
    assert "（表は空です）" in render_markdown(table_report("[]"))
    assert "(The table is empty.)" in render_markdown(table_report("[]", language="en"))


def test_code_with_backticks_gets_a_longer_fence() -> None:
    cell = 'text = """\n```\nnot the end\n```\n"""\nprint(text)'
    report = table_report("[]")
    tokens = MarkdownIt().parse(render_markdown(report, code_cells=[cell]))
    fences = [token for token in tokens if token.type == "fence"]
    assert [(fence.info, fence.content) for fence in fences] == [("python", cell + "\n")]


def test_descriptions_cannot_break_the_image_or_caption_markup() -> None:
    section = ReportSection(section_type="image", content="chart.png", description="売上 [税込] *速報*\n値")
    markdown = render_markdown(ReportOutput(title="t", conclusion="c", sections=[section]))
    html = MarkdownIt().render(markdown)
    assert '<img src="chart.png" alt="売上 [税込] *速報* 値" />' in html
    assert "<em>売上 [税込] *速報* 値</em>" in html
