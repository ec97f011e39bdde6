"""A report as a Jupyter notebook that reruns the analysis from the original data file.

The notebook runs with the workspace as its current directory: it loads ``df`` the way the
sandbox did and then runs the cells that were executed there, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

import nbformat
from nbformat import NotebookNode  # nbformat has no annotations: its calls need type: ignore

from bunseki.data.load import LoadedTable, TableFormat
from bunseki.domain import LABELS, ReportOutput
from bunseki.report.markdown import bullet_list

_SETUP: Final = """\
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

try:
    import matplotlib_fontja  # noqa: F401  (registers a Japanese font for charts)
except ImportError:
    pass  # charts still draw; Japanese labels may show as empty boxes"""

_KERNEL: Final = {"name": "python3", "display_name": "Python 3", "language": "python"}


@dataclass(frozen=True)
class DataSource:
    """The analysed data file (relative to the workspace) and how it was read."""

    path: str
    format: TableFormat
    encoding: str | None = None
    delimiter: str | None = None
    date_columns: tuple[str, ...] = ()
    sheet: str | None = None

    @classmethod
    def from_loaded(cls, table: LoadedTable, workspace: Path) -> DataSource:
        """Describe ``table`` by its copy under ``<workspace>/data/`` (where add_data_file puts it)."""
        try:
            relative = table.path.resolve().relative_to(workspace.resolve()).as_posix()
        except ValueError:  # loaded from the upload itself, outside the workspace
            relative = PurePosixPath("data", table.path.name).as_posix()
        return cls(
            path=relative,
            format=table.format,
            encoding=table.encoding,
            delimiter=table.delimiter,
            date_columns=table.date_columns,
            sheet=table.sheet,
        )


def build_notebook(report: ReportOutput, code_cells: Sequence[str], source: DataSource | None) -> NotebookNode:
    """A validated nbformat v4 notebook: summary, setup, data loading, the cells, then the notes."""
    labels = LABELS[report.language]
    cells = [
        _markdown(f"# {report.title}\n\n## {labels.conclusion}\n\n{report.conclusion}"),
        _code(_SETUP),
    ]
    if source is not None:
        cells.append(_code(data_cell_code(source)))
    cells.extend(_code(cell.strip("\n")) for cell in code_cells)
    if report.assumptions:
        cells.append(_markdown(f"## {labels.assumptions}\n\n{bullet_list(report.assumptions)}"))
    if report.suggestions:
        cells.append(_markdown(f"## {labels.suggestions}\n\n{bullet_list(report.suggestions)}"))
    for number, cell in enumerate(cells, start=1):
        cell["id"] = f"bunseki-{number:03d}"  # stable ids: the same report gives the same file
    metadata = {"kernelspec": _KERNEL, "language_info": {"name": "python"}}
    notebook: NotebookNode = nbformat.v4.new_notebook(cells=cells, metadata=metadata)  # type: ignore[no-untyped-call]
    nbformat.validate(notebook)
    return notebook


def data_cell_code(source: DataSource, *, bunseki_loader: bool = True) -> str:
    """Code that loads ``df``: with Bunseki's loader when it is installed, else plain pandas.

    ``bunseki_loader=False`` gives only the plain-pandas code, which is what the cell runs
    where Bunseki is not installed.
    """
    with_pandas = _pandas_read(source)
    if not bunseki_loader:
        return f"{with_pandas}\ndf.head()"
    return "\n".join(
        [
            "from pathlib import Path",
            "",
            "try:",
            "    from bunseki.data import load_table",
            "except ImportError:  # Bunseki is not installed: pandas with the settings it detected",
            f"    {with_pandas}",
            "else:  # the loader Bunseki used, so df is exactly the table the analysis saw",
            f"    df = load_table(Path({source.path!r})).frame",
            "",
            "df.head()",
        ]
    )


def _pandas_read(source: DataSource) -> str:
    """One ``df = pd.read_…(…)`` statement that reads ``source`` as Bunseki detected it."""
    options = [repr(source.path)]
    if source.format == "parquet":
        return f"df = pd.read_parquet({options[0]})"
    if source.format == "excel":
        if source.sheet is not None:
            options.append(f"sheet_name={source.sheet!r}")
        reader = "read_excel"
    else:
        if source.encoding is not None:
            options.append(f"encoding={source.encoding!r}")
        delimiter = source.delimiter or ("\t" if source.format == "tsv" else ",")
        options.append(f"sep={delimiter!r}")
        reader = "read_csv"
    if source.date_columns:
        options.append(f"parse_dates={list(source.date_columns)!r}")
    return f"df = pd.{reader}({', '.join(options)})"


def _markdown(source: str) -> NotebookNode:
    cell: NotebookNode = nbformat.v4.new_markdown_cell(source)  # type: ignore[no-untyped-call]
    return cell


def _code(source: str) -> NotebookNode:
    cell: NotebookNode = nbformat.v4.new_code_cell(source)  # type: ignore[no-untyped-call]
    return cell
