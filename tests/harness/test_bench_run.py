"""A tiny benchmark run end to end (process runner): every file, fresh processes, reports from stored results, compare with itself."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from harness.bench import store
from harness.bench.config import config_from_table
from harness.bench.execute import run_bench
from harness.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
REQUIRED_COLUMNS = ["engine", "dataset", "query", "window", "repetition", "status", "wall_s", "cpu_s", "triples",
                    "events", "triples_per_s", "latency_p50_ms", "latency_p99_ms", "rss_base_bytes", "rss_peak_bytes",
                    "answers", "verdict"]
WINDOWS = ["sliding:5s:1s", "sliding:10s:1s"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    config = config_from_table({
        "name": "tiny", "engines": ["scan", "reeval"], "repetitions": 2, "min_time_s": 0, "runner": "process", "verify": True,
        "workloads": [{"stream": str(EXAMPLE), "queries": [str(EXAMPLE / "queries" / "chain.rq")], "windows": WINDOWS}],
    })
    return run_bench(config, tmp_path_factory.mktemp("runs") / "tiny", show_progress=False)


def test_the_run_writes_every_file(tiny_run):
    for name in ("run.json", "cells.parquet", "cells.csv", "rss.parquet", "latency.parquet"):
        assert (tiny_run / name).is_file(), name
    info = json.loads((tiny_run / "run.json").read_text())
    assert info["schema_version"] == store.SCHEMA_VERSION and info["status"] == "complete"
    assert info["config"]["repetitions"] == 2 and info["config"]["engines"] == ["scan", "reeval"]
    assert info["machine"]["cpus_logical"] >= 1 and "pyarrow" in info["packages"]
    assert "commit" in info["git"] and len(info["cells"]) == 4
    assert not list(tiny_run.rglob("*.partial-*"))


def test_cells_table_has_a_row_per_cell_and_repetition(tiny_run):
    csv = pd.read_csv(tiny_run / "cells.csv")
    assert set(REQUIRED_COLUMNS) <= set(csv.columns)
    frame = store.load_results(tiny_run)
    assert len(frame) == len(csv) == 2 * 2 * 2
    assert (frame["status"] == "ok").all()
    assert set(frame["window"]) == {"sliding:5000:1000", "sliding:10000:1000"}
    assert (frame["events"] == 41).all() and (frame["wall_s"] > 0).all()
    assert (frame["latency_p99_ms"] >= frame["latency_p50_ms"]).all()
    assert (frame["rss_peak_bytes"] >= frame["rss_base_bytes"]).all()
    assert set(frame.loc[frame["engine"] == "reeval", "verdict"]) == {"agrees"}
    assert set(frame.loc[frame["engine"] == "scan", "verdict"]) == {"not checked"}  # scan computes no answers
    assert (frame.loc[frame["engine"] == "reeval", "added"] > 0).all()  # answers came and went


def test_every_repetition_ran_in_a_fresh_process(tiny_run):
    frame = store.load_results(tiny_run)
    assert frame["pid"].nunique() == len(frame)
    assert not frame["engine_module_preloaded"].astype(bool).any()


def test_series_are_stored(tiny_run):
    latencies = store.load_latencies(tiny_run)
    assert len(latencies) == 8 * 41
    rss = store.load_rss(tiny_run)
    assert len(rss) >= 8 and (rss["rss_bytes"] > 0).all()


def test_the_series_files_hold_every_part_row_for_row_one_row_group_each(tiny_run, tmp_path):
    import numpy as np
    import pyarrow.parquet as pq

    run = tmp_path / "run"
    shutil.copytree(tiny_run, run)
    parts = sorted(run.glob("parts/*/r[0-9]*.latency.npy"))
    paced = parts[0].with_name(parts[0].name.replace(".latency.npy", ".e2e.npy"))
    np.save(paced, np.array([2e6, 3e6]))  # a paced repetition: end-to-end latencies of its first two events
    (run / "latency.parquet").unlink()
    store.write_series(run)
    stored = pq.ParquetFile(run / "latency.parquet")
    assert stored.metadata.num_row_groups == len(parts)
    latencies = store.load_latencies(run)
    for path in parts:
        cell_id, repetition = path.parent.name, int(path.name.split(".")[0][1:])
        rows = latencies[(latencies.cell_id == cell_id) & (latencies.repetition == repetition)]
        assert np.allclose(rows.latency_ms.to_numpy(), np.load(path) / 1e6)
        assert list(rows.event) == list(range(len(rows)))
        e2e = rows.e2e_ms.to_numpy()
        if path == parts[0]:
            assert list(e2e[:2]) == [2.0, 3.0] and np.isnan(e2e[2:]).all()
        else:
            assert np.isnan(e2e).all()
    assert "e2e_ms" not in store.load_latencies(tiny_run).columns  # no paced part: no column


def test_latencies_can_be_cut_to_quantiles_per_repetition(tiny_run):
    whole = store.load_latencies(tiny_run)
    cut = store.load_latencies(tiny_run, per_repetition=5)
    assert len(cut) == 8 * 5
    for key, group in whole.groupby(["cell_id", "repetition"]):
        kept = cut[(cut["cell_id"] == key[0]) & (cut["repetition"] == key[1])]["latency_ms"]
        assert kept.min() == group["latency_ms"].min() and kept.max() == group["latency_ms"].max()
        assert kept.median() == group["latency_ms"].median()  # the middle quantile of 5 is the median
    assert len(store.load_latencies(tiny_run, per_repetition=100)) == len(whole)  # short repetitions stay whole


def test_report_is_made_from_the_stored_results_alone(tiny_run, tmp_path, monkeypatch):
    copy = tmp_path / "copy"
    shutil.copytree(tiny_run, copy, ignore=shutil.ignore_patterns("parts"))  # no parts, no inputs needed
    cells = pd.read_parquet(copy / "cells.parquet")
    cells.loc[cells["engine"] == "reeval", "wall_s"] = 1000.0  # a value only the stored table holds
    cells.to_parquet(copy / "cells.parquet", index=False)
    import harness.bench.cell as cell

    monkeypatch.setattr(cell, "run_task", lambda task: pytest.fail("the report ran an engine"))
    assert main(["report", str(copy)]) == 0
    report = copy / "report"
    for name in ("summary.md", "summary.tex", "summary.csv", "cells.csv", "tables.md", "README.md",
                 "tables/throughput.tex", "tables/memory_growth.tex"):
        assert (report / name).is_file(), name
    for figure in ("throughput_vs_window", "steady_throughput_vs_window", "break_even", "latency_cdf", "rss_vs_events",
                   "rss_vs_window"):
        assert (report / f"{figure}.png").is_file() and (report / f"{figure}.pdf").is_file(), figure
    summary = pd.read_csv(report / "summary.csv")
    assert set(summary.loc[summary["engine"] == "reeval", "wall_s"]) == {1000.0}
    scan_wall = summary.set_index(["engine", "window"])["wall_s"]
    reeval = summary[summary["engine"] == "reeval"].set_index("window")
    for window, row in reeval.iterrows():
        assert row["x_scan"] == pytest.approx(1000.0 / scan_wall[("scan", window)])
    markdown = (report / "summary.md").read_text()
    assert "×scan" in markdown and "reeval" in markdown and "![break_even](break_even.png)" in markdown
    assert r"\begin{tabular}" in (report / "summary.tex").read_text()


def test_compare_of_a_run_with_itself_exits_0(tiny_run, capsys):
    assert main(["compare", str(tiny_run), str(tiny_run)]) == 0
    assert "4 same" in capsys.readouterr().out


def test_two_repetitions_cannot_prove_a_slowdown(tiny_run, tmp_path, capsys):
    slowed = tmp_path / "slowed"
    shutil.copytree(tiny_run, slowed, ignore=shutil.ignore_patterns("parts"))
    cells = pd.read_parquet(slowed / "cells.parquet")
    cells["wall_s"] *= 3
    cells.to_parquet(slowed / "cells.parquet", index=False)
    assert main(["compare", str(tiny_run), str(slowed)]) == 0
    output = capsys.readouterr().out
    assert "4 undecided" in output and "too few repetitions" in output


def test_a_rerun_skips_finished_cells(tiny_run, tmp_path):
    copy = tmp_path / "again"
    shutil.copytree(tiny_run, copy)
    before = store.load_results(copy)
    config = config_from_table(json.loads((copy / "run.json").read_text())["config"] | {"workloads": [
        {"stream": str(EXAMPLE), "queries": [str(EXAMPLE / "queries" / "chain.rq")], "windows": WINDOWS}]})
    run_bench(config, copy, show_progress=False)  # nothing left to do: no process is started
    after = store.load_results(copy)
    assert list(after["pid"]) == list(before["pid"])
    assert json.loads((copy / "run.json").read_text())["resumed"]


def test_a_different_configuration_does_not_resume_into_the_run(tiny_run):
    from common.errors import ConfigError

    config = config_from_table({"engines": ["scan"], "repetitions": 3, "min_time_s": 0, "runner": "process", "workloads": [
        {"stream": str(EXAMPLE), "queries": [str(EXAMPLE / "queries" / "chain.rq")]}]})
    with pytest.raises(ConfigError, match="different configuration"):
        run_bench(config, tiny_run, show_progress=False)


def test_figure_panels_keep_workloads_apart_but_not_scales():
    import pandas as pd

    from harness.bench.figures import with_panels

    frame = pd.DataFrame({"query": ["L1", "L1", "L1"], "dataset": ["lubm"] * 3, "scale": [2, 2, 10],
                          "event_shape": ["triples:1", "triples:20", "triples:1"], "entailment": ["none"] * 3})
    assert list(with_panels(frame)["panel"]) == ["L1 · triples:1", "L1 · triples:20", "L1 · triples:1"]
    one_shape = frame[frame["event_shape"] == "triples:1"]
    assert list(with_panels(one_shape)["panel"]) == ["L1", "L1"]


def test_cells_carry_steady_state_memory_and_passes(tiny_run):
    frame = store.load_results(tiny_run)
    assert (frame["inner_passes"] == 1).all() and (frame["window_triples"] > 0).all()
    assert (frame["steady_triples_per_s"] > 0).all() and (frame["steady_events"] < frame["events"]).all()
    rss = store.load_rss(tiny_run)
    assert rss.groupby(["cell_id", "repetition"])["events"].max().eq(41).all()  # the end of the first pass


def test_a_run_is_published_with_its_readme_and_retabled(tiny_run, tmp_path):
    folder = tmp_path / "published"
    assert main(["report", str(tiny_run), "--out", str(tmp_path / "report"), "--publish", str(folder)]) == 0
    readme = (folder / "README.md").read_text()
    assert "cgpm bench" in readme or "(not recorded)" in readme
    assert "commit" in readme and "logical CPUs" in readme and "took" in readme
    for name in ("run.json", "summary.csv", "summary.tex", "paper-tables.md", "tables/throughput.tex",
                 "throughput_vs_window.png"):
        assert (folder / name).is_file(), name
    assert not (folder / "parts").exists() and not (folder / "latency.parquet").exists()
    # the repetitions travel with the folder: a paired claim is re-judged from it alone
    repetitions = pd.read_csv(folder / "repetitions.csv")
    assert len(repetitions) == len(store.load_results(tiny_run).query("repetition != 'verify'"))
    assert {"engine", "query", "window", "repetition", "status", "wall_s"} <= set(repetitions.columns)
    (folder / "summary.tex").unlink()
    assert main(["report", str(folder), "--retable"]) == 0
    tex = (folder / "summary.tex").read_text()
    assert r"\toprule" in tex and "[" in tex  # the published summary keeps the IQR
