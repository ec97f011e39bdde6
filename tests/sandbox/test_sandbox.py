"""The sandbox as a person or an agent uses it: state, rollback, outputs, charts, restarts."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.domain import ExecutionResult
from bunseki.sandbox import Limits, Sandbox, add_data_file, epochs, new_workspace, remove_workspace
from bunseki.sandbox.inside import snapshot
from bunseki.sandbox.session import _terminate
from bunseki.sandbox.workspace import internal
from bunseki.settings import Settings
from tests.support import available_tiers, saved_cell, wait_until_saved


@pytest.fixture
def sandbox(settings: Settings) -> Iterator[Sandbox]:
    box = Sandbox(new_workspace(settings.workspace_root), settings=settings)
    with box:
        yield box


@pytest.fixture
def sales() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        {
            "日付": pd.date_range("2024-01-01", periods=400, freq="D"),
            "地域": rng.choice(["関東", "近畿", "九州"], 400),
            "売上": rng.integers(1000, 5000, 400),
        }
    )


def test_namespace_persists_between_cells(sandbox: Sandbox) -> None:
    assert sandbox.run("total = 40").success
    result = sandbox.run("total += 2\nprint(total)")
    assert result.success
    assert result.stdout == "42\n"
    assert result.cell == 2


def test_last_expression_is_shown_like_a_notebook(sandbox: Sandbox) -> None:
    result = sandbox.run("x = 6\nx * 7")
    assert result.stdout == "42\n"


def test_exception_rolls_back_the_whole_cell(sandbox: Sandbox) -> None:
    sandbox.run("items = [1, 2]")
    result = sandbox.run("items.append(3)\nlost = True\n1 / 0")
    assert not result.success
    assert result.error_type == "ZeroDivisionError"
    after = sandbox.run("print(items, 'lost' in globals())")
    assert after.stdout == "[1, 2] False\n"


def test_traceback_is_trimmed_to_the_cells_own_lines(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    result = sandbox.run("a = 1\ndf['存在しない列'].sum()")
    assert result.error is not None
    assert result.error.startswith("Traceback (most recent call last):\n")
    assert 'File "<cell>", line 2' in result.error
    assert "df['存在しない列'].sum()" in result.error
    assert "pandas/core" not in result.error
    assert result.error.rstrip().endswith("KeyError: '存在しない列'")


def test_dataframe_results_come_back_as_tables(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    result = sandbox.run("df.groupby('地域')['売上'].sum().sort_index()")
    assert result.success
    [table] = result.tables
    assert table.columns == ["売上"]
    assert table.index == ["九州", "近畿", "関東"]
    expected = sales.groupby("地域")["売上"].sum().sort_index().tolist()
    assert [row[0] for row in table.rows] == expected
    display = sandbox.run("display(df.head(3), 'note')")
    assert len(display.tables) == 1
    assert display.tables[0].shape == (3, 3)
    assert display.stdout.rstrip().endswith("note")


def test_open_figures_are_saved_and_japanese_renders(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    code = (
        "import seaborn as sns\n"
        "sns.set_theme()\n"  # resets the font family; Japanese must still render
        "ax = sns.barplot(data=df, x='地域', y='売上')\n"
        "ax.set_title('地域別の売上（円）')\n"
    )
    result = sandbox.run(code)
    assert result.success, result.error
    assert "Glyph" not in result.stderr
    [figure] = result.figures
    assert figure.is_file()
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert figure.parent == sandbox.workspace / "figures"


def test_figures_the_cell_saved_are_not_saved_twice(sandbox: Sandbox) -> None:
    result = sandbox.run("plt.plot([1, 2, 3])\nplt.title('推移')\nplt.savefig('推移.png')")
    assert result.success
    assert [path.name for path in result.artifacts] == ["推移.png"]
    assert "Glyph" not in result.stderr


def test_files_the_cell_writes_are_artifacts(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    result = sandbox.run("df.head(10).to_csv('先頭.csv', index=False)")
    assert result.artifacts == [sandbox.workspace / "先頭.csv"]
    assert pd.read_csv(sandbox.workspace / "先頭.csv").shape == (10, 3)
    unchanged = sandbox.run("x = 1")
    assert unchanged.artifacts == []


def test_files_the_host_writes_between_cells_are_not_the_next_cells(sandbox: Sandbox) -> None:
    assert sandbox.run("x = 1").success
    (sandbox.workspace / "report_001.md").write_text("# written by the service, not by a cell")
    result = sandbox.run("open('mine.txt', 'w').write('cell output')")
    assert result.artifacts == [sandbox.workspace / "mine.txt"]


def test_stdout_is_truncated_head_and_tail(settings: Settings) -> None:
    limits = Limits(output_bytes=2000)
    with Sandbox(new_workspace(settings.workspace_root), settings=settings, limits=limits) as box:
        result = box.run("for i in range(5000):\n    print(f'line {i}')")
    assert result.success
    assert result.stdout.startswith("line 0\n")
    assert result.stdout.rstrip().endswith("line 4999")
    assert "bytes of output omitted" in result.stdout
    assert len(result.stdout.encode()) < 2200


def test_load_frame_binds_df_and_survives_in_state(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    result = sandbox.run("print(len(df), df['売上'].sum(), df['日付'].dtype)")
    assert result.stdout.split() == ["400", str(sales["売上"].sum()), "datetime64[us]"]


def test_variables_lists_what_cells_defined(sandbox: Sandbox, sales: pd.DataFrame) -> None:
    sandbox.load_frame(sales)
    sandbox.run("summary = df.describe()\nn = 3")
    variables = sandbox.variables()
    assert variables["df"] == {"type": "DataFrame", "shape": [400, 3]}
    assert variables["summary"]["type"] == "DataFrame"
    assert variables["n"] == {"type": "int", "shape": None}
    assert "pd" not in variables


def test_worker_death_restarts_and_restores_the_last_state(sandbox: Sandbox) -> None:
    sandbox.run("kept = {'a': 1}")
    assert sandbox.run("kept['b'] = 2\nfunc = lambda: 1").cell == 2
    wait_until_saved(sandbox, 2)  # saves run beside the cells; the newest complete one is restored
    died = sandbox.run(
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)",
        check_policy=False,
    )
    assert not died.success
    assert died.restarted
    assert "restored" in (died.error or "")
    assert any("func" in note for note in died.notes)  # a lambda cannot be saved
    assert sandbox.restarts == 1
    after = sandbox.run("print(sorted(kept.items()))")
    assert after.stdout == "[('a', 1), ('b', 2)]\n"


def test_former_holders_exit_once_their_successor_has_forked(sandbox: Sandbox) -> None:
    """A holder that handed over waits only for the new holder's first fork, then exits."""
    for number in range(4):
        assert sandbox.run(f"step = {number}").success
    # The cell's process (the holder now) and its parent, the holder that handed over to it.
    parent = sandbox.run("import os\nprint(os.getppid())", check_policy=False)
    former = int(parent.stdout)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        after = sandbox.run(f"import os\nprint(os.path.exists('/proc/{former}'))", check_policy=False)
        if after.stdout == "False\n":
            break
        time.sleep(0.05)
    assert after.stdout == "False\n"
    assert sandbox.run("print(step)").stdout == "3\n"


