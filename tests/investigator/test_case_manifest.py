"""Case manifests: parsed expectations, and every problem named before any work."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bunseki.errors import InputError
from bunseki.investigation.case import CaseError, load_case, parse_expected

SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "case.yaml"


def test_expected_text_in_japanese_and_english() -> None:
    ja = parse_expected("フレーム40-59でz=1")
    assert ja.ranges == ((40, 59),) and ja.column == "z" and ja.value == 1
    en = parse_expected("frames 10-20 and 50-60 have z=1")
    assert en.ranges == ((10, 20), (50, 60))
    assert en.frames()[:2] == [10, 11] and len(en.frames()) == 22


@pytest.mark.parametrize(
    ("text", "ranges", "column"),
    [
        ("フレーム40から59までz=1、それ以外は0", ((40, 59),), "z"),  # the rest of the frames, not frame 0
        ("フレーム40-59、70-79でalarm=1（それ以外は0）", ((40, 59), (70, 79)), "alarm"),
        ("frames 40-59 have z=1, otherwise z=0", ((40, 59),), "z"),
        ("z = 1 on frames [40, 59]", ((40, 59),), "z"),
        ("frames 40 through 59 have flag=1", ((40, 59),), "flag"),
        ("z should be 1 in frames 40-59 only", ((40, 59),), "z"),
        ("フレーム 40〜59 で z が 1", ((40, 59),), "z"),
        ("40-59フレーム目はbrake=1", ((40, 59),), "brake"),
    ],
)
def test_expected_text_as_people_write_it(text: str, ranges: tuple[tuple[int, int], ...], column: str) -> None:
    expectation = parse_expected(text)
    assert (expectation.ranges, expectation.column, expectation.value) == (ranges, column, 1)


@pytest.mark.parametrize("text", ["", "z=1", "frames 10-20", "frames 20-10 have z=1"])
def test_unparsable_expected_text(text: str) -> None:
    with pytest.raises(CaseError):
        parse_expected(text)


def test_sample_case_loads() -> None:
    case = load_case(SAMPLE)
    assert case.name == "hysteresis-detector"
    assert [d.name for d in case.datasets] == ["boundary", "clean"]
    assert case.entry_function == "detect" and case.env_codes


def _copy(tmp_path: Path, **changes: object) -> Path:
    raw = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    for path in SAMPLE.parent.iterdir():
        if path.is_file():
            (tmp_path / path.name).write_bytes(path.read_bytes())
    raw.update(changes)
    target = tmp_path / "case.yaml"
    target.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return target


def _dataset(**changes: str) -> list[dict[str, str]]:
    base = {
        "name": "boundary",
        "output_csv": "boundary_output.csv",
        "core_csv": "boundary_core.csv",
        "expected": "frames 22-29 have z=1",
    }
    return [{**base, **changes}]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"codes": ["missing.py"]}, "missing.py"),
        ({"specs": ["nope.md"]}, "nope.md"),
        ({"colour": "red"}, "colour"),
        ({"datasets": _dataset(output_csv="gone.csv")}, "gone.csv"),
        ({"datasets": _dataset(expected="something happens")}, "something happens"),
        ({"datasets": [{**_dataset()[0], "extra": 1}]}, "extra"),
        ({"entry": "detector.py"}, "entry"),
        ({"datasets": _dataset(expected="frames 1-2 have q=1")}, "'q'"),
    ],
)
def test_manifest_problems_are_named(tmp_path: Path, changes: dict[str, object], named: str) -> None:
    with pytest.raises(InputError, match=None) as caught:
        load_case(_copy(tmp_path, **changes))
    assert named in str(caught.value)


def test_unreadable_csv(tmp_path: Path) -> None:
    manifest = _copy(tmp_path)
    (tmp_path / "boundary_output.csv").write_bytes(b"")
    with pytest.raises(CaseError, match="not a readable CSV"):
        load_case(manifest)


def test_missing_manifest_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match="not a file"):
        load_case(tmp_path / "none.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed", encoding="utf-8")
    with pytest.raises(CaseError, match="YAML"):
        load_case(bad)


def test_two_different_files_of_one_name_are_refused(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    manifest = _copy(tmp_path, env_specs=["env/detector_spec.md"])
    (tmp_path / "env" / "detector_spec.md").write_text("# Another spec\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"two different files are named 'detector_spec\.md'"):
        load_case(manifest)
    listed_twice = _copy(tmp_path, env_specs=["detector_spec.md"])  # the same file twice is fine
    assert load_case(listed_twice).env_specs == load_case(listed_twice).specs


def _without_entry(tmp_path: Path, code: str, spec: str | None = None) -> Path:
    manifest = _copy(tmp_path)
    raw = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    raw.pop("entry", None)
    manifest.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    (tmp_path / "detector.py").write_text(code, encoding="utf-8")
    if spec is not None:
        (tmp_path / "detector_spec.md").write_text(spec, encoding="utf-8")
    return manifest


def test_without_entry_the_one_public_function_that_takes_a_table_runs(tmp_path: Path) -> None:
    code = (
        "LIMIT = 3\n\ndef _smooth(x):\n    return x\n\ndef report():\n    return 'none'\n\n"
        "def detect_braking(df, g=0.4):\n    return df\n"
    )
    case = load_case(_without_entry(tmp_path, code))
    assert (case.entry_file.name, case.entry_function) == ("detector.py", "detect_braking")


def test_without_entry_the_function_the_spec_names_is_chosen_among_several(tmp_path: Path) -> None:
    code = "def smooth(df):\n    return df\n\ndef flag_spikes(df):\n    return df\n"
    spec = "# Spike detector\n\n`flag_spikes(df)` marks every frame whose price jumps.\n"
    assert load_case(_without_entry(tmp_path, code, spec)).entry_function == "flag_spikes"


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("def smooth(df):\n    return df\n\ndef flag(df):\n    return df\n", "several public functions"),
        ("def _private(df):\n    return df\n\ndef main():\n    pass\n", "no public function that takes a table"),
        ("def detect(df:\n", "not valid Python"),
    ],
)
def test_without_entry_no_single_candidate_is_refused_with_what_to_write(tmp_path: Path, code: str, said: str) -> None:
    with pytest.raises(CaseError, match=said) as caught:
        load_case(_without_entry(tmp_path, code))
    assert "entry: detector.py:" in str(caught.value)
    if "several" in said:
        assert "smooth (detector.py)" in str(caught.value) and "flag (detector.py)" in str(caught.value)


def test_an_entry_naming_a_function_the_file_lacks_lists_what_it_defines(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match=r"defines no 'run' \(it defines: np, pd, detect\)"):
        load_case(_copy(tmp_path, entry="detector.py:run"))


def test_a_manifest_written_as_the_seed_writes_it_loads(tmp_path: Path) -> None:
    """The seed's input example: JSON with single quotes, no names, no entry, 「フレーム…にz=1」."""
    folder = tmp_path / "braking-case"
    folder.mkdir()
    _copy(folder)
    (folder / "case.yaml").unlink()
    manifest = folder / "case.json"
    manifest.write_text(
        "{'specs': ['detector_spec.md'], 'codes': ['detector.py'], 'env_specs': ['eval_spec.md'], "
        "'env_codes': ['eval_env.py'], 'datasets': [{'output_csv': 'boundary_output.csv', "
        "'core_csv': 'boundary_core.csv', 'expected': 'フレーム22-29と62-69にz=1'}, {'output_csv': "
        "'clean_output.csv', 'core_csv': 'clean_core.csv', 'expected': 'フレーム42-49にz=1'}]}",
        encoding="utf-8",
    )
    case = load_case(manifest)
    assert case.name == "braking-case" and case.entry_function == "detect"
    assert [d.name for d in case.datasets] == ["1_boundary_output", "2_clean_output"]
    assert case.datasets[0].expected.ranges == ((22, 29), (62, 69))


def test_the_column_that_numbers_the_frames_is_found_by_its_name(tmp_path: Path) -> None:
    manifest = _copy(tmp_path)
    for name in ("boundary_output.csv", "boundary_core.csv", "clean_output.csv", "clean_core.csv"):
        path = tmp_path / name
        path.write_text(path.read_text(encoding="utf-8").replace("frame,", "フレーム番号,", 1), encoding="utf-8")
    assert load_case(manifest).frame_column == "フレーム番号"
    (tmp_path / "clean_output.csv").write_text("t,x,z\n0,0.1,0\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"has no column 'フレーム番号' \(it has: t, x, z\); name the column"):
        load_case(manifest)
