"""The gate flags a planted slowdown of one engine, stays quiet over runs of unchanged code on a loaded machine, and lets an accepted step pass, shown as accepted.

Every record is synthetic (figures as data, never timed): a run folder with its repetitions, as ``cgpm report
--publish`` leaves one, whose CPU times are a fixed cost per cell times the run's load (one factor for the whole
run, one per round: what another process's load does to every cell alike) times lognormal noise per repetition.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.bench import gate, history, store
from harness.bench.acceptances import load_acceptances
from harness.bench.matrix import cell_id_of
from harness.bench.normalised import OVER_FLOOR, PER_EVENT
from harness.cli import main

ENGINES = ("spectra", "tpjoin-lazy", "tpjoin-eager", "sparkwave", "delta", "reeval")
STREAMS = ("lubm", "bsbm")
QUERIES = ("L2", "L4")
REPETITIONS, EVENTS = 5, 1000
MACHINE = {"hostname": "ci", "processor": "cpu", "cpus_logical": 2}


def _key(engine: str, dataset: str, query: str) -> dict:
    return {"engine": engine, "dataset": dataset, "scale": 1, "event_shape": "triples:20", "query": query,
            "window": "sliding:10000:20", "entailment": "none", "max_events": 3000}


def write_run(folder, commit: str, day: int, *, seed: int, slower: dict | None = None, run_load: float = 1.0,
              round_sigma: float = 0.05, noise: float = 0.02):
    """A run of the suite's shape: every engine on two queries of each stream, scan once per stream."""
    rng = np.random.default_rng(seed)
    rounds = rng.lognormal(0, round_sigma, REPETITIONS)
    cells = [_key("scan", dataset, "L4") for dataset in STREAMS]
    cells += [_key(engine, dataset, query) for engine in ENGINES for dataset in STREAMS for query in QUERIES]
    rows = []
    for repetition in range(REPETITIONS):  # in rounds, as the runner interleaves them
        for number, key in enumerate(cells):
            cost_us = (20.0 if key["engine"] == "scan" else 50.0 + 10 * number) * (slower or {}).get(key["engine"], 1.0)
            cpu = cost_us * EVENTS / 1e6 * run_load * rounds[repetition] * rng.lognormal(0, noise)
            rows.append({"cell_id": cell_id_of(key), **key, "repetition": repetition, "status": "ok",
                         "verdict": "not checked", "error": "", "wall_s": cpu * 1.5, "cpu_s": cpu, "events": EVENTS,
                         "triples": 20 * EVENTS, "window_triples": 10_000, "rss_peak_bytes": 1e8})
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(folder / "repetitions.csv", index=False)
    store.write_json(folder / store.RUN_FILE, {
        "schema_version": store.SCHEMA_VERSION, "run_id": folder.name, "created": f"2026-01-{day:02d}T00:00:00+00:00",
        "status": "complete", "machine": MACHINE, "git": {"commit": commit, "dirty": False},
        "config": {"name": "regress", "gate_threshold": 0.10}})
    return folder


def _gate(tmp_path, name: str, *extra: str) -> int:
    return main(["regress", "--run", str(tmp_path / "runs" / name), "--check", "--results", str(tmp_path / "results"),
                 *extra])


def _commit(number: int) -> str:
    return f"{number:07x}" * 5 + "a" * 5


def test_figures_are_cpu_per_event_and_its_ratio_to_the_scan_of_the_same_stream_and_round(tmp_path):
    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=1, noise=0.0, round_sigma=0.5)
    history.add_run(tmp_path / "runs" / "r1", tmp_path / "history")
    frame = history.read_history(tmp_path / "history" / "regress.csv").set_index("engine", drop=False)
    row = frame[(frame["engine"] == "spectra") & (frame["dataset"] == "lubm") & (frame["query"] == "L2")].iloc[0]
    per_event = [float(value) for value in row[f"{PER_EVENT}_values"].split(";")]
    assert np.ptp(per_event) > 1  # the rounds' load moves the CPU time ...
    over_scan = [float(value) for value in row[f"{OVER_FLOOR}_values"].split(";")]
    assert over_scan == pytest.approx([(50 + 10 * 2) / 20] * REPETITIONS)  # ... not its ratio
    assert row["reference"] == cell_id_of(_key("scan", "lubm", "L4"))


def test_a_planted_fifteen_percent_slowdown_of_one_engine_fails_the_gate_naming_its_cells_only(tmp_path, capsys):
    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=11)
    write_run(tmp_path / "runs" / "r2", _commit(2), 2, seed=12, slower={"sparkwave": 1.15}, run_load=0.8)
    assert _gate(tmp_path, "r1") == 0
    assert "nothing to compare" in capsys.readouterr().out
    assert _gate(tmp_path, "r2") == 1
    err = capsys.readouterr().err
    flagged = [line for line in err.splitlines() if line.startswith("REGRESSION")]
    # a 15% step is 5% past the threshold: over 2% noise a repetition, 5 pairs flag most of its cells, not always all
    assert len(flagged) >= 3 and all(" sparkwave " in line for line in flagged), err


