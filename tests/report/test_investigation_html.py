"""The investigator's HTML reports: every part of a dataset's record shown, and nothing from a case becomes markup."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from bunseki.report.investigation import plain, write_investigation_html

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
HOSTILE = '<script>alert("x")</script> [click](javascript:alert(1)) ![i](http://evil.example/i.png) *bold*'


def _hypothesis(id_: str, kind: str, statement: str, verified: bool | None) -> dict[str, Any]:
    return {"id": id_, "kind": kind, "statement": statement, "verified": verified, "evidence": "ran", "iterations": 1}


def _record(name: str, **changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "name": name,
        "status": "inconsistent",
        "expected": "frames 10-19 have z=1",
        "mismatched_frames": [10, 11],
        "mismatched_runs": [[10, 11]],
        "eval_passed": False,
        "diagnostics": {"lag": 1, "start_shifts": [1], "end_shifts": [0]},
        "hypotheses": [
            _hypothesis("H1", "parameter", HOSTILE, True),
            _hypothesis("H2", "unexpected", "other", False),
            _hypothesis("H3", "inconsistency", "later", None),
        ],
        "conclusion": f"Root cause: {HOSTILE}",
        "fix": "--- a/algo.py\n+++ b/algo.py\n-x = a > b\n+x = a >= b  # ```</pre><script>1</script>\n",
        "charts": ["charts/d_overview.png"],
        "iterations": 3,
        "data_check": "output: 20 rows",
        "report_path": f"reports/{name}.md",
    }
    return record | changes


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "charts").mkdir(parents=True)
    (tmp_path / "reports").mkdir()
    (tmp_path / "charts" / "d_overview.png").write_bytes(PNG)
    return tmp_path


def test_a_dataset_page_has_every_part_of_the_report_with_its_chart_embedded(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    summary = write_investigation_html(workspace, "case", [_record("d")], "en")
    page = (workspace / "reports" / "d.html").read_text(encoding="utf-8")
    for heading in ("Overview", "Data check", "Inconsistencies", "Hypotheses", "Root cause", "Suggested fix"):
        assert f">{heading}<" in page, heading
    assert "<td>verified</td>" in page and "<td>refuted</td>" in page and "<td>untested</td>" in page
    assert '<code class="language-diff">' in page and "+x = a &gt;= b" in page
    assert "data:image/png;base64," in page
    assert summary == "reports/investigation.html"
    overview = (workspace / summary).read_text(encoding="utf-8")
    assert "d: Overview" in overview and "data:image/png;base64," in overview


def test_nothing_from_the_case_becomes_markup(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    name = "<img src=x onerror=alert(1)>"
    write_investigation_html(workspace, "<b>case</b>", [_record(name, report_path="reports/hostile.md")], "en")
    for page in ("hostile.html", "investigation.html"):
        html = (workspace / "reports" / page).read_text(encoding="utf-8")
        assert "<script" not in html and "<img src=x" not in html and "<b>case" not in html, page
        assert "javascript:" not in html.replace("(javascript:alert(1))", "") and 'href="javascript' not in html
        assert "evil.example/i.png" not in html.replace("(http://evil.example/i.png)", "")
        assert "&lt;script&gt;" in html and "<em>bold</em>" not in html
        assert "&lt;/pre&gt;&lt;script&gt;1&lt;/script&gt;" in html  # the diff's text, shown as written


def test_a_chart_path_that_leaves_the_workspace_is_not_read(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    (tmp_path / "secret.png").write_bytes(PNG)
    write_investigation_html(workspace, "case", [_record("d", charts=["../secret.png"])], "ja")
    html = (workspace / "reports" / "d.html").read_text(encoding="utf-8")
    assert "data:image/png" not in html and "画像を表示できません" in html
    assert ">概要<" in html and ">修正案<" in html and "<td>検証済み</td>" in html


def test_plain_text_is_shown_as_written() -> None:
    assert plain("a*b_[c](d)") == r"a\*b\_\[c\]\(d\)"
