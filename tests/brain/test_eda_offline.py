"""OfflineEdaBrain: plans for different tables and goals, feedback in ja and en, code that runs for every
step kind with findings whose numbers match pandas, retries, and the report."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.brain.eda.contract import EdaBrain, EdaView
from bunseki.brain.eda.offline import OfflineEdaBrain
from bunseki.brain.results import RESULT_MARKER
from bunseki.data.profile import profile_table
from bunseki.domain import Finding, Language, PlanStep, StepOutcome

BRAIN = OfflineEdaBrain()


def sales_frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 90
    frame = pd.DataFrame(
        {
            "注文ID": [f"A{i:04d}" for i in range(n)],
            "日付": pd.date_range("2024-01-01", periods=n, freq="D"),
            "地域": rng.choice(["東京", "大阪", "福岡"], n),
            "channel": rng.choice(["web", "store"], n),
            "売上": rng.normal(1000, 100, n).round(),
            "数量": rng.integers(1, 10, n).astype(float),
        }
    )
    frame.loc[5, "売上"] = 9000.0
    frame["広告費"] = frame["売上"] * 0.1 + rng.normal(0, 5, n)
    frame.loc[[3, 7, 11], "売上"] = np.nan
    frame.loc[[2], "地域"] = None
    return frame


FRAME = sales_frame()
PROFILE = profile_table(FRAME)


def view(**changes: object) -> EdaView:
    base = EdaView(profile=PROFILE, source="sales.csv", language="ja")
    return base.model_copy(update=changes)


def run(code: str, frame: pd.DataFrame) -> str:
    """Run step code as the sandbox does: a Japanese font already the default (its preload imports it)."""
    import matplotlib_fontja  # noqa: F401

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"df": frame})
    return out.getvalue()


def execute(step: PlanStep, the_view: EdaView, frame: pd.DataFrame, error: str | None = None) -> tuple[str, Finding]:
    code = BRAIN.write_step_code(the_view, step, error)
    stdout = run(code.code, frame)
    charts = [name for name in code.charts if Path(name).exists()]
    outcome = StepOutcome(step_id=step.id, code=code.code, success=True, stdout=stdout, artifacts=charts)
    return stdout, BRAIN.find(the_view, step, outcome)


def iqr_outliers(values: pd.Series) -> int:
    q1, q3 = values.quantile(0.25), values.quantile(0.75)
    return int(((values < q1 - 1.5 * (q3 - q1)) | (values > q3 + 1.5 * (q3 - q1))).sum())


def kinds(plan: list[PlanStep]) -> list[str]:
    return [s.kind for s in plan]


# --- plans ---------------------------------------------------------------------------------------


def test_is_an_eda_brain() -> None:
    assert isinstance(BRAIN, EdaBrain)
    assert BRAIN.name == "offline"


def test_first_plan_adapts_to_the_profile() -> None:
    plan = BRAIN.plan(view()).plan
    assert [s.id for s in plan] == list(range(1, len(plan) + 1))
    assert 4 <= len(plan) <= 8
    assert kinds(plan)[0] == "missing"
    assert set(plan[0].columns) == {"売上", "地域"}
    assert {"distribution", "categorical", "trend", "correlation", "outliers"} <= set(kinds(plan))
    assert all("注文ID" not in s.columns for s in plan)  # identifiers are skipped
    trend = next(s for s in plan if s.kind == "trend")
    assert trend.columns == ["日付", "売上"]
    assert "週単位" in trend.title  # 90 daily dates, coarsened to at most 60 periods
    outliers = next(s for s in plan if s.kind == "outliers")
    assert outliers.columns == [c for c in ("売上", "数量", "広告費") if iqr_outliers(FRAME[c].dropna())]
    assert "target" not in kinds(plan)
    assert all(s.rationale for s in plan)


def test_a_clean_table_without_dates_gets_no_missing_trend_or_outlier_steps() -> None:
    frame = pd.DataFrame({"region": ["a", "b", "c", "a"] * 10, "price": np.arange(40.0), "qty": np.arange(40.0) % 7})
    plan = BRAIN.plan(EdaView(profile=profile_table(frame), source="x.csv", language="en")).plan
    assert "missing" not in kinds(plan)
    assert "trend" not in kinds(plan)
    assert "outliers" not in kinds(plan)
    assert "correlation" in kinds(plan)
    assert plan[0].title == "Distributions of numeric columns"


def test_one_numeric_column_has_no_correlations() -> None:
    frame = pd.DataFrame({"region": ["a", "b"] * 15, "price": np.arange(30.0)})
    assert "correlation" not in kinds(BRAIN.plan(EdaView(profile=profile_table(frame), source="x")).plan)


@pytest.mark.parametrize(
    ("goal", "language", "target"),
    [("売上に影響する要因", "ja", "売上"), ("What drives 数量?", "en", "数量"), ("what drives sales", "en", "売上")],
)
def test_a_goal_naming_a_column_adds_a_target_step(goal: str, language: Language, target: str) -> None:
    plan = BRAIN.plan(view(goal=goal, language=language)).plan
    step = next(s for s in plan if s.kind == "target")
    assert step.columns[0] == target
    assert "広告費" in step.columns
    assert target in step.title
    assert len(plan) <= 8


def test_titles_follow_the_language() -> None:
    ja = BRAIN.plan(view()).plan
    en = BRAIN.plan(view(language="en")).plan
    assert ja[0].title == "欠損値の確認"
    assert en[0].title == "Missing values"


# --- feedback ------------------------------------------------------------------------------------


def revise(feedback: str, language: Language = "ja", review: str = "plan") -> tuple[list[PlanStep], object]:
    current = BRAIN.plan(view(language=language)).plan
    revision = BRAIN.plan(view(language=language, plan=current, feedback=feedback, review=review))
    return current, revision


@pytest.mark.parametrize(
    ("feedback", "language"),
    [
        ("売上をchannel別に分析して", "ja"),
        ("channel別の売上を追加して", "ja"),
        ("add an analysis of 売上 by channel", "en"),
        ("add sales by channel", "en"),
    ],
)
def test_feedback_adds_a_breakdown(feedback: str, language: Language) -> None:
    current, revision = revise(feedback, language)
    assert revision.understood
    assert len(revision.plan) == len(current) + 1
    added = revision.plan[-1]
    assert (added.kind, added.columns, added.id) == ("categorical", ["channel", "売上"], len(current) + 1)
    assert not revision.new_analyses  # at the plan review


def test_feedback_at_the_results_review_that_adds_steps_is_new_analyses() -> None:
    _, revision = revise("channel別の数量を追加して", review="results")
    assert revision.understood and revision.new_analyses
    _, dropped = revise("ステップ2を削除", review="results")
    assert dropped.understood and not dropped.new_analyses


@pytest.mark.parametrize(
    ("feedback", "language"),
    [("ステップ3を削除", "ja"), ("3番目は不要", "ja"), ("drop step 3", "en"), ("remove step #3", "en")],
)
def test_feedback_drops_a_step_and_renumbers(feedback: str, language: Language) -> None:
    current, revision = revise(feedback, language)
    assert revision.understood
    assert [s.title for s in revision.plan] == [s.title for s in current if s.id != 3]
    assert [s.id for s in revision.plan] == list(range(1, len(current)))
    assert current[2].title in (revision.note or "")


def test_feedback_drops_several_steps_and_a_kind() -> None:
    current, revision = revise("drop steps 1 and 2")
    assert [s.title for s in revision.plan] == [s.title for s in current[2:]]
    _, no_correlation = revise("相関は不要")
    assert "correlation" not in kinds(no_correlation.plan)


@pytest.mark.parametrize(
    ("feedback", "language"), [("売上に絞って", "ja"), ("売上を中心に", "ja"), ("focus on 売上", "en")]
)
def test_feedback_focuses_on_a_column(feedback: str, language: Language) -> None:
    current, revision = revise(feedback, language)
    assert revision.understood
    plan = revision.plan
    assert plan[0].kind == "target" and plan[0].columns[0] == "売上"
    involved = [i for i, s in enumerate(plan) if "売上" in s.columns]
    assert involved == list(range(len(involved)))  # every step on 売上 comes before the others
    assert {s.title for s in plan[1:]} == {s.title for s in current}


def test_feedback_adds_a_kind_of_step() -> None:
    base = BRAIN.plan(view()).plan
    without = BRAIN.plan(view(plan=base, feedback="相関は不要")).plan
    for feedback, language in (("相関も見て", "ja"), ("add correlations", "en")):
        revision = BRAIN.plan(view(plan=without, feedback=feedback, language=language))
        assert revision.understood
        assert kinds(revision.plan) == [*kinds(without), "correlation"]
    outliers = BRAIN.plan(view(plan=base, feedback="数量の外れ値も見て"))
    assert outliers.plan[-1].kind == "outliers" and outliers.plan[-1].columns == ["数量"]


@pytest.mark.parametrize(
    ("feedback", "language", "says"),
    [
        ("顧客満足度を地域別に分析して", "ja", "顧客満足度"),
        ("いい感じにして", "ja", "ステップ3を削除"),
        ("drop step 12", "en", "no step 12"),
        ("add profit by region", "en", "profit"),
        ("make it better", "en", "drop step 3"),
    ],
)
def test_unclear_feedback_leaves_the_plan_unchanged_with_a_note(feedback: str, language: Language, says: str) -> None:
    current, revision = revise(feedback, language)
    assert not revision.understood
    assert revision.plan == current
    assert says in (revision.note or "")
    assert ("計画は変えていません" if language == "ja" else "unchanged") in (revision.note or "")


def test_a_trend_step_is_refused_without_a_date_column() -> None:
    frame = pd.DataFrame({"region": ["a", "b"] * 15, "price": np.arange(30.0)})
    the_view = EdaView(profile=profile_table(frame), source="x", language="en")
    plan = BRAIN.plan(the_view).plan
    revision = BRAIN.plan(the_view.model_copy(update={"plan": plan, "feedback": "add a trend"}))
    assert not revision.understood and "date column" in (revision.note or "")


# --- code and findings, for every kind -------------------------------------------------------


def step_of(kind: str, columns: list[str], step_id: int = 1) -> PlanStep:
    return PlanStep(id=step_id, title=f"{kind} test", kind=kind, columns=columns, rationale="test")  # type: ignore[arg-type]


def test_missing_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    stdout, finding = execute(step_of("missing", ["売上", "地域"]), view(), FRAME)
    assert "BUNSEKI_RESULT " in stdout
    missing = FRAME["売上"].isna().sum()
    assert f"売上 列で {missing / len(FRAME) * 100:.1f}%（{missing}件）" in finding.text
    assert f"欠損を含む行は全 {len(FRAME)} 行中 {FRAME[['売上', '地域']].isna().any(axis=1).sum()} 行" in finding.text
    assert finding.artifacts == ["eda_1_missing.png"]
    assert (tmp_path / "eda_1_missing.png").stat().st_size > 0


def test_distribution_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, finding = execute(step_of("distribution", ["売上", "数量"]), view(language="en"), FRAME)
    sales = FRAME["売上"].dropna()
    assert f"mean {sales.mean():,.2f}" in finding.text
    assert f"median {sales.median():,.0f}" in finding.text
    assert f"skewness {sales.skew():.2f}" in finding.text
    assert finding.success and finding.artifacts == ["eda_1_distribution.png"]


def test_categorical_frequencies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, finding = execute(step_of("categorical", ["地域", "channel"]), view(), FRAME)
    counts = FRAME["地域"].dropna().value_counts()
    top = counts.index[0]
    assert (
        f"地域 は 3 種類で、最多は「{top}」の {counts.iloc[0]}件（{counts.iloc[0] / len(FRAME) * 100:.1f}%）"
        in finding.text
    )


def test_categorical_breakdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, finding = execute(step_of("categorical", ["地域", "売上"]), view(), FRAME)
    means = FRAME.dropna(subset=["地域", "売上"]).groupby("地域")["売上"].mean().sort_values(ascending=False)
    assert f"「{means.index[0]}」が最大で {means.iloc[0]:,.2f}" in finding.text
    assert f"最小は「{means.index[-1]}」の {means.iloc[-1]:,.2f}" in finding.text


def test_correlation_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, finding = execute(step_of("correlation", ["売上", "数量", "広告費"]), view(language="en"), FRAME)
    pair = FRAME[["売上", "広告費"]].dropna()
    pearson = pair["売上"].corr(pair["広告費"])
    spearman = pair["売上"].corr(pair["広告費"], method="spearman")
    assert "between 売上 and 広告費" in finding.text
    assert f"Pearson {pearson:.2f}, Spearman {spearman:.2f} ({len(pair)} rows)" in finding.text


def test_outliers_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, finding = execute(step_of("outliers", ["売上"]), view(), FRAME)
    sales = FRAME["売上"].dropna()
    outside = iqr_outliers(sales)
    assert f"売上 は {outside}件（{outside / len(sales) * 100:.1f}%）" in finding.text
    assert "最も極端な値 9,000" in finding.text


def test_trend_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monthly_profile = profile_table(FRAME.assign(日付=pd.date_range("2023-01-01", periods=len(FRAME), freq="W")))
    frame = FRAME.assign(日付=pd.date_range("2023-01-01", periods=len(FRAME), freq="W"))
    the_view = view(profile=monthly_profile)
    step = BRAIN.plan(the_view).plan
    trend = next(s for s in step if s.kind == "trend")
    assert "月単位" in trend.title  # 90 weekly dates, coarsened to months
    _, finding = execute(trend, the_view, frame)
    monthly = frame.set_index("日付")["売上"].dropna().resample("MS").sum()
    assert f"{len(monthly)}期間" in finding.text
    # The last month holds three Sundays (the 1st, 8th and 15th): 70% of September, a partial period.
    whole = monthly.iloc[:-1]
    assert f"{whole.index.max().strftime('%Y-%m')} の {whole.iloc[-1]:,.0f}" in finding.text
    assert f"最大は {whole.idxmax().strftime('%Y-%m')} の {whole.max():,.0f}" in finding.text
    assert (
        "2024-09 はその月の 70% の期間しかデータがない一部の期間のため、変化と最大・最小の比較から除きました"
        in finding.text
    )


def test_a_last_week_with_one_day_is_a_partial_period_not_a_fall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # Weeks end on Mondays: Tuesday 2 January to Tuesday 5 March leaves a last week with one day.
    frame = pd.DataFrame({"日付": pd.date_range("2024-01-02", "2024-03-05", freq="D"), "売上金額": 100.0})
    the_view = EdaView(profile=profile_table(frame), source="x.csv", language="en")
    step = step_of("trend", ["日付", "売上金額"]).model_copy(update={"columns": ["日付", "売上金額"]})
    stdout, finding = execute(step, the_view, frame)
    result = json.loads(stdout.split(RESULT_MARKER)[-1].splitlines()[0])
    assert result["rule"] == "W-MON" and [label for label, _ in result["partial"]] == ["2024-03-11"]
    assert abs(result["partial"][0][1] - 1 / 7) < 1e-6
    assert result["first"] == ["2024-01-08", 700.0] and result["last"] == ["2024-03-04", 700.0]
    assert result["change_pct"] == 0 and result["min"][1] == 700.0  # not a fall to 100
    assert "2024-03-11 is a partial period (the data cover 14% of it)" in finding.text and "+0.0%" in finding.text
    assert "2024-03-11 *" in stdout  # the printed table marks it


def test_target_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    the_view = view(goal="売上に影響する要因")
    step = next(s for s in BRAIN.plan(the_view).plan if s.kind == "target")
    _, finding = execute(step, the_view, FRAME)
    pair = FRAME[["売上", "広告費"]].dropna()
    assert f"売上 と最も相関が強いのは 広告費（ピアソン {pair['売上'].corr(pair['広告費']):.2f}" in finding.text
    means = FRAME.dropna(subset=["売上"]).groupby("channel")["売上"].mean().sort_values(ascending=False)
    assert f"「{means.index[0]}」が {means.iloc[0]:,.2f} で最大" in finding.text


def test_custom_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, pair = execute(step_of("custom", ["数量", "広告費"]), view(language="en"), FRAME)
    assert f"Pearson {FRAME['数量'].corr(FRAME['広告費']):.2f}" in pair.text
    _, crosstab = execute(step_of("custom", ["地域", "channel"], 2), view(), FRAME)
    cells = pd.crosstab(FRAME["地域"], FRAME["channel"]).stack().sort_values(ascending=False, kind="stable")
    (a, b), count = cells.index[0], cells.iloc[0]
    assert f"「{a}」×「{b}」の {count}件" in crosstab.text
    _, overview = execute(step_of("custom", ["注文ID"], 3), view(), FRAME)
    assert f"{len(FRAME)}行、1列" in overview.text


def test_code_survives_dirty_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    dirty = FRAME.assign(売上=FRAME["売上"].astype(object))
    dirty.loc[0, "売上"] = "不明"
    _, finding = execute(step_of("distribution", ["売上"]), view(), dirty)
    assert finding.success
    assert f"平均 {pd.to_numeric(dirty['売上'], errors='coerce').mean():,.2f}" in finding.text


def test_a_retry_writes_more_defensive_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    step = step_of("distribution", ["売上", "数量", "広告費", "地域"])
    first = BRAIN.write_step_code(view(), step)
    retry = BRAIN.write_step_code(view(), step, "ValueError: could not convert string to float: '1,200円'")
    assert retry.code != first.code
    assert "# retry" in retry.code and "could not convert" in retry.code
    assert (
        retry.code
        == BRAIN.write_step_code(view(), step, "ValueError: could not convert string to float: '1,200円'").code
    )
    dirty = FRAME.assign(売上=FRAME["売上"].map(lambda v: f"{v:,.0f}円" if pd.notna(v) else None))
    _, finding = execute(step, view(), dirty, error="ValueError")
    assert f"売上: 平均 {FRAME['売上'].mean():,.2f}" in finding.text  # "1,000円" read as 1000
    assert "数量" in finding.text and "広告費" in finding.text


def test_failed_and_silent_outcomes_give_unsuccessful_findings() -> None:
    step = step_of("missing", ["売上"])
    failed = StepOutcome(step_id=1, code="x", success=False, error="KeyError: '売上'", attempts=2)
    finding = BRAIN.find(view(), step, failed)
    assert not finding.success and "KeyError" in finding.text and "2 回" in finding.text
    silent = StepOutcome(step_id=1, code="x", success=True, stdout="hello", artifacts=["a.png", "t.csv"])
    finding = BRAIN.find(view(language="en"), step, silent)
    assert not finding.success and "BUNSEKI_RESULT" in finding.text
    assert finding.artifacts == ["a.png"]


# --- the report ------------------------------------------------------------------------------


def test_report_from_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    the_view = view(goal="売上に影響する要因", problems=["売上に文字列が1件あります"])
    plan = BRAIN.plan(the_view).plan
    findings = [execute(s, the_view, FRAME)[1] for s in plan]
    findings.append(Finding(step_id=99, title="失敗", text="失敗しました。", success=False))
    report = BRAIN.write_report(the_view.model_copy(update={"plan": plan, "findings": findings}))
    assert report.language == "ja"
    assert "sales.csv" in report.title
    assert findings[0].text.split("。")[0] in report.conclusion
    assert "99" in report.conclusion
    texts = [s.content for s in report.sections if s.section_type == "text"]
    images = [s.content for s in report.sections if s.section_type == "image"]
    assert "売上に文字列が1件あります" in texts[0]
    assert all(any(f.text in t for t in texts) for f in findings)
    assert images == [a for f in findings for a in f.artifacts] and images
    assert report.suggestions and len(report.suggestions) <= 3
    english = BRAIN.write_report(view(language="en", findings=findings[:1], plan=plan))
    assert english.language == "en" and english.title.startswith("Exploratory analysis")


def test_a_goal_word_that_is_part_of_a_japanese_column_name_finds_it() -> None:
    frame = pd.DataFrame(
        {"地域": ["関東", "関西", "九州"] * 10, "売上金額": np.arange(30.0) * 1000, "客数": np.arange(30) % 9 + 1.0}
    )
    plan = BRAIN.plan(EdaView(profile=profile_table(frame), source="x.csv", goal="売上に影響する要因")).plan
    step = next(s for s in plan if s.kind == "target")
    assert step.columns[0] == "売上金額"


def test_a_trend_leaves_periods_without_rows_out_instead_of_counting_them_as_zero() -> None:
    frame = pd.DataFrame(
        {
            "日付": pd.to_datetime(["2024-01-10", "2024-01-11", "2024-03-10", "2024-03-11", "2024-05-10"] * 4),
            "売上金額": [100.0, 200.0, 300.0, 400.0, 500.0] * 4,
        }
    )
    step = step_of("trend", ["日付", "売上金額"])
    the_view = EdaView(profile=profile_table(frame), source="x.csv")
    code = BRAIN.write_step_code(the_view, step.model_copy(update={"columns": ["日付", "売上金額"]}))
    result = json.loads(run(code.code, frame).split(RESULT_MARKER)[-1].splitlines()[0])
    assert result["min"][1] > 0 and all(value > 0 for _, value in result["points"])


def test_booleans_are_written_in_the_reports_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    frame = pd.DataFrame({"雨": [True, False, True, None] * 5, "売上金額": np.arange(20.0)})
    _, finding = execute(step_of("categorical", ["雨"]), view(), frame)
    assert "「あり」の 10件" in finding.text and "False" not in finding.text and "True" not in finding.text
    _, english = execute(step_of("categorical", ["雨"]), view(language="en"), frame)
    assert "yes" in english.text and "True" not in english.text


def test_disagreeing_measures_are_reconciled_and_skew_and_outliers_read_with_and_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    x = np.arange(1.0, 41.0)
    frame = pd.DataFrame({"面積": x, "価格": np.where(x == 40, 1e6, x * 10)})  # one extreme price hides the relation
    _, correlation = execute(step_of("correlation", ["面積", "価格"]), view(), frame)
    pearson, spearman = frame["面積"].corr(frame["価格"]), frame["面積"].corr(frame["価格"], method="spearman")
    assert (
        f"ピアソン {pearson:.2f} とスピアマン {spearman:.2f} が食い違い、順位で見ると強い単調な関係" in correlation.text
    )
    assert "スピアマンを信頼してください" in correlation.text
    _, distribution = execute(step_of("distribution", ["価格"]), view(), frame)
    assert "価格 は強く歪んでいる" in distribution.text and "中央値 205" in distribution.text
    assert "分布は対数軸で示しました" in distribution.text
    _, outliers = execute(step_of("outliers", ["価格"]), view(language="en"), frame)
    without = frame["価格"][frame["価格"] < 1e6].mean()
    assert f"mean {frame['価格'].mean():,.0f} ({without:,.0f} without them)" in outliers.text


def test_a_strongly_skewed_measure_beyond_the_first_columns_still_gets_its_distribution() -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"n{i}": rng.normal(size=200) for i in range(8)} | {"amount": rng.lognormal(0, 2, 200)})
    plan = BRAIN.plan(EdaView(profile=profile_table(frame), source="x.csv")).plan
    distribution = next(s for s in plan if s.kind == "distribution")
    assert "amount" in distribution.columns and len(distribution.columns) == 6
