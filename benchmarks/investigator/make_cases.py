"""(Re)create the investigator cases' CSVs and manifests, deterministically, and check them.

    python benchmarks/investigator/make_cases.py

For every case the inputs of each dataset are drawn from a seeded generator; `core_csv` is what
the correct code (`truth/fixed.py`) outputs, `output_csv` what the defective code outputs, and the
expected text is read off the core output. `truth/hidden.csv` (inputs and the reference flag, from
another seed) is for judging a claimed fix only. Checks: each expected text holds for the core
output; at least one dataset is consistent and one shows the defect; the hidden set tells the
defective code from the fixed one; the two codes differ in exactly the defect line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from investigator.casekit import CASES, expected_holds, flags, load_function, public_function, runs_text

Rng = np.random.Generator
Inputs = Callable[[str, Rng], pd.DataFrame]


@dataclass(frozen=True)
class Spec:
    name: str
    code: str
    spec: str
    env: str
    flag: str
    entry: bool
    inputs: Inputs
    datasets: tuple[tuple[str, str, int, str], ...]  # (name, scenario, seed, language of the expected text)
    hidden: tuple[str, int]


def _frame(n: int, **columns: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"frame": np.arange(n), **columns})


# --- the inputs of each case, by scenario -------------------------------------------------


def braking(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    accel = rng.normal(0.0, 0.4, n)
    lengths = {"long": [15, 22, 18], "short": [7, 14, 8], "hidden": [6, 12, 9]}[scenario]
    for k, length in enumerate(lengths):
        start = 40 + 90 * k + int(rng.integers(0, 20))
        accel[start : start + length] = rng.normal(-5.5, 0.3, length)
    return _frame(n, accel_x=accel.round(2))


def vibration(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    vel = np.abs(rng.normal(2.0, 0.4, n))
    bursts = {"quiet": [], "burst": [(100, 40)], "hidden": [(50, 30), (160, 25)]}[scenario]
    for start, length in bursts:
        vel[start : start + length] = np.abs(rng.normal(6.5, 0.5, length))
    return _frame(n, vel_mm_s=vel.round(3))


def clipping(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    t = np.arange(n)
    amplitude = np.full(n, 0.5)
    offset = np.zeros(n)
    lo, hi = {"positive": (80, 160), "symmetric": (100, 180), "hidden": (40, 200)}[scenario]
    if scenario == "positive":
        amplitude[lo:hi], offset[lo:hi] = 0.9, 0.35
    else:
        amplitude[lo:hi] = 1.3
    x = amplitude * np.sin(2 * np.pi * t / 40) + offset + rng.normal(0, 0.01, n)
    return _frame(n, sample=np.clip(x, -1.0, 1.0).round(4))


def prices(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    price = 1000 * np.exp(np.cumsum(rng.normal(0, 0.0005, n)))
    moves = {
        "news": [(120, 1.04), (220, 0.965)],
        "fat_finger": [(150, 1.6)],
        "hidden": [(100, 0.5), (200, 1.5)],
    }[scenario]
    for at, factor in moves:
        price[at] *= factor
    return _frame(n, price=price.round(1))


def cpu(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    load = rng.integers(25, 65, n)
    if scenario == "clean":
        load[60:82] = rng.integers(96, 101, 22)
        load[150:153] = 97  # a short burst, not a saturation
    else:
        load[100:118] = rng.choice([95, 95, 96, 97], 18)
        load[170:182] = 95
        if scenario == "hidden":
            load[30:40] = rng.choice([95, 98], 10)
    return _frame(n, cpu_pct=load)


def heart_rate(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    hr = np.clip(rng.normal(80, 4, n), 60, 95)
    lengths = {"long": [15, 25], "exact": [8, 20], "hidden": [8, 12, 8]}[scenario]
    for k, length in enumerate(lengths):
        start = 40 + 90 * k
        hr[start : start + length] = rng.normal(118, 5, length).clip(105, 140)
    return _frame(n, hr_bpm=hr.round(0))


def spo2(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    sat = np.clip(rng.normal(97.5, 0.8, n), 92, 100).round(0)
    sat[100:125] = rng.normal(86.5, 1.0, 25).round(0)
    if scenario == "dropout":
        sat[200:215] = np.nan
        sat[50:54] = np.nan
    elif scenario == "dropout_in_event":
        sat[108:116] = np.nan
    elif scenario == "hidden":
        sat[30:42] = np.nan
        sat[250:270] = np.nan
    return _frame(n, spo2=sat)


def freezer(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    temp = rng.normal(-20.0, 0.4, n)
    starts = [50, 150] if scenario == "door" else [40, 140]
    for start in starts:
        if scenario == "door":  # the door stands open: a step, no values on the way
            temp[start : start + 15] = rng.normal(-12.5, 0.4, 15)
        else:  # a defrost cycle ramps up and back down
            ramp = np.concatenate([np.linspace(-20, -13, 20), np.linspace(-13, -20, 20)])
            temp[start : start + 40] = ramp + rng.normal(0, 0.15, 40)
    return _frame(n, temp_c=temp.round(2))


def gps(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    speed = rng.normal(30, 5, n).clip(12, 60)
    stops = {"clean": [(60, 45), (180, 60)], "traffic": [(60, 45)], "hidden": [(200, 50)]}[scenario]
    for start, length in stops:
        speed[start : start + length] = np.abs(rng.normal(0, 0.15, length))
        speed[start - 2 : start] = [12.0, 4.0]
        speed[start + length : start + length + 2] = [3.0, 9.0]
    if scenario in ("traffic", "hidden"):  # crawling in a jam, about 1 km/h
        at = 170 if scenario == "traffic" else 60
        speed[at : at + 45] = rng.uniform(0.8, 1.6, 45)
    return _frame(n, speed_kmh=speed.round(1))


def grid(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    freq = 50.0 + rng.normal(0, 0.02, n)
    steps = {"trip": [(80, 20, -0.35), (200, 20, 0.3)], "small": [(120, 25, -0.225)], "hidden": [(60, 30, 0.225)]}
    for start, length, step in steps[scenario]:
        freq[start : start + length] = 50.0 + step + rng.normal(0, 0.006, length)
    return _frame(n, freq_hz=freq.round(3))


def pm25(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    level = np.full(n, 15.0)
    if scenario == "clean":
        level[120:200] = 60.0
    else:  # the analyser restarted in the middle of a smog episode
        high = 55.0 if scenario == "restart" else 70.0
        level[:40] = high
        level[40:70] = np.linspace(high, 15.0, 30)
    return _frame(n, pm25=(level + rng.normal(0, 3, n)).clip(0).round(1))


def river(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 200
    t = np.arange(n)
    smooth = 2.0 + 1.5 * np.exp(-(((t - 100) / 22.0) ** 2))
    raw = smooth.round(2)
    if scenario == "calm":
        for at in (20, 45, 160):  # small waves while the river is low
            raw[at] += 0.3
    else:
        low = np.flatnonzero((smooth > 2.5) & (smooth < 2.85))
        for at in rng.choice(low, 4, replace=False):
            raw[at] += 0.6
    raw = raw.round(2)
    smoothed = pd.Series(raw).rolling(5, center=True, min_periods=1).median().round(2).to_numpy()
    return _frame(n, level_raw_m=raw, level_m=smoothed)


def spindle(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    load = rng.normal(50, 5, n)
    load[100:130] = rng.normal(95, 2, 30).clip(0, 100)
    if scenario == "clean":
        load[60:63] = -2.0  # after a tool change
    else:
        load[160:200] = rng.normal(80, 2, 40)
        for at in (170, 190) if scenario == "artefact" else (165, 185, 30):
            load[at] = 255.0
    return _frame(n, load_pct=load.round(1))


def ph(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 240
    value = rng.normal(7.2, 0.1, n)
    if scenario == "clean":
        value[60:75] = rng.normal(6.2, 0.05, 15)
        value[150:165] = rng.normal(8.9, 0.05, 15)
    elif scenario == "drift":
        value[100:130] = rng.uniform(6.455, 6.49, 30)
    else:
        value[50:80] = rng.uniform(8.51, 8.545, 30)
        value[150:160] = rng.normal(6.1, 0.05, 10)
    return _frame(n, ph=value.round(3))


def telemetry(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    step = rng.integers(92, 109, n)
    if scenario == "clean":
        step[80], step[210] = 3000, 2200
    else:
        lo, hi = (100, 160) if scenario == "power_save" else (20, 90)
        step[lo:hi] = rng.integers(190, 211, hi - lo)
        step[250] = 4000
    step[0] = 0
    return _frame(n, t_ms=np.cumsum(step))


def falls(scenario: str, rng: Rng) -> pd.DataFrame:
    n = 300
    ax, ay, az = rng.normal(0, 0.3, n), rng.normal(0, 0.3, n), rng.normal(9.81, 0.3, n)
    events = {"drop": [(80, 25, 0.05)], "partial": [(120, 20, 0.9)], "hidden": [(60, 15, 1.5), (200, 20, 0.05)]}
    for start, length, spread in events[scenario]:
        for axis in (ax, ay, az):
            axis[start : start + length] = rng.normal(0, spread, length)
        az[start + length : start + length + 3] = 30.0  # the impact
    return _frame(n, ax=ax.round(3), ay=ay.round(3), az=az.round(3))


SPECS = {
    "i01": Spec(
        "hard-braking",
        "braking.py",
        "braking_spec.md",
        "drive_recorder_env.md",
        "brake",
        False,
        braking,
        (("city", "long", 11, "en"), ("bumpy_road", "short", 12, "ja")),
        ("hidden", 13),
    ),
    "i02": Spec(
        "vibration-alarm",
        "vibration.py",
        "vibration_spec.md",
        "test_bench.md",
        "alarm",
        True,
        vibration,
        (("idle", "quiet", 21, "en"), ("bearing_fault", "burst", 22, "en")),
        ("hidden", 23),
    ),
    "i03": Spec(
        "audio-clipping",
        "clipping.py",
        "clipping_spec.md",
        "audio_env.md",
        "clip",
        True,
        clipping,
        (("dc_offset", "positive", 31, "ja"), ("loud_take", "symmetric", 32, "ja")),
        ("hidden", 33),
    ),
    "i04": Spec(
        "tick-spikes",
        "spikes.py",
        "spike_spec.md",
        "tick_env.md",
        "spike",
        False,
        prices,
        (("news_day", "news", 41, "en"), ("bad_print", "fat_finger", 42, "en"), ("quiet_session", "news", 44, "ja")),
        ("hidden", 43),
    ),
    "i05": Spec(
        "cpu-saturation",
        "cpu_saturation.py",
        "cpu_saturation_spec.md",
        "metrics_env.md",
        "saturated",
        False,
        cpu,
        (("batch_job", "clean", 51, "en"), ("throttled", "quota", 52, "en")),
        ("hidden", 53),
    ),
    "i06": Spec(
        "tachycardia",
        "hr_alarm.py",
        "tachycardia_spec.md",
        "monitor_env.md",
        "tachy",
        True,
        heart_rate,
        (("exercise", "long", 61, "ja"), ("short_episode", "exact", 62, "ja")),
        ("hidden", 63),
    ),
    "i07": Spec(
        "spo2-desaturation",
        "spo2.py",
        "desaturation_spec.md",
        "oximeter_env.md",
        "desat",
        True,
        spo2,
        (("night1", "clean", 71, "ja"), ("probe_off", "dropout", 72, "ja"), ("motion", "dropout_in_event", 74, "en")),
        ("hidden", 73),
    ),
    "i08": Spec(
        "freezer-alarm",
        "freezer.py",
        "freezer_alarm_spec.md",
        "warehouse_env.md",
        "alarm",
        False,
        freezer,
        (("door_open", "door", 81, "ja"), ("defrost", "defrost", 82, "ja")),
        ("hidden", 83),
    ),
    "i09": Spec(
        "gps-stops",
        "gps_stops.py",
        "stop_detection_spec.md",
        "gps_logger_env.md",
        "stop",
        False,
        gps,
        (("deliveries", "clean", 91, "ja"), ("jam", "traffic", 92, "en")),
        ("hidden", 93),
    ),
    "i10": Spec(
        "grid-frequency",
        "grid.py",
        "frequency_spec.md",
        "pmu_env.md",
        "flag",
        True,
        grid,
        (("trip", "trip", 101, "en"), ("small_excursion", "small", 102, "en")),
        ("hidden", 103),
    ),
    "i11": Spec(
        "pm25-alarm",
        "air.py",
        "pm25_spec.md",
        "station_env.md",
        "pm_alarm",
        True,
        pm25,
        (("episode", "clean", 111, "en"), ("restart_in_smog", "restart", 112, "en")),
        ("hidden", 113),
    ),
    "i12": Spec(
        "flood-warning",
        "river_level.py",
        "flood_warning_spec.md",
        "gauge_env.md",
        "flood",
        False,
        river,
        (("calm_flood", "calm", 121, "ja"), ("windy_flood", "waves", 122, "ja")),
        ("hidden", 123),
    ),
    "i13": Spec(
        "spindle-overload",
        "spindle.py",
        "spindle_overload_spec.md",
        "cnc_env.md",
        "overload",
        False,
        spindle,
        (("roughing", "clean", 131, "en"), ("register_glitch", "artefact", 132, "ja")),
        ("hidden", 133),
    ),
    "i14": Spec(
        "effluent-ph",
        "ph.py",
        "ph_monitor_spec.md",
        "effluent_env.md",
        "z",
        True,
        ph,
        (("acid_dump", "clean", 141, "ja"), ("slow_drift", "drift", 142, "ja")),
        ("hidden", 143),
    ),
    "i15": Spec(
        "telemetry-gaps",
        "telemetry.py",
        "gap_spec.md",
        "telemetry_env.md",
        "gap",
        True,
        telemetry,
        (("outages", "clean", 151, "en"), ("power_save", "power_save", 152, "en")),
        ("hidden", 153),
    ),
    "i16": Spec(
        "fall-detection",
        "fall_detect.py",
        "fall_spec.md",
        "wearable_env.md",
        "fall",
        False,
        falls,
        (("drop_test", "drop", 161, "en"), ("strap_slip", "partial", 162, "ja")),
        ("hidden", 163),
    ),
}


def make(case_id: str, spec: Spec) -> list[str]:
    """Write one case's CSVs and manifest; returns the problems found (none when it is sound)."""
    root = CASES / case_id
    code_path, fixed_path = root / spec.code, root / "truth" / "fixed.py"
    code, fixed = code_path.read_text(encoding="utf-8"), fixed_path.read_text(encoding="utf-8")
    function = public_function(code)
    defective_fn, fixed_fn = load_function(code_path, function), load_function(fixed_path, function)
    problems: list[str] = []
    facts = yaml.safe_load((root / "truth" / "truth.yaml").read_text(encoding="utf-8"))
    changed = [(a, b) for a, b in zip(code.splitlines(), fixed.splitlines(), strict=True) if a != b]
    if len(code.splitlines()) != len(fixed.splitlines()) or len(changed) != 1:
        problems.append("the defective and fixed code must differ in exactly one line")
    elif changed[0][0].strip() != facts["defect_line"]:
        problems.append(f"truth.yaml defect_line {facts['defect_line']!r} is not the changed line")
    datasets, consistent, shown = [], 0, 0
    for name, scenario, seed, language in spec.datasets:
        inputs = spec.inputs(scenario, np.random.default_rng(seed))
        core = inputs.assign(**{spec.flag: flags(fixed_fn(inputs.copy()), spec.flag)})
        output = inputs.assign(**{spec.flag: flags(defective_fn(inputs.copy()), spec.flag)})
        core.to_csv(root / f"{name}_core.csv", index=False)
        output.to_csv(root / f"{name}_output.csv", index=False)
        frames = core["frame"].to_numpy()
        text = runs_text(frames, core[spec.flag].to_numpy(), spec.flag, language)
        if not expected_holds(text, frames, core[spec.flag].to_numpy()):
            problems.append(f"{name}: the expected text does not hold for the core output")
        same = bool((core[spec.flag] == output[spec.flag]).all())
        consistent, shown = consistent + same, shown + (not same)
        datasets.append(
            {"name": name, "output_csv": f"{name}_output.csv", "core_csv": f"{name}_core.csv", "expected": text}
        )
    if not consistent or not shown:
        problems.append(f"{consistent} consistent and {shown} inconsistent datasets; need at least one of each")
    scenario, seed = spec.hidden
    inputs = spec.inputs(scenario, np.random.default_rng(seed))
    reference = flags(fixed_fn(inputs.copy()), spec.flag)
    if (flags(defective_fn(inputs.copy()), spec.flag) == reference).all():
        problems.append("truth/hidden.csv does not tell the defective code from the fixed one")
    inputs.assign(**{spec.flag: reference}).to_csv(root / "truth" / "hidden.csv", index=False)
    manifest: dict[str, object] = {
        "name": f"{case_id}-{spec.name}",
        "specs": [spec.spec],
        "codes": [spec.code],
        "env_specs": [spec.env],
        "env_codes": ["eval_env.py"],
    }
    if spec.entry:
        manifest["entry"] = f"{spec.code}:{function}"
    manifest["datasets"] = datasets
    text = yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False)
    (root / "case.yaml").write_text(text, encoding="utf-8")
    return problems


def main() -> int:
    failed = 0
    for case_id, spec in SPECS.items():
        problems = make(case_id, spec)
        failed += bool(problems)
        print(f"{case_id} {spec.name}: " + ("ok" if not problems else "; ".join(problems)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
