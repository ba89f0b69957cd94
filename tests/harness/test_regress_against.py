"""``cgpm regress --against REV`` runs both sides of each repetition one right after the other, each in its own checkout's code, and the gate fails on a planted slowdown measured that way and passes an unchanged checkout.

No timing is judged: the two checkouts of the gate's tests are small git repositories whose ``harness`` package has
only a ``run_task`` that returns figures as data (a cost per engine, times a load per round that both sides share,
times 1% jitter), started as the real runner starts any checkout (a new ``python`` in its directory), so the
checkout's own code is shown to be the one that ran. The last test runs the real code of this repository's HEAD in a
worktree beside the working tree, on scan cells only (the reference, never gated), and checks the records it leaves.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from common.errors import ConfigError
from harness.bench import history, store
from harness.bench.against import run_checkouts
from harness.bench.checkout_runner import CheckoutRunner
from harness.bench.checkouts import resolve
from harness.bench.config import config_from_table
from harness.bench.execute import Side, run_sides
from harness.bench.matrix import Cell
from harness.bench.task import CellTask
from harness.cli import main

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"
ENGINES = ["scan", "reeval", "spectra"]

FAKE_CELL = '''
"""run_task of a fake checkout: figures as data, never timed."""
import hashlib

SIDE, SLOWER = {side!r}, {slower!r}
COST_US = {{"scan": 20.0, "reeval": 120.0, "spectra": 60.0}}
ROUND_LOAD = (1.0, 1.4, 0.8, 1.7, 1.1)  # the machine in each round: both sides of a repetition meet the same


def run_task(task):
    cell, repetition = task["cell"], task["repetition"]
    digest = hashlib.sha256(f"{{task['cell_id']}} {{repetition}} {{SIDE}}".encode()).digest()
    jitter = 1 + (digest[0] / 255 - 0.5) / 50
    per_event = COST_US[cell["engine"]] * SLOWER.get(cell["engine"], 1.0) * ROUND_LOAD[repetition] * jitter
    cpu = per_event * 41 / 1e6
    row = {{"status": "ok", "error": "", "cpu_s": cpu, "wall_s": cpu, "events": 41, "triples": 80, "side": SIDE,
            "hashed": hash("cgpm")}}
    return {{"row": row, "rss": [], "latency_ns": None}}
'''


def fake_checkout(directory: Path, side: str, slower: dict | None = None) -> Path:
    """A git repository whose ``harness.bench.cell.run_task`` is ``FAKE_CELL``'s."""
    (directory / "harness" / "bench").mkdir(parents=True)
    (directory / "harness" / "__init__.py").write_text("")
    (directory / "harness" / "bench" / "__init__.py").write_text("")
    (directory / "harness" / "bench" / "cell.py").write_text(FAKE_CELL.format(side=side, slower=slower or {}))
    git = ["git", "-C", str(directory), "-c", "user.name=test", "-c", "user.email=test@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", side], check=True)
    return directory


def config(**changes):
    return config_from_table(
        {
            "name": "against",
            "engines": ENGINES,
            "repetitions": 5,
            "min_time_s": 0,
            "runner": "process",
            "verify": "none",
            "workloads": [
                {
                    "stream": str(EXAMPLE),
                    "queries": [str(EXAMPLE / "queries" / "chain.rq")],
                    "windows": ["sliding:5s:1s"],
                }
            ],
            **changes,
        }
    )


class Recording:
    """A runner in this process that keeps the order of the tasks it was given and answers with fixed figures."""

    name, description = "recording", "in the test's process"

    def __init__(self, side: str, log: list) -> None:
        self.side, self.log = side, log

    def run(self, task: CellTask) -> dict:
        self.log.append((self.side, task.cell_id, task.repetition))
        return {
            "row": {"status": "ok", "error": "", "cpu_s": 0.01, "wall_s": 0.01, "events": 41},
            "rss": [],
            "latency_ns": None,
        }


def test_the_side_that_goes_first_alternates_from_cell_to_cell_and_round_to_round(tmp_path):
    log: list = []
    sides = [
        Side(tmp_path / "base", Recording("base", log), {"commit": "b" * 40, "dirty": False}),
        Side(tmp_path / "this", Recording("this", log)),
    ]
    run_sides(config(repetitions=3), sides, show_progress=False)
    cells = sorted({cell_id for _, cell_id, _ in log}, key=[cell_id for _, cell_id, _ in log].index)
    assert len(log) == 2 * 3 * len(cells) == 18
    for start in range(0, len(log), 2):  # each repetition of a cell on both sides, one right after the other
        (first, cell, repetition), (second, other, again) = log[start], log[start + 1]
        assert (cell, repetition) == (other, again) and {first, second} == {"base", "this"}
        assert first == ("base" if (cells.index(cell) + repetition) % 2 == 0 else "this")
    assert store.read_run_info(tmp_path / "base")["git"]["commit"] == "b" * 40
    with pytest.raises(ConfigError, match="parallel = 1"):
        run_sides(config(parallel=2), [Side(tmp_path / "a"), Side(tmp_path / "b")], show_progress=False)