def test_failing_cells_right_after_a_reload_roll_back_without_a_stall(sandbox: Sandbox, tmp_path: Path) -> None:
    """A failing cell right after a successful one whose process had library threads (Arrow's).

    The former holder was still exiting then, so a walk of /proc lost the failed cell's process
    and the holder waited on it until the time limit, which restarted the worker.
    """
    table = tmp_path / "t.parquet"
    pd.DataFrame({"a": range(6), "b": [1.0] * 6}).to_parquet(table)
    add_data_file(sandbox.workspace, table)
    load = "df = pd.read_parquet('data/t.parquet')"
    chart = "print(df['a'].mean())\ndf['a'].plot.hist()\nplt.savefig('c.png')\nplt.close('all')"
    for _ in range(3):
        for code in (load, chart, load, "raise ValueError('a')", load, "raise ValueError('b')"):
            result = sandbox.run(code, timeout=20)
            assert not result.restarted, result.error
            assert result.success == (not code.startswith("raise")), result.error
        assert sandbox.run("print(len(df))").stdout == "6\n"


def test_a_sandbox_killed_outright_restores_the_last_saved_cell(sandbox: Sandbox) -> None:
    sandbox.run("answer = 1")
    sandbox.run("answer += 1\nrows = [answer] * 3")
    wait_until_saved(sandbox, 2)
    assert sandbox._process is not None
    _terminate(sandbox._process, sandbox.isolation.tier)  # SIGKILL, the whole worker, anchor and all
    assert not sandbox.alive
    result = sandbox.run("print(answer, rows)")  # starts a new worker first
    assert sandbox.ready["restored_cell"] == 2
    assert result.stdout == "2 [2, 2, 2]\n"