def test_twenty_runs_of_unchanged_code_on_a_loaded_machine_never_fail_the_gate(tmp_path, capsys):
    """Each run has its own load (a factor of 0.6-1.7 for the whole run, 5% more per round) and 3% noise per
    repetition. The ratio to scan keeps none of the load; the raw CPU time per event would flag some of it."""
    rng = np.random.default_rng(2026)
    for number in range(20):
        write_run(tmp_path / "runs" / f"r{number:02d}", _commit(number), number + 1, seed=100 + number,
                  run_load=float(rng.lognormal(0, 0.25)), noise=0.03)
        assert _gate(tmp_path, f"r{number:02d}") == 0, capsys.readouterr().err
    frame = history.read_history(tmp_path / "results" / "history" / "regress.csv")
    points = history.points(frame)
    raw = [gate.check(frame, point.run_id, point.commit, point.machine, acceptances=[], threshold=0.10,
                      metric=PER_EVENT) for point in points.iloc[1:].itertuples()]
    assert sum(not result.passed for result in raw) >= 3  # what the gate would do on CPU time alone


def test_an_accepted_step_passes_and_shows_as_accepted_with_its_trade_off(tmp_path, capsys):
    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=21)
    write_run(tmp_path / "runs" / "r2", _commit(2), 2, seed=22, slower={"sparkwave": 1.15})
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(f'[[accepted]]\ncommit = "{_commit(2)[:7]}"\ncell = "sparkwave--*"\n'
                        'trade_off = "memory for time: a compact window"\nfigure = "206 -> 159 B a triple; x1.15"\n')
    assert _gate(tmp_path, "r1", "--accepted", str(accepted)) == 0
    assert _gate(tmp_path, "r2", "--accepted", str(accepted)) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if line.startswith("ACCEPTED")]
    assert len(shown) >= 3 and all("memory for time" in line and "sparkwave" in line for line in shown), out
    assert not any(line.startswith("REGRESSION") for line in out.splitlines())
    write_run(tmp_path / "runs" / "r3", _commit(3), 3, seed=23, slower={"sparkwave": 1.15 * 1.3})
    assert _gate(tmp_path, "r3", "--accepted", str(accepted)) == 1  # slower again: its own step, not accepted
    capsys.readouterr()
    assert main(["history", "regress", "--results", str(tmp_path / "results"), "--metric", OVER_FLOOR,
                 "--accepted", str(accepted)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum("ACCEPTED: sparkwave" in line and "memory for time" in line for line in lines) == len(shown)
    assert sum("REGRESSION: sparkwave" in line for line in lines) >= 3 and not any(
        "REGRESSION" in line and "sparkwave" not in line for line in lines)


def test_a_dirty_tree_is_gated_against_its_own_commit_and_reruns_of_a_commit_never_against_each_other(tmp_path):
    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=31)
    write_run(tmp_path / "runs" / "r2", _commit(2), 2, seed=32)
    write_run(tmp_path / "runs" / "r3", _commit(2), 3, seed=33)
    for name in ("r1", "r2", "r3"):
        history.add_run(tmp_path / "runs" / name, tmp_path / "history")
    frame = history.read_history(tmp_path / "history" / "regress.csv")
    points = history.points(frame)
    assert gate.base_of(points, points.iloc[2])["run_id"] == "r1"  # a rerun of c2 is gated against c1
    dirty = points.iloc[2].copy()
    dirty["dirty"] = True
    assert gate.base_of(points, dirty)["run_id"] == "r2"  # uncommitted changes: against the clean c2


@pytest.mark.parametrize("text, message", [
    ('[[accepted]]\ncommit = "abcdef0"\ncell = "x"\ntrade_off = "t"\n', "needs 'figure'"),
    ('[[accepted]]\ncommit = "HEAD"\ncell = "x"\ntrade_off = "t"\nfigure = "f"\n', "hex digits"),
    ('[[accepted]]\ncommit = "abcdef0"\ncell = "x"\ntrade_off = "t"\nfigure = "f"\nwhy = "w"\n', "unknown key 'why'"),
])
def test_an_acceptance_names_every_field_or_is_refused_in_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "accepted.toml"
    path.write_text(text)
    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=41)
    assert _gate(tmp_path, "r1", "--accepted", str(path)) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert load_acceptances(tmp_path / "absent.toml") == []


def test_the_sites_history_page_shows_the_suite_on_its_gate_metric_with_the_accepted_step(tmp_path):
    from harness.site.build import build_site

    write_run(tmp_path / "runs" / "r1", _commit(1), 1, seed=51)
    write_run(tmp_path / "runs" / "r2", _commit(2), 2, seed=52, slower={"sparkwave": 1.3})
    write_run(tmp_path / "runs" / "r3", _commit(3), 3, seed=53, slower={"sparkwave": 1.3, "delta": 1.3})
    for name in ("r1", "r2", "r3"):
        history.add_run(tmp_path / "runs" / name, tmp_path / "history")
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(f'[[accepted]]\ncommit = "{_commit(2)[:7]}"\ncell = "sparkwave--*"\n'
                        'trade_off = "memory for time"\nfigure = "x1.3"\n')
    (tmp_path / "published").mkdir()
    site = build_site(tmp_path / "site", tmp_path / "published", tmp_path / "history", accepted=accepted).out
    page = (site / "history" / "regress.html").read_text()
    assert f"{OVER_FLOOR} per cell" in page and 'src="regress.svg"' in page
    assert page.count('<tr class="accepted">') == 4 and page.count("memory for time (x1.3)") == 4  # sparkwave at c2
    assert page.count('<tr class="regression">') == 4  # delta at c3: no acceptance names it
