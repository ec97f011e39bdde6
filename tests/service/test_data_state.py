"""The data state on its own: steps change the current data, files let it survive restarts."""

from __future__ import annotations

import stat
from pathlib import Path

import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.sandbox.workspace import SNAPSHOTS, host_writes
from bunseki.state import CURRENT_META, RESET, RESTORE, AppliedStep, DataState

FRAME = pd.DataFrame(
    {"地域": ["関東", "近畿", "関東", "九州", "関東"], "売上": [100, 80, 150, 60, 90], "数量": [1, 2, 3, 4, 5]}
)


def forget_saved_copy(workspace: Path) -> None:
    with host_writes(workspace / SNAPSHOTS):
        (workspace / SNAPSHOTS / CURRENT_META).unlink()


KANTO = {"column": "地域", "operator": "eq", "value": "関東"}
BY_SALES = {"columns": ["売上"], "ascending": False}


def test_a_data_changing_tool_moves_the_current_data_and_keeps_the_original(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path, source="売上.csv")
    assert state.is_original
    assert state.describe("ja") == "元のデータ（5 行）"
    result = state.apply("filter_data", KANTO, position=1)
    assert result.changes_data
    assert state.current["地域"].tolist() == ["関東", "関東", "関東"]
    assert len(state.original) == 5 and not state.is_original
    assert state.position == 1
    assert state.describe("ja").startswith("加工後のデータ（3 行／元 5 行）")
    assert state.describe("en").startswith("transformed data (3 of 5 rows)")
    assert state.info.shape == (3, 3)  # the summary brains plan with follows the current data


def test_a_reading_tool_changes_nothing(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path)
    result = state.apply("value_counts", {"column": "地域"}, position=1)
    assert not result.changes_data and result.table is not None
    assert state.is_original and state.position == 0
    assert state.current is state.original


def test_bad_arguments_raise_a_retry_and_leave_the_data_alone(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path)
    with pytest.raises(ToolRetry, match="地域"):  # the message names the valid columns
        state.apply("filter_data", {"column": "region", "operator": "eq", "value": "関東"}, position=1)
    assert state.is_original and len(state.current) == 5


def test_reset_returns_to_the_original(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path)
    state.apply("filter_data", KANTO, position=1)
    state.reset(position=2)
    assert state.is_original and state.position == 2
    pd.testing.assert_frame_equal(state.current, FRAME)


def test_snapshots_are_read_only_files_that_restore_the_data(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path)
    state.apply("filter_data", KANTO, position=1)
    path = state.write_snapshot()
    assert path.startswith(f"{SNAPSHOTS}/") and path.endswith(".parquet")
    assert not (tmp_path / path).stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    state.reset(position=2)
    state.restore(state.read_snapshot(path), name="関東のみ", path=path, position=3)
    assert state.current["地域"].unique().tolist() == ["関東"]
    assert state.labels == ["snapshot 関東のみ"]
    assert "関東のみ" in state.describe("ja")


def test_the_recipe_rebuilds_the_current_data_from_the_original(tmp_path: Path) -> None:
    state = DataState(FRAME, tmp_path)
    state.apply("filter_data", KANTO, position=1)
    state.apply("sort_data", BY_SALES, position=2)
    cell = state.recipe_cell()
    assert cell is not None
    namespace: dict[str, object] = {"df": FRAME.copy(), "pd": pd}
    exec(cell, namespace)
    pd.testing.assert_frame_equal(namespace["df"], state.current)  # type: ignore[arg-type]
    assert state.current["売上"].tolist() == [150, 100, 90]


def test_the_saved_copy_is_used_after_a_restart_when_it_is_current(tmp_path: Path) -> None:
    before = DataState(FRAME, tmp_path)
    before.apply("filter_data", KANTO, position=1)
    steps = [AppliedStep(1, "filter_data", KANTO)]
    after = DataState(FRAME, tmp_path)
    after.rebuild(steps)
    pd.testing.assert_frame_equal(after.current, before.current)
    assert after.labels == before.labels and after.position == 1


def test_a_stale_or_missing_copy_is_replaced_by_replaying_the_steps(tmp_path: Path) -> None:
    DataState(FRAME, tmp_path).apply("filter_data", KANTO, position=1)
    # a crash after step 2 was recorded but before the copy was written: the copy says position 1
    steps = [AppliedStep(1, "filter_data", KANTO), AppliedStep(2, "sort_data", BY_SALES)]
    state = DataState(FRAME, tmp_path)
    state.rebuild(steps)
    assert state.position == 2
    assert state.current["売上"].tolist() == [150, 100, 90]
    forget_saved_copy(tmp_path)
    again = DataState(FRAME, tmp_path)
    again.rebuild(steps)
    pd.testing.assert_frame_equal(again.current, state.current)


def test_replay_starts_from_the_last_reset_or_restore(tmp_path: Path) -> None:
    first = DataState(FRAME, tmp_path)
    first.apply("filter_data", KANTO, position=1)
    snapshot = first.write_snapshot()
    steps = [
        AppliedStep(1, "filter_data", KANTO),
        AppliedStep(2, RESET, {}),
        AppliedStep(3, "filter_data", {"column": "売上", "operator": "lt", "value": 90}),
        AppliedStep(4, RESTORE, {"path": snapshot, "name": "関東"}),
        AppliedStep(5, "sort_data", BY_SALES),
        AppliedStep(6, "filter_data", {"column": "nope", "operator": "eq", "value": 1}),  # failed when it ran
    ]
    forget_saved_copy(tmp_path)
    state = DataState(FRAME, tmp_path)
    state.rebuild(steps)
    assert state.current["売上"].tolist() == [150, 100, 90]
    assert state.labels[0] == "snapshot 関東"
    assert state.position == 6

    reset_last = DataState(FRAME, tmp_path / "other")
    reset_last.rebuild(steps[:2])
    assert reset_last.is_original and reset_last.position == 2