def test_a_slow_save_neither_delays_the_next_cell_nor_replaces_a_newer_one(sandbox: Sandbox) -> None:
    release = sandbox.work_dir / "release"
    assert sandbox.run(
        "class Slow:\n"
        "    def __reduce__(self):  # pickling it lasts until the test releases it\n"
        "        import pathlib, time\n"
        "        deadline = time.monotonic() + 60\n"
        "        while not pathlib.Path('release').exists() and time.monotonic() < deadline:\n"
        "            time.sleep(0.02)\n"
        "        return (int, ())\n"
        "slow = Slow()"
    ).success
    for number in range(3):
        assert sandbox.run(f"step = {number}").success
    # The cells ran while the save of the first was still held up (the old design waited for each
    # save before the next cell): no save can have completed yet.
    assert saved_cell(sandbox) < 1
    release.touch()
    sandbox.run("del slow")
    wait_until_saved(sandbox, 5)
    sandbox.close()
    with Sandbox(sandbox.workspace, settings=sandbox.settings) as again:  # reads the snapshot
        assert again.ready["restored_cell"] == 5
        assert again.run("print(step, 'slow' in dir())").stdout == "2 False\n"


def test_a_new_sandbox_on_the_same_workspace_resumes_its_state(settings: Settings) -> None:
    workspace = new_workspace(settings.workspace_root)
    with Sandbox(workspace, settings=settings) as first:
        first.run("answer = 42")
    with Sandbox(workspace, settings=settings) as second:
        assert second.ready["restored_cell"] == 1
        assert second.run("print(answer)").stdout == "42\n"


def test_timeout_override_per_cell(sandbox: Sandbox) -> None:
    result = sandbox.run("import time\ntime.sleep(30)", timeout=1)
    assert not result.success
    assert result.limit == "wall_time"
    assert "1 s time limit" in (result.error or "")
    assert result.duration_s < 5


def test_interrupt_ends_the_cell_under_way_and_restores_the_last_saved_state(sandbox: Sandbox) -> None:
    assert sandbox.run("kept = 7").success
    wait_until_saved(sandbox, 1)
    idle = sandbox.pid
    assert not sandbox.interrupt()  # between cells there is nothing to stop
    assert sandbox.pid == idle
    outcome: list[ExecutionResult] = []
    cell = "kept = -1\nopen('started.txt', 'w').write('1')\nimport time\ntime.sleep(60)"
    running = threading.Thread(target=lambda: outcome.append(sandbox.run(cell, timeout=120)))
    running.start()
    deadline = time.monotonic() + 60  # a bound for a hang, not a timing check
    while not (sandbox.workspace / "started.txt").exists():
        assert time.monotonic() < deadline and running.is_alive(), "the cell never started"
        time.sleep(0.02)

    assert sandbox.interrupt()
    running.join(timeout=60)

    assert not running.is_alive(), "the interrupted cell kept running"
    [stopped] = outcome
    assert not stopped.success
    assert stopped.error_type == "Interrupted"
    assert stopped.restarted and stopped.limit is None
    assert sandbox.run("print(kept)").stdout == "7\n"  # nothing of the stopped cell was kept


def test_syntax_errors_are_reported_without_running(sandbox: Sandbox) -> None:
    result = sandbox.run("x = (1,\nprint(x)")
    assert not result.success
    assert result.error_type == "SyntaxError"
    assert "SyntaxError" in (result.error or "")
    assert result.cell is None


