"""The real regression suite runs end to end through ``cgpm regress``, shrunk (one repetition, cells of 30 events), into a record of every cell; no timing is judged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.bench import history, update_stream
from harness.bench.config import load_config
from harness.bench.normalised import OVER_FLOOR, PER_EVENT, REFERENCE
from harness.cli import main

REPOSITORY = Path(__file__).resolve().parents[2]
SUITE = REPOSITORY / "benchmarks" / "configs" / "regress.toml"


@pytest.fixture
def suite(tmp_path):
    """The suite's file in a copy of the layout its relative paths name, so its streams are made under tmp_path."""
    (tmp_path / "benchmarks" / "configs").mkdir(parents=True)
    shutil.copy(SUITE, tmp_path / "benchmarks" / "configs" / SUITE.name)
    (tmp_path / "generators").symlink_to(REPOSITORY / "generators")
    (tmp_path / "benchmarks" / "queries").symlink_to(REPOSITORY / "benchmarks" / "queries")
    return tmp_path / "benchmarks" / "configs" / SUITE.name


@pytest.mark.slow
def test_the_suite_runs_through_the_cli_and_records_every_cell(suite, tmp_path, capsys):
    results = tmp_path / "results"
    assert main(["regress", str(suite), "--repetitions", "1", "--min-time", "0", "--max-events", "30",
                 "--out", str(tmp_path / "run"), "--results", str(results), "--check"]) == 0
    out = capsys.readouterr().out
    assert "nothing to compare" in out  # the first record on this machine
    frame = history.read_history(results / "history" / "regress.csv")
    assert set(frame["schema_version"]) == {history.SCHEMA_VERSION} and set(frame["status"]) == {"ok"}
    config = load_config(suite)
    assert set(frame["engine"]) == set(config.engines) and len(frame) == 28
    assert frame[f"{PER_EVENT}_values"].ne("").all()
    floors = frame[frame["engine"] == REFERENCE]
    assert len(floors) == 4 and frame["reference"].ne("").all()  # every cell has a scan on its stream
    assert set(frame["reference"]) == set(floors["cell_id"])
    assert (frame[OVER_FLOOR].notna() | frame[PER_EVENT].eq(0)).all()
    assert (suite.parents[2] / "results" / "runs" / ".streams" / update_stream.NAME / "stream.json").is_file()
    # a second run of the same commit is never its own base
    assert main(["regress", "--run", str(tmp_path / "run"), "--check", "--results", str(results)]) == 0
    assert "already in" in capsys.readouterr().out


def test_the_update_stream_is_the_same_rows_each_time_and_a_changed_recipe_is_refused(tmp_path):
    events = update_stream.update_events(prefix=200, tail=400)
    assert events == update_stream.update_events(prefix=200, tail=400)
    ops = [op for event in events[2:] for op, _ in event]
    assert len(ops) == 400 and 0.15 < ops.count(-1) / 400 < 0.35
    live: set = set()
    for event in events:  # every delete removes a triple the graph holds
        for op, triple in event:
            assert (triple not in live) if op > 0 else (triple in live)
            live.add(triple) if op > 0 else live.remove(triple)
    target = tmp_path / update_stream.NAME
    target.mkdir()
    (target / "stream.json").write_text('{"recipe": "an older one"}')
    from common.errors import ConfigError

    with pytest.raises(ConfigError, match="delete it to make it again"):
        update_stream.ensure_update_stream(tmp_path)
