"""cgpm history keeps every run per commit and machine and flags a step only where compare's test would: a real move, not noise."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from harness.bench import history, store
from harness.bench.matrix import cell_id_of
from harness.cli import main

QUERIES = ("chain", "star", "path")
REPETITIONS = 6


def write_run(folder, commit: str, created: str, *, slow: dict | None = None, seed: int = 0, hostname: str = "box",
              failed: tuple = (), benchmark: str = "series"):
    """A run folder as `cgpm report --publish` leaves it, with its repetitions: 2% noise around fixed timings."""
    rng = np.random.default_rng(seed)
    rows = []
    for number, query in enumerate(QUERIES):
        key = {"engine": "delta", "dataset": "made-up", "scale": 1, "event_shape": "entity", "query": query,
               "window": "sliding:10000:1000", "entailment": "none", "max_events": 0}
        for repetition in range(REPETITIONS):
            status = "timeout" if query in failed else "ok"
            wall = 0.1 * (1 + number) * (slow or {}).get(query, 1.0) * rng.normal(1, 0.02)
            rows.append({"cell_id": cell_id_of(key), **key, "repetition": repetition, "status": status,
                         "verdict": "not checked", "error": "", "wall_s": wall if status == "ok" else None,
                         "cpu_s": wall, "events": 100, "triples": 100, "window_triples": 10, "rss_peak_bytes": 1e8, "rss_base_bytes": 9e7})
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(folder / "repetitions.csv", index=False)
    store.write_json(folder / store.RUN_FILE, {
        "schema_version": store.SCHEMA_VERSION, "run_id": folder.name, "created": created, "status": "complete",
        "machine": {"hostname": hostname, "processor": "cpu", "cpus_logical": 2},
        "git": {"commit": commit, "dirty": False}, "config": {"name": benchmark}})
    return folder


@pytest.fixture
def series(tmp_path):
    """Four commits on one machine: c2 is c1 again (fresh noise), c3 makes `star` 1.5x slower, c4 makes `path` time out."""
    runs = tmp_path / "runs"
    write_run(runs / "r1", "c1" * 20, "2026-01-01T00:00:00+00:00", seed=1)
    write_run(runs / "r2", "c2" * 20, "2026-01-02T00:00:00+00:00", seed=2)
    write_run(runs / "r3", "c3" * 20, "2026-01-03T00:00:00+00:00", seed=3, slow={"star": 1.5})
    write_run(runs / "r4", "c4" * 20, "2026-01-04T00:00:00+00:00", seed=4, slow={"star": 1.5}, failed=("path",))
    results = tmp_path / "results"
    for name in ("r3", "r1", "r4", "r2"):  # added out of order: history orders by the runs' creation
        assert main(["history", "--results", str(results), "--add", str(runs / name)]) == 0
    return results


def _steps(results, **options):
    return history.step_changes(history.read_history(results / "history" / "series.csv"), **options)


def test_a_real_step_is_flagged_and_noise_is_not(series):
    steps = _steps(series)
    assert list(dict.fromkeys(steps["commit"])) == ["c2" * 20, "c3" * 20, "c4" * 20]
    noise = steps[steps["commit"] == "c2" * 20]
    assert set(noise["change"]) <= {"same", "noise"}, noise
    step = steps[steps["commit"] == "c3" * 20].set_index("query")
    assert step.at["star", "change"] == "slower" and step.at["star", "ratio"] == pytest.approx(1.5, rel=0.05)
    assert step.at["star", "p_value"] < 0.05 and step.at["star", "test"] == "paired t-test on log ratios"
    assert set(step.drop(index="star")["change"]) <= {"same", "noise"}
    failed = steps[steps["commit"] == "c4" * 20].set_index("query")
    assert failed.at["path", "change"] == "failed" and failed.at["star", "change"] in ("same", "noise")


def test_the_history_file_is_append_only_and_adding_a_run_twice_adds_nothing(series, tmp_path, capsys):
    path = series / "history" / "series.csv"
    before = path.read_text()
    assert main(["history", "--results", str(series), "--add", str(tmp_path / "runs" / "r2")]) == 0
    assert "already in" in capsys.readouterr().out and path.read_text() == before
    write_run(tmp_path / "runs" / "r5", "c5" * 20, "2026-01-05T00:00:00+00:00", seed=5)
    history.add_run(tmp_path / "runs" / "r5", series / "history")
    after = path.read_text()
    assert after.startswith(before) and after.count("\n") == before.count("\n") + len(QUERIES)
    frame = history.read_history(path)
    assert set(frame["schema_version"]) == {history.SCHEMA_VERSION}
    assert frame["wall_s_values"].str.count(";").eq(REPETITIONS - 1).sum() == 5 * len(QUERIES) - 1  # r4's path failed


def test_machines_are_kept_apart(tmp_path):
    write_run(tmp_path / "a1", "c1" * 20, "2026-01-01T00:00:00+00:00", hostname="fast")
    write_run(tmp_path / "b1", "c2" * 20, "2026-01-02T00:00:00+00:00", hostname="slow", slow={q: 3.0 for q in QUERIES})
    for name in ("a1", "b1"):
        history.add_run(tmp_path / name, tmp_path / "history")
    frame = history.read_history(tmp_path / "history" / "series.csv")
    assert len(history.points(frame)) == 2 and history.step_changes(frame).empty  # one run per machine: no step


def test_medians_only_runs_are_shown_never_called_a_change(tmp_path):
    for name, commit, created, factor in (("m1", "c1", "2026-01-01", 1.0), ("m2", "c2", "2026-01-02", 2.0)):
        folder = write_run(tmp_path / name, commit * 20, created + "T00:00:00+00:00", slow={q: factor for q in QUERIES})
        from harness.bench.summary import per_cell

        per_cell(pd.read_csv(folder / "repetitions.csv")).to_csv(folder / "summary.csv", index=False)
        (folder / "repetitions.csv").unlink()
        history.add_run(folder, tmp_path / "history")
    steps = history.step_changes(history.read_history(tmp_path / "history" / "series.csv"))
    assert set(steps["change"]) == {"not measured"}
    assert set(steps["note"]) == {"medians only: no repetitions to test"}
    assert steps["ratio"].to_numpy() == pytest.approx([2.0] * len(QUERIES), rel=0.05)


def test_the_command_prints_the_flag_and_json(series, capsys):
    assert main(["history", "series", "--results", str(series)]) == 0
    out = capsys.readouterr().out
    assert "REGRESSION: delta star" in out and "REGRESSION: delta path" in out and "c3c3c3c3c3" in out
    header = next(line for line in out.splitlines() if line.startswith("engine"))
    assert header.split()[-4:] == ["c1c1c1c1c1", "c2c2c2c2c2", "c3c3c3c3c3", "c4c4c4c4c4"]
    path_row = next(line for line in out.splitlines() if line.startswith("delta") and " path " in line)
    assert path_row.split()[-1] == "timeout" and path_row.count("[") == 3
    assert main(["history", "series", "--results", str(series), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["schema_version"] == history.SCHEMA_VERSION and len(answer["runs"]) == 4
    assert len(answer["cells"]) == 4 * len(QUERIES) and {cell["status"] for cell in answer["cells"]} == {"ok", "timeout"}
    assert {step["change"] for step in answer["steps"] if step["query"] == "star" and step["commit"] == "c3" * 20} == {"slower"}


@pytest.mark.parametrize("argv, message", [
    (["history", "nothing"], "no history for 'nothing'"),
    (["history", "../x"], "cannot name a history file"),
    (["history", "--add", "nowhere"], "neither a run directory nor a run file"),
    (["history", "series", "--metric", "answers"], "not one of them"),
])
def test_bad_input_is_one_line_and_exit_2(series, argv, message, capsys):
    assert main([*argv, "--results", str(series)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_a_file_of_another_schema_is_refused(tmp_path, capsys):
    (tmp_path / "history").mkdir()
    (tmp_path / "history" / "old.csv").write_text("commit,wall_s\nabc,1.0\n")
    assert main(["history", "old", "--results", str(tmp_path)]) == 2
    assert "is not a history of cgpm-history/1 or cgpm-history/2" in capsys.readouterr().err


def test_bench_adds_a_finished_run_kept_under_results_runs_and_no_other(tmp_path):
    from harness.commands.bench_cmd import _add_to_history

    said = []
    kept = write_run(tmp_path / "results" / "runs" / "kept", "c1" * 20, "2026-01-01T00:00:00+00:00")
    elsewhere = write_run(tmp_path / "scratch" / "other", "c2" * 20, "2026-01-02T00:00:00+00:00")
    _add_to_history(kept, said.append)
    _add_to_history(elsewhere, said.append)
    assert [path.name for path in (tmp_path / "results" / "history").iterdir()] == ["series.csv"]
    assert len(history.read_history(tmp_path / "results" / "history" / "series.csv")) == len(QUERIES)
    assert not (tmp_path / "scratch" / "history").exists() and len(said) == 1


@pytest.mark.parametrize(("argv", "joins"), [
    (["bench", "benchmarks/configs/x.toml"], True),
    (["bench", "--engine", "scan", "--stream", "S", "--query", "q.rq", "--out", "results/runs/x"], False),
    (["bench", "--engine", "scan", "--stream", "S", "--query", "q.rq", "--history"], True),
    (["bench", "benchmarks/configs/x.toml", "--no-history"], False),
])
def test_only_a_configuration_files_run_joins_the_history_unless_asked(argv, joins):
    """An ad-hoc bench from flags would append its one-off cells to a history the committed-results site shows."""
    from harness.cli import build_parser
    from harness.commands.bench_cmd import history_wanted

    assert history_wanted(build_parser("bench").parse_args(argv)) is joins


@dataclass(frozen=True)
class MadeUpVerdict:
    """The fields of harness.claims.Verdict that the claim history keeps."""

    paper: str
    experiment: str
    claim_id: str
    verdict: str
    value: float | None
    bound: bool = False
    paper_value: float | None = 10.0


def test_a_claim_met_at_one_commit_and_missed_at_the_next_is_named_a_regression(series, tmp_path, capsys):
    from harness.site.runs import open_run

    verdicts = {"r1": ("met", "met"), "r2": ("missed", "met"), "r3": ("met", "not-shown"), "r4": ("met", "not-shown")}
    for name, (first, second) in verdicts.items():
        run = open_run(tmp_path / "runs" / name)
        made = [MadeUpVerdict("spectra", "table1", "speedup-L1", first, 12.0 if first == "met" else 8.0),
                MadeUpVerdict("spectra", "table1", "memory-L1", second, 1.0 if second == "met" else None)]
        assert history.add_verdicts(made, run, series / "history") == 2
        assert history.add_verdicts(made, run, series / "history") == 0  # once per run
    changes = history.claim_changes(history.read_claim_history(series / "history" / history.CLAIMS_FILE))
    speedup = changes[changes["claim_id"] == "speedup-L1"]
    assert list(speedup["change"]) == ["regression", "fixed", "same"]
    assert list(speedup["commit"].str[:2]) == ["c2", "c3", "c4"]
    memory = changes[changes["claim_id"] == "memory-L1"]
    assert list(memory["change"]) == ["same", "regression", "same"]  # not shown any more: no longer met
    assert main(["history", "series", "--results", str(series)]) == 0
    out = capsys.readouterr().out
    assert "CLAIM REGRESSION: spectra speedup-L1 met at c1c1c1c1c1, missed at c2c2c2c2c2" in out
    assert "claim fixed: spectra speedup-L1 missed at c2c2c2c2c2, met at c3c3c3c3c3" in out
    assert "CLAIM REGRESSION: spectra memory-L1 met at c2c2c2c2c2, not-shown at c3c3c3c3c3" in out


def test_adding_a_published_folder_records_the_claims_judged_from_it(tmp_path, capsys):
    from pathlib import Path

    from harness import claims

    folder = Path(__file__).resolve().parents[2] / "results" / "published" / "sparkwave" / "windows-quiet"
    assert main(["history", "--results", str(tmp_path), "--add", str(folder)]) == 0
    assert "claim(s) judged from it" in capsys.readouterr().out
    recorded = history.read_claim_history(tmp_path / "history" / history.CLAIMS_FILE)
    expected = {verdict.claim_id: verdict.verdict for verdict in claims.judge("sparkwave")
                if verdict.published == "sparkwave/windows-quiet"}
    assert expected and dict(zip(recorded["claim_id"], recorded["verdict"])) == expected
    assert set(recorded["benchmark"]) == {"sparkwave-windows"} and set(recorded["paper"]) == {"sparkwave"}


def test_the_committed_histories_read_with_their_schema():
    from pathlib import Path

    directory = Path(__file__).resolve().parents[2] / "results" / "history"
    files = sorted(directory.glob("*.csv"))
    assert files, "results/history holds no benchmark history"
    for path in files:
        frame = history.read_history(path)
        assert set(frame["benchmark"]) == {path.stem} and len(history.points(frame)) >= 1
    claims = history.read_claim_history(directory / history.CLAIMS_FILE)
    assert set(claims["verdict"]) <= {"met", "missed", "not-shown"} and set(claims["benchmark"]) <= {p.stem for p in files}


def test_a_version_1_file_is_read_and_widened_once_its_rows_kept_text_for_text(series, tmp_path):
    path = series / "history" / "series.csv"
    frame = history.read_history(path)
    old = frame[list(history.COLUMNS_V1)].assign(schema_version="cgpm-history/1")
    old.to_csv(path, index=False)  # as a version-1 writer left it
    before = path.read_text().splitlines()
    loaded = history.read_history(path)
    assert list(loaded.columns) == list(history.COLUMNS) and loaded["cpu_over_scan"].isna().all()
    write_run(tmp_path / "runs" / "r5", "c5" * 20, "2026-01-05T00:00:00+00:00", seed=5)
    assert history.add_run(tmp_path / "runs" / "r5", series / "history")[1] == len(QUERIES)
    after = path.read_text().splitlines()
    extra = len(history.COLUMNS) - len(history.COLUMNS_V1)
    assert after[0] == ",".join(history.COLUMNS)
    assert after[1:len(before)] == [line + "," * extra for line in before[1:]]
    widened = history.read_history(path)
    assert list(widened["schema_version"]) == ["cgpm-history/1"] * (len(before) - 1) + [history.SCHEMA_VERSION] * 3
    assert widened["cpu_us_per_event_values"].iloc[-1].count(";") == REPETITIONS - 1  # the new run's figures
    assert len(history.step_changes(widened, "cpu_s")) == 4 * len(QUERIES)  # old and new rows test together