def test_policy_refuses_with_an_actionable_message(sandbox: Sandbox) -> None:
    result = sandbox.run("import requests\nrequests.get('http://example.com')")
    assert not result.success
    assert result.error_type == "PolicyViolation"
    assert "there is no network in the sandbox" in (result.error or "")
    assert result.cell is None


def test_data_directory_is_read_only_inside(sandbox: Sandbox, tmp_path: Path) -> None:
    from bunseki.sandbox import add_data_file

    source = tmp_path / "売上.csv"
    source.write_text("a,b\n1,2\n", encoding="utf-8")
    copy = add_data_file(sandbox.workspace, source)
    read = sandbox.run("print(open('data/売上.csv', encoding='utf-8').read())")
    assert read.stdout == "a,b\n1,2\n\n"
    write = sandbox.run("open('data/売上.csv', 'w').write('tampered')")
    assert not write.success
    assert copy.read_text(encoding="utf-8") == "a,b\n1,2\n"


def test_the_environment_inside_is_empty_of_our_secrets(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-0123456789")
    with Sandbox(new_workspace(settings.workspace_root), settings=settings) as box:
        result = box.run("import os, json\nprint(json.dumps(dict(os.environ)))", check_policy=False)
    environment = json.loads(result.stdout)
    assert "OPENAI_API_KEY" not in environment
    assert environment["OMP_NUM_THREADS"] == "1"
    assert os.environ["OPENAI_API_KEY"] not in result.stdout


def test_isolation_tier_is_reported_in_ready(sandbox: Sandbox) -> None:
    assert sandbox.ready["confinement"]["tier"] == sandbox.isolation.tier
    assert sandbox.isolation.tier in ("bwrap", "landlock")


def test_plot_objects_and_semicolons_are_not_echoed(sandbox: Sandbox) -> None:
    assert sandbox.run("plt.plot([1, 2])\nplt.title('推移')").stdout == ""
    assert sandbox.run("plt.plot([1, 2])").stdout == ""
    assert sandbox.run("x = 5\nx;").stdout == ""
    assert sandbox.run("[1, 2]").stdout == "[1, 2]\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the workspace to another user")
@pytest.mark.parametrize("tier", available_tiers())
def test_a_workspace_in_a_private_directory_works_on_every_tier(tier: str, tmp_path: Path) -> None:
    private = tmp_path / "home"  # like /root: mode 0700, out of the sandbox user's reach
    private.mkdir(mode=0o700)
    settings = Settings(workspace_root=private / "workspace", sandbox_isolation=tier, sandbox_timeout_s=20)  # type: ignore[arg-type]
    workspace = new_workspace(settings.workspace_root)
    source = private / "売上.csv"
    source.write_text("地域,売上\n関東,100\n近畿,80\n", encoding="utf-8")
    add_data_file(workspace, source)
    with Sandbox(workspace, settings=settings) as box:
        first = box.run(
            "import pandas as pd\nframe = pd.read_csv('data/売上.csv')\nframe.to_csv('out.csv')\nplt.plot([1, 2])"
        )
        assert first.success, first.error
        assert (workspace / "out.csv").read_text().startswith(",地域,売上")  # results come back to the workspace
        assert [path.parent.name for path in first.figures] == ["figures"]
        assert all(path.is_relative_to(workspace) and path.exists() for path in first.artifacts)
        wait_until_saved(box, 1)  # the state is saved in the background after the cell
        box._kill()  # the worker dies outright: the restart reloads the saved state
        again = box.run("print(frame['売上'].sum())")
        assert again.stdout == "180\n", again.error
    remove_workspace(workspace)
    assert not workspace.exists()


