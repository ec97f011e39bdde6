"""Reports: the renderers of the report model (`bunseki.domain.ReportOutput`): Markdown, self-contained HTML,
and a notebook; and the saving of all three."""

from bunseki.report.files import open_workspace_file, read_workspace_file
from bunseki.report.html import render_html
from bunseki.report.markdown import render_markdown
from bunseki.report.notebook import DataSource, build_notebook
from bunseki.report.save import SavedReport, save_report

__all__ = [
    "DataSource",
    "SavedReport",
    "build_notebook",
    "open_workspace_file",
    "read_workspace_file",
    "render_html",
    "render_markdown",
    "save_report",
]
