"""cgpm compare flags a cell only when its median moved past the threshold and Mann-Whitney says the move is real."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.bench import store
from harness.bench.baselines import record_baseline, resolve_run
from harness.bench.compare import compare_cells, smallest_p
from harness.bench.matrix import cell_id_of
from harness.cli import main

ENGINES = ("scan", "reeval", "oxigraph")
QUERIES = ("chain", "star")
REPETITIONS = 6


def _synthetic_run(directory: Path, seed: int = 0) -> Path:
    """A results directory with plausible noisy timings (2% noise), written by the store like a real run."""
    rng = np.random.default_rng(seed)
    rows = []
    for engine_number, engine in enumerate(ENGINES):
        for query_number, query in enumerate(QUERIES):
            key = {"engine": engine, "dataset": "synthetic", "scale": 1, "event_shape": "entity", "query": query,
                   "window": "sliding:10000:1000", "entailment": "none", "max_events": 0}
            typical = 0.01 * (1 + engine_number) * (1 + query_number)
            for repetition in range(REPETITIONS):
                rows.append({"cell_id": cell_id_of(key), **key, "repetition": repetition, "status": "ok",
                             "wall_s": typical * rng.normal(1, 0.02), "cpu_s": typical})
    frame = pd.DataFrame(rows)
    directory.mkdir(parents=True)
    frame.to_parquet(directory / store.CELLS_PARQUET, index=False)
    frame.to_csv(directory / store.CELLS_CSV, index=False)
    store.write_json(directory / store.RUN_FILE, {"schema_version": store.SCHEMA_VERSION, "run_id": directory.name,
                                                  "status": "complete", "machine": {"hostname": "h"}, "config": {}})
    return directory


def _slowed_copy(run: Path, target: Path, cells: list[str], factor: float, repetitions=None) -> Path:
    shutil.copytree(run, target)
    frame = pd.read_parquet(target / store.CELLS_PARQUET)
    chosen = frame["cell_id"].isin(cells)
    if repetitions is not None:
        chosen &= frame["repetition"].isin(repetitions)
    frame.loc[chosen, "wall_s"] *= factor
    frame.to_parquet(target / store.CELLS_PARQUET, index=False)
    frame.to_csv(target / store.CELLS_CSV, index=False)
    return target


@pytest.fixture
def base(tmp_path) -> Path:
    return _synthetic_run(tmp_path / "base")


def _ids(run: Path, engine: str) -> list[str]:
    frame = pd.read_parquet(run / store.CELLS_PARQUET)
    return sorted(set(frame.loc[frame["engine"] == engine, "cell_id"]))


def test_a_run_against_itself_and_against_fresh_noise_exits_0(base, tmp_path):
    assert main(["compare", str(base), str(base)]) == 0
    other = _synthetic_run(tmp_path / "other", seed=1)
    assert main(["compare", str(base), str(other)]) == 0


def test_slowed_cells_are_named_and_exit_1(base, tmp_path, capsys):
    slowed_ids = _ids(base, "reeval")
    slowed = _slowed_copy(base, tmp_path / "slowed", slowed_ids, 1.5)
    assert main(["compare", str(base), str(slowed)]) == 1
    captured = capsys.readouterr()
    for cell_id in slowed_ids:
        assert cell_id in captured.err
    for cell_id in _ids(base, "scan") + _ids(base, "oxigraph"):
        assert cell_id not in captured.err
    assert "2 slower" in captured.out


def test_a_small_or_inconsistent_change_is_not_a_regression(base, tmp_path):
    small = _slowed_copy(base, tmp_path / "small", _ids(base, "reeval"), 1.05)  # within 10%
    assert main(["compare", str(base), str(small)]) == 0
    two_reps = _slowed_copy(base, tmp_path / "two", _ids(base, "reeval"), 3.0, repetitions=[0, 1])
    comparison = compare_cells(store.load_results(base), store.load_results(two_reps))
    assert set(comparison.table["change"]) == {"same"}  # the median did not move


def test_faster_cells_do_not_fail_and_a_stricter_threshold_catches_smaller_changes(base, tmp_path, capsys):
    faster = _slowed_copy(base, tmp_path / "faster", _ids(base, "scan"), 0.5)
    assert main(["compare", str(base), str(faster)]) == 0
    assert "2 faster" in capsys.readouterr().out
    small = _slowed_copy(base, tmp_path / "small", _ids(base, "reeval"), 1.05)
    assert main(["compare", "--threshold", "0.02", str(base), str(small)]) == 1


def test_a_cell_that_stopped_finishing_is_a_regression(base, tmp_path, capsys):
    broken = _slowed_copy(base, tmp_path / "broken", [], 1.0)
    frame = pd.read_parquet(broken / store.CELLS_PARQUET)
    victim = _ids(base, "oxigraph")[0]
    frame.loc[frame["cell_id"] == victim, "status"] = "timeout"
    frame.to_parquet(broken / store.CELLS_PARQUET, index=False)
    assert main(["compare", str(base), str(broken)]) == 1
    assert victim in capsys.readouterr().err


def test_mann_whitney_needs_four_repetitions_a_side_at_5_percent():
    assert smallest_p(2, 2) == pytest.approx(1 / 6)
    assert smallest_p(3, 3) == pytest.approx(1 / 20)
    assert smallest_p(4, 4) < 0.05


def test_a_baseline_is_recorded_and_compared_by_name(base, tmp_path):
    root = tmp_path / "baselines"
    target = record_baseline(base, "synthetic-1", root=root)
    assert sorted(p.name for p in target.iterdir()) == sorted([store.RUN_FILE, store.CELLS_PARQUET, store.CELLS_CSV])
    assert resolve_run("synthetic-1", root=root) == target
    from common.errors import ConfigError

    with pytest.raises(ConfigError, match="exists"):
        record_baseline(base, "synthetic-1", root=root)
    with pytest.raises(ConfigError, match="name"):
        record_baseline(base, "../escape", root=root)