def _compared(tmp_path, capsys, slower: dict | None) -> tuple[int, str]:
    base = fake_checkout(tmp_path / "base-code", "base")
    this = fake_checkout(tmp_path / "this-code", "this", slower)
    out = tmp_path / "runs" / "ab"
    base_dir, this_dir = run_checkouts(config(), out, base, this, core=None, show_progress=False)
    for directory, side in ((base_dir, "base"), (this_dir, "this")):  # each side's own code ran, in its own process
        frame = store.load_results(directory)
        assert set(frame["side"]) == {side} and len(frame) == 15
    capsys.readouterr()
    code = main(["regress", "--run", str(out), "--check", "--results", str(tmp_path / "results")])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_planted_fifteen_percent_slowdown_measured_side_by_side_fails_the_gate_naming_only_its_engine(
    tmp_path, capsys
):
    code, text = _compared(tmp_path, capsys, {"reeval": 1.15})
    assert code == 1, text
    flagged = [line for line in text.splitlines() if line.startswith("REGRESSION")]
    assert len(flagged) == 1 and " reeval " in flagged[0] and "x1.1" in flagged[0], text
    frame = history.read_history(tmp_path / "results" / "history" / "against.csv")
    points = history.points(frame)  # both records, REV's first: the history's step goes from it to this one
    assert list(points["run_id"]) == ["ab-base", "ab-this"] and points["commit"].nunique() == 2
    assert "against" in next(line for line in text.splitlines() if line.startswith("gate:"))


def test_an_unchanged_checkout_measured_side_by_side_passes_whatever_the_load_of_each_round(tmp_path, capsys):
    code, text = _compared(tmp_path, capsys, None)
    assert code == 0, text
    base, this = (store.load_results(tmp_path / "runs" / "ab" / side) for side in ("base", "this"))
    hashed = base.groupby("repetition")["hashed"].agg(set)  # one seed a round, the same on both sides
    assert hashed.map(len).eq(1).all() and hashed.equals(this.groupby("repetition")["hashed"].agg(set))
    assert hashed.map(min).nunique() == 5
    assert "3 tested cell(s): 3 same" in text and not any(line.startswith("REGRESSION") for line in text.splitlines())


BROKEN_CELL = """
import os, time


def run_task(task):
    engine = task["cell"]["engine"]
    if engine == "sleeps":
        time.sleep(600)
    if engine == "exits":
        os._exit(3)
    raise ValueError("the cell broke")
"""


def test_a_task_past_its_deadline_is_killed_and_a_dead_or_broken_one_is_an_error_with_its_reason(tmp_path):
    checkout = fake_checkout(tmp_path / "code", "broken")
    (checkout / "harness" / "bench" / "cell.py").write_text(BROKEN_CELL)
    runner = CheckoutRunner(checkout)
    try:

        def run(engine: str, deadline_s: float = 60) -> dict:
            cell = Cell(engine=engine, dataset="fake", scale=None, event_shape="x", query="q", window="w",
                        entailment="none", max_events=0, stream_dir="", query_path="")
            return runner.run(CellTask(kind="time", cell=cell, repetition=0), deadline_s)["row"]

        assert run("sleeps", deadline_s=0.5)["status"] == "timeout"
        assert run("exits") == {"status": "error", "error": "the cell process exited with code 3 without a result"}
        broken = run("raises")
        assert broken["status"] == "error" and broken["error"].endswith("ValueError: the cell broke")
    finally:
        runner.close()


def test_a_revision_the_clone_lacks_is_one_line_and_exit_2_and_a_shallow_clone_says_so(tmp_path, capsys):
    assert main(["regress", "--against", "no-such-revision-0123", "--results", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no-such-revision-0123" in err and len(err.splitlines()) == 1
    origin = fake_checkout(tmp_path / "origin", "one")
    (origin / "second").write_text("")
    subprocess.run(
        ["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@example.org", "add", "."], check=True
    )
    subprocess.run(
        ["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "two"],
        check=True,
    )
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(shallow)], check=True)
    assert len(resolve("HEAD", shallow)) == 40
    with pytest.raises(ConfigError, match="shallow"):
        resolve("HEAD^1", shallow)
    assert main(["regress", "--core", "0", "--results", str(tmp_path / "results")]) == 2
    assert "--core" in capsys.readouterr().err


@pytest.mark.slow
def test_the_command_runs_head_in_a_worktree_beside_this_checkout_and_records_both(tmp_path, capsys):
    """Real code on both sides, a scan cell (whose ratio to itself is 1 whatever the timings), 2 repetitions a side:
    too few to test, so no timing decides anything; about 10 s of CPU in all."""
    suite = tmp_path / "scan.toml"
    suite.write_text(
        textwrap.dedent(f"""
        name = "against-scan"
        engines = ["scan"]
        repetitions = 2
        min_time_s = 0
        verify = "none"
        runner = "process"
        [[workloads]]
        stream = "{EXAMPLE}"
        queries = ["{EXAMPLE / "queries" / "chain.rq"}"]
        windows = ["sliding:5s:1s"]
    """)
    )
    out, results = tmp_path / "ab", tmp_path / "results"
    assert (
        main(["regress", str(suite), "--against", "HEAD", "--check", "--out", str(out), "--results", str(results)]) == 0
    )
    text = capsys.readouterr().out
    head = resolve("HEAD", REPOSITORY)
    for side, run_id in (("base", "ab-base"), ("this", "ab-this")):
        info = json.loads((out / side / store.RUN_FILE).read_text())
        assert info["status"] == "complete" and info["run_id"] == run_id and info["git"]["commit"] == head
        assert info["runner"]["name"] == "checkout"
    base_runner = json.loads((out / "base" / store.RUN_FILE).read_text())["runner"]["description"]
    assert str(REPOSITORY) not in base_runner  # the base ran in the worktree ...
    listed = subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "list"], capture_output=True, text=True).stdout
    assert base_runner.split(" started in ")[1].split(" per ")[0] not in listed  # ... which is gone
    frame = history.read_history(results / "history" / "against-scan.csv")
    assert list(history.points(frame)["run_id"]) == ["ab-base", "ab-this"] and len(frame) == 2
    assert "gate:" in text and "0 tested cell(s)" in text
