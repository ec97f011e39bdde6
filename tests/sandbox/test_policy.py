"""The static check: what it refuses, what it lets through, and how it explains itself."""

from __future__ import annotations

import pytest

from bunseki.sandbox import policy

ALLOWED = [
    "import pandas as pd\nimport numpy as np\nfrom sklearn.linear_model import LinearRegression",
    "import scipy.stats as st\nimport matplotlib.pyplot as plt\nimport seaborn as sns",
    "import math, statistics, datetime, re, json, collections, itertools",
    "from pathlib import Path\nimport os.path\nPath('out').mkdir(exist_ok=True)",
    "df.to_csv('result.csv')\nplt.savefig('chart.png')",
    "print(type(df).__name__)",
    "x = '/'\ny = 'a/b'\nz = '/ is the root'",
]


@pytest.mark.parametrize("code", ALLOWED)
def test_ordinary_analysis_code_passes(code: str) -> None:
    assert policy.check(code) == []


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("import os", "use pathlib.Path or os.path"),
        ("import subprocess", "running programs is not available"),
        ("import requests", "there is no network in the sandbox"),
        ("from urllib.request import urlopen", "there is no network in the sandbox"),
        ("import plotly.express as px", "use matplotlib or seaborn"),
        ("import torch", "not one of the libraries the sandbox offers"),
        ("from . import x", "relative imports"),
        ("eval('1+1')", "eval() is not available"),
        ("exec('x=1')", "exec() is not available"),
        ("__import__('os')", "__import__() is not available"),
        ("name = input('?')", "input() is not available"),
        ("().__class__.__base__.__subclasses__()", "__subclasses__"),
        ("f.__globals__['os']", "__globals__"),
        ("open('/etc/passwd').read()", "outside the workspace"),
        ("pd.read_csv('/home/user/data.csv')", "outside the workspace"),
    ],
)
def test_refusals_name_the_problem_and_the_alternative(code: str, fragment: str) -> None:
    violations = policy.check(code)
    assert violations, code
    assert fragment in str(violations[0])


def test_paths_inside_the_workspace_are_fine() -> None:
    workspace = "/tmp/bunseki/workspace/20240101120000"
    assert policy.check(f"plt.savefig('{workspace}/chart.png')", workspace) == []
    assert policy.check(f"plt.savefig('{workspace}/../other/chart.png')", workspace) != []


def test_explain_lists_every_violation_with_its_line() -> None:
    violations = policy.check("import os\nx = 1\nimport requests")
    assert [violation.line for violation in violations] == [1, 3]
    message = policy.explain(violations)
    assert message.startswith("PolicyViolation: the cell was not run.")
    assert "line 1:" in message and "line 3:" in message
    assert "The data is in the variable `df`" in message


def test_syntax_error_reports_like_python() -> None:
    message = policy.syntax_error("x = (1,\n")
    assert message is not None
    assert "SyntaxError" in message
    assert policy.syntax_error("x = 1") is None