@pytest.mark.parametrize("tier", available_tiers())
def test_a_sandbox_of_an_epoch_saves_only_into_its_own_directory(tier: str, workspace_root: Path) -> None:
    settings = Settings(workspace_root=workspace_root, sandbox_isolation=tier, sandbox_timeout_s=20)  # type: ignore[arg-type]
    workspace = new_workspace(workspace_root)
    older = epochs.open_epoch(workspace, 1).directory
    assert snapshot.save({"x": 1}, set(), str(epochs.state_dir(older)), 1, 1) == []
    own = epochs.open_epoch(workspace, 2).directory
    with Sandbox(workspace, settings=settings, own_dir=own) as box:
        assert box.ready["restored"] == ["x"]
        box.load_frame(pd.DataFrame({"a": [1, 2]}))
        assert box.run("x = len(df) + 40").success
        state = str(epochs.state_dir(own))
        deadline = time.monotonic() + 20
        while snapshot.current_generation(state) < 0 or snapshot.load(state)[0].get("x") != 42:
            assert time.monotonic() < deadline, "the state after the cell was not saved in its epoch's directory"
            time.sleep(0.02)
        assert (own / "inputs" / "df.pkl").exists()
        assert snapshot.load(str(epochs.state_dir(older)))[0] == {"x": 1}  # the older epoch's is untouched
        assert not (internal(workspace, "state") / snapshot.CURRENT).exists()  # nor the default place
        overwrite = box.run("open('.bunseki/epochs/epoch-1/state/CURRENT', 'w').write('9')", check_policy=False)
        newer = box.run("import os\nos.mkdir('.bunseki/epochs/epoch-3')", check_policy=False)
        if tier == "bwrap":  # read-only there; Landlock cannot take a subtree out of the workspace
            for intrusion in (overwrite, newer):
                assert intrusion.error_type == "OSError" and "Read-only file system" in (intrusion.error or "")
            assert snapshot.current_generation(str(epochs.state_dir(older))) == 1
            assert epochs.existing(workspace).keys() == {1, 2}
        box._kill()  # a restart of the worker restores from its own directory
        assert box.run("print(x)").stdout == "42\n"
        charted = box.run("plt.plot([1, 2])")  # charts too go where no other epoch's instance writes
        assert [path.relative_to(workspace).parent for path in charted.figures] == [Path("figures/epoch-2")]


def test_a_sandbox_started_by_a_thread_that_ended_keeps_running(settings: Settings) -> None:
    # bwrap's --die-with-parent follows the thread that started it: a UI turn's worker thread, or a
    # web server's pool thread, ends long before the session does.
    import threading

    box = Sandbox(new_workspace(settings.workspace_root), settings=settings)
    try:
        starter = threading.Thread(target=lambda: box.run("kept = 41"))  # the first call starts the worker
        starter.start()
        starter.join()
        pid = box.pid
        time.sleep(0.5)  # a death signal, when sent, needs a moment to end the worker

        result = box.run("kept += 1\nprint(kept)")

        assert result.stdout == "42\n", result.error
        assert box.pid == pid and box.restarts == 0
    finally:
        box.close()


SLEEPING_FORK_BOMB = (
    "import os, time\nfor _ in range(1000):\n    try:\n        os.fork()\n    except OSError:\n        time.sleep(60)"
)


def test_a_neighbours_fork_bomb_leaves_this_session_running(settings: Settings) -> None:
    """Run as root, every sandbox is the same uid, whose process cap they all count against: a bomb
    next door is stopped at its allowance, and a holder that cannot fork meanwhile waits, not dies."""
    theirs = Sandbox(new_workspace(settings.workspace_root), settings=settings, limits=Limits(timeout_s=40, cpu_s=40))
    ours = Sandbox(new_workspace(settings.workspace_root), settings=settings, limits=Limits(timeout_s=10, cpu_s=1))
    bombs: list[ExecutionResult] = []
    with ours, theirs:
        assert ours.run("kept = 1").success
        assert theirs.run("x = 1").success
        bomb = threading.Thread(target=lambda: bombs.append(theirs.run(SLEEPING_FORK_BOMB, check_policy=False)))
        bomb.start()
        time.sleep(0.3)
        spun = ours.run("while True:\n    pass", check_policy=False)  # ends at its CPU limit: the holder forks anew
        after = ours.run("print(kept)")
        bomb.join()
    assert bombs[0].limit == "processes", bombs[0].error
    assert bombs[0].duration_s < 20
    assert spun.limit == "cpu_time"
    assert after.success and not after.restarted
    assert after.stdout == "1\n"
