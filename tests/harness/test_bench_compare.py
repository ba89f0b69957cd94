"""cgpm compare flags a cell only when its median moved past the threshold and a t-test, corrected for the many cells compared, says the move is real."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.bench import store
from harness.bench.baselines import record_baseline, resolve_run
from harness.bench.compare import compare_cells
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
    return _stored(directory, pd.DataFrame(rows))


def _stored(directory: Path, frame: pd.DataFrame) -> Path:
    """``frame`` (a row per cell and repetition) written as a run directory, as the store writes a real run."""
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


MATRIX = [(engine, f"Q{query}", f"sliding:{1000 * (1 + window)}:100") for engine in ENGINES for query in range(9)
          for window in range(9)]  # 3 x 9 x 9 = 243 cells, as SPECTRA's Table 1 run


def _matrix_run(directory: Path, repetitions: int, noise: float, seed: int, factor: float = 1.0,
                rounds: tuple = ()) -> Path:
    """243 cells, each repetition's wall time its cell's typical one times ``factor`` and times uniform noise in
    [1 - noise, 1 + noise] (and round k's ``rounds[k]``, shared by every run: the machine's state in that round);
    ``triples_per_s`` follows from it, as in a real run."""
    rng = np.random.default_rng(seed)
    rows = []
    for number, (engine, query, window) in enumerate(MATRIX):
        key = {"engine": engine, "dataset": "lubm", "scale": 1, "event_shape": "triples:1", "query": query,
               "window": window, "entailment": "none", "max_events": 1000}
        typical = 0.01 * (1 + number % 17)
        for repetition in range(repetitions):
            wall = typical * factor * rng.uniform(1 - noise, 1 + noise) * (rounds[repetition] if rounds else 1.0)
            rows.append({"cell_id": cell_id_of(key), **key, "repetition": repetition, "status": "ok", "wall_s": wall,
                         "cpu_s": wall, "triples": 1000, "triples_per_s": 1000 / wall})
    return _stored(directory, pd.DataFrame(rows))


def _flags(base: Path, run: Path, **options) -> pd.Series:
    """How many cells each change names, over wall time and throughput (the default measures of cgpm compare)."""
    comparison = compare_cells(store.load_results(base), store.load_results(run),
                               metrics=("wall_s", "triples_per_s"), **options)
    return comparison.table["change"].value_counts()


@pytest.mark.parametrize("repetitions", [3, 5])
def test_a_planted_uniform_20_percent_regression_is_caught_with_3_and_5_repetitions(tmp_path, capsys, repetitions):
    base = _matrix_run(tmp_path / "base", repetitions, noise=0.03, seed=1)
    slowed = _matrix_run(tmp_path / "slowed", repetitions, noise=0.03, seed=2, factor=1.2)
    assert main(["compare", str(base), str(slowed)]) == 1
    captured = capsys.readouterr()
    assert "wall_s: 243 slower" in captured.out and "triples_per_s: 243 slower" in captured.out  # a rate fell
    assert "paired t-test on log ratios" in captured.out and "Benjamini-Hochberg over 486 tests" in captured.out
    assert "243 cell(s) regressed" in captured.err and captured.err.count(" wall_s x1.") == 243
    assert captured.err.count("triples_per_s x0.") == 243


@pytest.mark.parametrize("repetitions", [3, 5])
@pytest.mark.parametrize("noise", [0.03, 0.10])
def test_noise_over_243_cells_flags_nothing(tmp_path, repetitions, noise):
    for seed in range(3):
        base = _matrix_run(tmp_path / f"base{seed}", repetitions, noise, seed=10 * seed)
        run = _matrix_run(tmp_path / f"run{seed}", repetitions, noise, seed=10 * seed + 1)
        flags = _flags(base, run)
        assert flags.get("slower", 0) == 0 and flags.get("faster", 0) == 0, (seed, flags)
        assert main(["compare", str(base), str(run)]) == 0


def test_without_a_correction_the_same_noise_flags_cells(tmp_path):
    """The correction is what keeps 243 noisy cells quiet: uncorrected, the same data calls some cells changed."""
    base = _matrix_run(tmp_path / "base", 3, 0.10, seed=0)
    run = _matrix_run(tmp_path / "run", 3, 0.10, seed=1)
    uncorrected = _flags(base, run, correction="none")
    assert uncorrected.get("slower", 0) + uncorrected.get("faster", 0) > 0
    assert {"slower", "faster"}.isdisjoint(_flags(base, run, correction="holm").index)
    assert main(["compare", "--correction", "none", str(base), str(run)]) in (0, 1)
    with pytest.raises(SystemExit) as refused:  # argparse's: one line, exit 2
        main(["compare", "--correction", "sidak", str(base), str(run)])
    assert refused.value.code == 2


def test_rounds_are_paired_when_both_runs_have_them_else_welch_is_named(tmp_path):
    """Round effects shared by the two runs (a round 40% slower for every cell) hide a 20% move from an unpaired
    test at n = 3, not from the paired one."""
    rounds = (1.0, 1.4, 0.7)
    base = _matrix_run(tmp_path / "base", 3, 0.02, seed=1, rounds=rounds)
    slowed = _matrix_run(tmp_path / "slowed", 3, 0.02, seed=2, factor=1.2, rounds=rounds)
    comparison = compare_cells(store.load_results(base), store.load_results(slowed))
    assert set(comparison.table["test"]) == {"paired t-test on log ratios"}
    assert set(comparison.table["change"]) == {"slower"}
    longer = _matrix_run(tmp_path / "longer", 4, 0.02, seed=3, factor=1.2, rounds=(*rounds, 1.0))
    unpaired = compare_cells(store.load_results(base), store.load_results(longer))
    assert set(unpaired.table["test"]) == {"Welch t-test on logs"}
    assert "slower" not in set(unpaired.table["change"])  # the rounds' spread is noise to an unpaired test


def test_too_few_repetitions_are_refused_saying_how_many_are_needed(tmp_path, capsys):
    base = _matrix_run(tmp_path / "base", 2, 0.02, seed=1)
    slowed = _matrix_run(tmp_path / "slowed", 2, 0.02, seed=2, factor=1.5)
    assert main(["compare", str(base), str(slowed)]) == 0
    output = capsys.readouterr().out
    assert "wall_s: 243 undecided" in output
    assert "needs at least 3 repetitions" in output and "paired t-test needs 3" in output


def test_a_rate_that_rises_is_faster_and_only_a_cost_rising_is_slower(tmp_path, capsys):
    base = _matrix_run(tmp_path / "base", 5, 0.02, seed=1)
    quicker = _matrix_run(tmp_path / "quicker", 5, 0.02, seed=2, factor=0.7)
    assert main(["compare", str(base), str(quicker)]) == 0
    assert "triples_per_s: 243 faster" in capsys.readouterr().out
    assert main(["compare", "--metric", "triples_per_s", str(quicker), str(base)]) == 1
    assert main(["compare", "--metric", "answers", str(base), str(quicker)]) == 2


def test_holm_and_benjamini_hochberg_adjust_as_their_definitions_say():
    from harness.bench.significance import corrected

    p_values = [0.01, 0.04, 0.03, float("nan")]
    assert corrected(p_values, "holm")[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert corrected(p_values, "bh")[:3] == pytest.approx([0.03, 0.04, 0.04])
    assert np.isnan(corrected(p_values, "bh")[3]) and corrected(p_values, "none")[1] == 0.04


def test_a_measure_missing_from_finished_repetitions_is_not_measured_and_a_time_out_is_failed(tmp_path):
    base = _matrix_run(tmp_path / "base", 3, 0.02, seed=1)
    cells = store.load_results(base)
    victim, stopped = cells["cell_id"].iloc[0], cells["cell_id"].iloc[3]
    run = cells.assign(triples_per_s=cells["triples_per_s"].where(cells["cell_id"] != victim))
    run.loc[run["cell_id"] == stopped, ["status", "wall_s", "triples_per_s"]] = ["timeout", np.nan, np.nan]
    table = compare_cells(cells, run, metrics=("wall_s", "triples_per_s")).table.set_index(["metric", "cell_id"])
    assert table.at[("triples_per_s", victim), "change"] == "not measured"
    assert table.at[("wall_s", victim), "change"] == "same"
    assert {table.at[(metric, stopped), "change"] for metric in ("wall_s", "triples_per_s")} == {"failed"}
