"""build_notebook, executed for real on a CP932 CSV in both loading branches, and save_report."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from matplotlib.figure import Figure
from nbclient import NotebookClient
from nbformat import NotebookNode

from bunseki.data import load_table
from bunseki.domain import ReportOutput, ReportSection
from bunseki.report import DataSource, build_notebook, save_report
from bunseki.report.notebook import data_cell_code
from bunseki.sandbox.workspace import add_data_file

SALES = (
    "日付,都道府県,郵便番号,商品名,数量,売上金額\n"
    "2024/01/05,北海道,0600001,緑茶ペットボトル,12,1800\n"
    "2024/01/05,東京都,1600023,おにぎり（鮭）,30,4500\n"
    "2024/01/20,大阪府,5300001,カップラーメン,8,1584\n"
    "2024/02/03,東京都,1600023,ボールペン,3,1440\n"
    "2024/02/14,大阪府,5300001,緑茶ペットボトル,20,3000\n"
    "2024/03/01,北海道,0600001,おにぎり（鮭）,15,2250\n"
)
# Cells as the sandbox ran them: they rely on df, pd, np, plt, sns and display being there.
CELLS = [
    'print("合計", int(df["売上金額"].sum()))',
    'by_prefecture = df.groupby("都道府県")["売上金額"].sum()\n'
    'print("都道府県別", by_prefecture.to_json(force_ascii=False))',
    'print("月別件数", df["日付"].dt.strftime("%Y-%m").value_counts().sort_index().to_json())',
    'print("平均数量", np.round(df["数量"].mean(), 3))',
    'print("郵便番号", df["郵便番号"].iloc[0])',
    'display(df.describe())\nsns.barplot(data=df, x="都道府県", y="売上金額")\nplt.savefig("都道府県別.png")',
]


def sales_report(language: str = "ja") -> ReportOutput:
    return ReportOutput.model_validate(
        {
            "title": "都道府県別の売上",
            "conclusion": "東京都の売上が最も多く 5,940 円でした。",
            "sections": [{"section_type": "text", "content": "東京都が最多です。"}],
            "assumptions": ["売上金額は税込みとみなしました"],
            "suggestions": ["月別の推移を見る"],
            "language": language,
        }
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    directory = tmp_path / "20240105093000"
    (directory / "data").mkdir(parents=True)
    return directory


@pytest.fixture
def upload(tmp_path: Path) -> Path:
    """The sales table as a person uploads it: CP932, as Excel on Japanese Windows saves CSV."""
    path = tmp_path / "uploads" / "売上.csv"
    path.parent.mkdir()
    path.write_bytes(SALES.encode("cp932"))
    return path


@pytest.fixture
def source(workspace: Path, upload: Path) -> DataSource:
    return DataSource.from_loaded(load_table(add_data_file(workspace, upload)), workspace)


def printed(notebook: NotebookNode) -> dict[str, str]:
    """What the executed cells printed, keyed by each line's first word."""
    lines = [
        line
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream" and output.name == "stdout"
        for line in output.text.splitlines()
    ]
    return dict(line.split(" ", 1) for line in lines)


def execute(notebook: NotebookNode, workspace: Path) -> NotebookNode:
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(workspace)}}
    )
    executed: NotebookNode = client.execute()
    return executed


