"""Reports: the report model and its renderers (Markdown, self-contained HTML, notebook)."""

from bunseki.report.files import open_workspace_file, read_workspace_file
from bunseki.report.html import render_html
from bunseki.report.markdown import render_markdown
from bunseki.report.models import ReportOutput, ReportSection
from bunseki.report.notebook import DataSource, build_notebook
from bunseki.report.save import SavedReport, save_report

__all__ = [
    "DataSource",
    "ReportOutput",
    "ReportSection",
    "SavedReport",
    "build_notebook",
    "open_workspace_file",
    "read_workspace_file",
    "render_html",
    "render_markdown",
    "save_report",
]
