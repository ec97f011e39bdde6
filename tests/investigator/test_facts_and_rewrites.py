"""What the specifications state, and the structural edits that hold the code against it."""

from __future__ import annotations

import pandas as pd

from bunseki.investigation.edits import apply, candidate_edits
from bunseki.investigation.facts import documented_values, ranges, read_facts
from bunseki.investigation.rewrites import structural_edits

ENV_JA = """# 評価環境

- IMU の出力レートは **50 Hz**（1フレーム = 20 ms）。
- 負荷は 0〜100 % の範囲にクリップしてから平均する。
- 欠損した測定値は直前の有効な値で補う。
- 移動窓はそのフレームを中心とする 11 フレームの窓。
"""

SPEC_EN = """A run counts when it lasts at least 0.2 s. The trailing window covers the previous 1,000 ms.
Vibration is judged on its magnitude (the absolute value), whatever its sign."""


def test_rates_durations_frames_ranges_and_words_are_read_in_both_languages() -> None:
    facts = read_facts({"env.md": ENV_JA, "spec.md": SPEC_EN})
    by_kind = {kind: [f for f in facts if f.kind == kind] for kind in {f.kind for f in facts}}
    assert [f.value for f in by_kind["rate"]] == [50.0]
    assert {f.value for f in by_kind["duration"]} == {0.02, 0.2, 1.0}  # 20 ms, 0.2 s, "1,000 ms"
    assert 11.0 in [f.value for f in by_kind["frames"]]
    assert ranges(facts) == [(0.0, 100.0)]
    assert {"centred", "trailing", "fill", "magnitude"} <= set(by_kind)
    assert by_kind["rate"][0].source == "env.md" and "50 Hz" in by_kind["rate"][0].text
    values = documented_values(facts)
    assert {50.0, 10.0, 200.0, 11.0, 100.0} <= set(values)  # 0.2 s × 50 Hz = 10 frames; 0.2 s = 200 ms


ALGORITHM = """import numpy as np

SAMPLE_HZ = 25  # 日本語のコメント


def detect(df, window=11):
    speed = df["speed"].fillna(0)
    level = df["load"].astype(float)
    mean = level.rolling(window, min_periods=1).mean()
    return (np.max(speed) > 3) & (mean > 90)
"""


def test_structural_edits_change_how_the_signal_is_computed_one_segment_each() -> None:
    edits = structural_edits(ALGORITHM, columns=["speed", "load", "load_smooth"], ranges=[(0.0, 100.0)])
    news = {(e.kind, e.new) for e in edits}
    assert ("window", "min_periods=1, center=True") in news
    assert ("window", "") in news  # min_periods removed
    assert {("reducer", "median"), ("reducer", "sum")} <= news
    assert {("fill", "ffill()"), ("fill", "interpolate()")} <= news
    assert ("wrap", 'abs(df["load"].astype(float))') in news
    assert ("wrap", '(df["load"].astype(float)).clip(0, 100)') in news
    assert ("column", '"load_smooth"') in news and ("column", '"speed"') in news
    for edit in edits:  # each applies where it was found, comments in Japanese and all
        edited = apply(ALGORITHM, edit)
        assert "# 日本語のコメント" in edited and edit.new in edited
    centred = next(e for e in edits if e.new.endswith("center=True"))
    assert "level.rolling(window, min_periods=1, center=True).mean()" in apply(ALGORITHM, centred)


def test_a_constant_can_take_a_documented_value_of_its_order_of_magnitude() -> None:
    news = {e.new for e in candidate_edits(ALGORITHM, int_values=(50.0, 10.0, 0.02, 5000.0)) if e.old == "25"}
    assert {"50", "10"} <= news and "5000" not in news and "0" not in news


def test_a_truncating_integer_cast_may_round_half_up_or_to_even() -> None:
    source = 'def alarm(df):\n    shown = df["temp"].astype(int)\n    return [int(v) for v in shown]\n'
    news = {e.new for e in structural_edits(source, columns=["temp"]) if e.kind == "dtype"}
    assert news == {
        '(((df["temp"])+0.5) // 1).astype(int)',
        '(df["temp"]).round().astype(int)',
        "int(((v)+0.5) // 1)",
        "round(v)",
    }
    flags = 'def flag(df):\n    return (df["temp"] > 3).astype(int)\n'  # a boolean made 0/1 truncates nothing
    assert not [e for e in structural_edits(flags, columns=["temp"]) if e.kind == "dtype"]
    half_up = next(e for e in structural_edits(source, columns=["temp"]) if e.new.startswith("((("))
    namespace: dict[str, object] = {}
    exec(apply(source, half_up), namespace)  # the test's own code
    assert namespace["alarm"](pd.DataFrame({"temp": [-15.7, -15.2, 2.5]})) == [-16, -15, 3]  # type: ignore[operator]