def expected_from_pandas(upload: Path) -> dict[str, str]:
    """The same figures computed directly with pandas on the uploaded file."""
    frame = pd.read_csv(upload, encoding="cp932", parse_dates=["日付"])
    by_prefecture = frame.groupby("都道府県")["売上金額"].sum()
    months = frame["日付"].dt.strftime("%Y-%m").value_counts().sort_index()
    return {
        "合計": str(int(frame["売上金額"].sum())),
        "都道府県別": json.dumps(
            {name: int(value) for name, value in by_prefecture.items()},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        "月別件数": json.dumps({month: int(count) for month, count in months.items()}, separators=(",", ":")),
        "平均数量": str(round(frame["数量"].mean(), 3)),
    }


# Structure ----------------------------------------------------------------------------------------


def test_the_notebook_has_summary_setup_data_cells_and_notes_in_order(source: DataSource) -> None:
    notebook = build_notebook(sales_report(), CELLS, source)
    nbformat.validate(notebook)

    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds == ["markdown", "code", "code", *["code"] * len(CELLS), "markdown", "markdown"]
    summary, setup, data = (cell.source for cell in notebook.cells[:3])
    assert summary == "# 都道府県別の売上\n\n## 結論\n\n東京都の売上が最も多く 5,940 円でした。"
    for line in ("import pandas as pd", "import numpy as np", "import matplotlib.pyplot as plt"):
        assert line in setup.splitlines()
    assert "import seaborn as sns" in setup.splitlines()
    assert "try:\n    import matplotlib_fontja" in setup
    assert "from bunseki.data import load_table" in data
    assert "df = load_table(Path('data/売上.csv')).frame" in data
    assert [cell.source for cell in notebook.cells[3:-2]] == CELLS
    assert notebook.cells[-2].source == "## 前提\n\n- 売上金額は税込みとみなしました"
    assert notebook.cells[-1].source == "## 追加の分析案\n\n- 月別の推移を見る"
    assert notebook.metadata.kernelspec.name == "python3"


def test_the_same_report_gives_the_same_file(source: DataSource) -> None:
    first = nbformat.writes(build_notebook(sales_report(), CELLS, source))
    assert first == nbformat.writes(build_notebook(sales_report(), CELLS, source))
    assert nbformat.reads(first, as_version=4).cells[3].source == CELLS[0]


def test_without_a_data_file_there_is_no_data_cell_and_english_headings() -> None:
    notebook = build_notebook(sales_report("en"), ["print(1)"], None)
    assert [cell.cell_type for cell in notebook.cells] == ["markdown", "code", "code", "markdown", "markdown"]
    assert "## Conclusion" in notebook.cells[0].source
    assert notebook.cells[2].source == "print(1)"
    assert notebook.cells[-2].source.startswith("## Assumptions\n")
    assert notebook.cells[-1].source.startswith("## Suggestions for deeper analysis\n")


def test_a_data_source_names_the_copy_in_the_workspace(workspace: Path, upload: Path) -> None:
    copied = DataSource.from_loaded(load_table(add_data_file(workspace, upload)), workspace)
    from_upload = DataSource.from_loaded(load_table(upload), workspace)
    expected = DataSource("data/売上.csv", "csv", "cp932", ",", ("日付",), None)
    assert copied == expected
    assert from_upload == expected


# The plain-pandas branch, per format ----------------------------------------------------------


def test_the_pandas_code_reads_every_format_as_bunseki_did(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = pd.DataFrame(
        {
            "日付": pd.to_datetime(["2024-01-05", "2024-02-03"]),
            "店舗": ["新宿店", "梅田店"],
            "売上": [1200, 980],
        }
    )
    data = workspace / "data"
    (data / "sales.tsv").write_bytes(frame.to_csv(sep="\t", index=False, date_format="%Y/%m/%d").encode("euc_jp"))
    frame.to_excel(data / "sales.xlsx", sheet_name="売上", index=False)
    frame.to_parquet(data / "sales.parquet")
    monkeypatch.chdir(workspace)  # the notebook runs with the workspace as its directory

    for name, reader in [
        ("sales.tsv", "read_csv"),
        ("sales.xlsx", "read_excel"),
        ("sales.parquet", "read_parquet"),
    ]:
        source = DataSource.from_loaded(load_table(data / name), workspace)
        code = data_cell_code(source, bunseki_loader=False)
        assert f"pd.{reader}('data/{name}'" in code
        namespace: dict[str, object] = {"pd": pd}
        exec(code, namespace)
        loaded = namespace["df"]
        assert isinstance(loaded, pd.DataFrame)
        assert loaded["店舗"].tolist() == ["新宿店", "梅田店"], name
        assert loaded["売上"].tolist() == [1200, 980], name
        assert loaded["日付"].tolist() == frame["日付"].tolist(), name
    assert "encoding='euc_jp', sep='\\t', parse_dates=['日付']" in code_for(workspace, "sales.tsv")
    assert "sheet_name='売上'" in code_for(workspace, "sales.xlsx")


def code_for(workspace: Path, name: str) -> str:
    source = DataSource.from_loaded(load_table(workspace / "data" / name), workspace)
    return data_cell_code(source, bunseki_loader=False)


# Executing the notebook -------------------------------------------------------------------------


@pytest.mark.slow
def test_the_notebook_reruns_the_analysis_with_bunsekis_loader(
    workspace: Path, upload: Path, source: DataSource
) -> None:
    executed = execute(build_notebook(sales_report(), CELLS, source), workspace)

    outputs = printed(executed)
    assert outputs == {**expected_from_pandas(upload), "郵便番号": "0600001"}  # a code keeps its zero
    displayed = [output for cell in executed.cells[3:] for output in cell.get("outputs", [])]
    assert any(output.output_type == "display_data" for output in displayed)
    assert (workspace / "都道府県別.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_the_notebook_reruns_the_analysis_with_plain_pandas(workspace: Path, upload: Path, source: DataSource) -> None:
    notebook = build_notebook(sales_report(), CELLS, source)
    data_cell = notebook.cells[2]
    data_cell.source = data_cell_code(source, bunseki_loader=False)  # what runs without Bunseki
    assert "load_table" not in data_cell.source

    outputs = printed(execute(notebook, workspace))
    assert outputs == {**expected_from_pandas(upload), "郵便番号": "600001"}  # pandas reads codes as numbers


# Saving ---------------------------------------------------------------------------------------------


def write_chart(path: Path) -> bytes:
    figure = Figure(figsize=(3, 2))
    figure.subplots().bar(["Tokyo", "Osaka"], [5, 3])
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    return path.read_bytes()


def chart_report() -> ReportOutput:
    chart = ReportSection(section_type="image", content="figures/chart.png", description="売上")
    return sales_report().model_copy(update={"sections": [chart]})


def test_save_report_writes_markdown_html_and_notebook(workspace: Path, source: DataSource) -> None:
    write_chart(workspace / "figures" / "chart.png")
    saved = save_report(chart_report(), workspace, code_cells=CELLS[:1], source=source)

    assert saved.markdown_path == workspace / "report.md"
    assert saved.markdown_path.read_text(encoding="utf-8") == saved.markdown
    assert "![売上](figures/chart.png)" in saved.markdown
    assert saved.html_path == workspace / "report.html"
    assert "data:image/png;base64," in saved.html_path.read_text(encoding="utf-8")
    notebook = nbformat.read(saved.notebook_path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.cells[3].source == CELLS[0]
    assert sorted(path.name for path in workspace.iterdir()) == [
        "data",
        "figures",
        "report.html",
        "report.ipynb",
        "report.md",
    ]
    assert stat.S_IMODE(saved.html_path.stat().st_mode) == 0o644


def test_save_report_uses_the_stem_and_replaces_an_earlier_report(workspace: Path) -> None:
    save_report(sales_report(), workspace, stem="売上レポート")
    saved = save_report(sales_report("en"), workspace, stem="売上レポート")
    assert saved.notebook_path == workspace / "売上レポート.ipynb"
    assert "## Conclusion" in (workspace / "売上レポート.md").read_text(encoding="utf-8")
    assert '<html lang="en">' in (workspace / "売上レポート.html").read_text(encoding="utf-8")


def test_save_report_replaces_a_planted_symlink_instead_of_writing_through_it(workspace: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("untouched", encoding="utf-8")
    (workspace / "report.md").symlink_to(target)

    save_report(sales_report(), workspace)
    assert target.read_text(encoding="utf-8") == "untouched"
    assert not (workspace / "report.md").is_symlink()
    assert (workspace / "report.md").read_text(encoding="utf-8").startswith("# 都道府県別の売上")


@pytest.mark.parametrize("stem", ["", ".report", "..", "../report", "sub/report", "sub\\report", "re\0port"])
def test_save_report_refuses_a_stem_that_is_not_a_plain_file_name(workspace: Path, stem: str) -> None:
    with pytest.raises(ValueError, match="plain file name"):
        save_report(sales_report(), workspace, stem=stem)
    assert [path.name for path in workspace.iterdir()] == ["data"]
