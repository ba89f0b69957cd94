"""Tables carry each measure's spread, the paper's layout has no status columns, and every engine looks the same in every figure."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from harness.bench import paper
from harness.bench.provenance import command_text, readme_text
from harness.bench.style import KNOWN, compact_number, engine_style, spans_decades
from harness.bench.summary import display_table, per_cell
from harness.bench.tables import spread_text

KEY = {"dataset": "lubm", "scale": 1, "event_shape": "triples:1", "entailment": "none", "max_events": 0}


def _cells() -> pd.DataFrame:
    rows = []
    for engine, base in (("spectra", 1.0), ("reeval", 4.0)):
        for window in ("sliding:1000:1", "sliding:10000:1"):
            for query in ("L1", "L2"):
                for repetition in range(5):
                    rows.append({**KEY, "cell_id": f"{engine}-{query}-{window}", "engine": engine, "query": query,
                                 "window": window, "repetition": repetition, "status": "ok", "verdict": "not checked",
                                 "error": "", "events": 100, "triples": 100, "wall_s": base + repetition,
                                 "triples_per_s": 100 / (base + repetition), "steady_triples_per_s": 50.0,
                                 "rss_base_bytes": 100 * 2**20, "rss_peak_bytes": (100 + 1 + repetition) * 2**20,
                                 "window_triples": 2**10, "short": False})
    rows.append({**KEY, "cell_id": "reeval-L1-big", "engine": "reeval", "query": "L1", "window": "sliding:100000:1",
                 "repetition": 0, "status": "timeout", "verdict": "not checked", "error": "passed its time-out",
                 "events": 100, "triples": 100})
    rows.append({**KEY, "cell_id": "spectra-L1-big", "engine": "spectra", "query": "L1", "window": "sliding:100000:1",
                 "repetition": 0, "status": "ok", "verdict": "not checked", "error": "", "events": 100, "triples": 100,
                 "wall_s": 2.0, "triples_per_s": 50.0, "rss_base_bytes": 0, "rss_peak_bytes": 2**20,
                 "window_triples": 1, "short": True})
    return pd.DataFrame(rows)


def test_per_cell_keeps_the_interquartile_range_and_memory_per_triple():
    summary = per_cell(_cells()).set_index("cell_id")
    cell = summary.loc["spectra-L1-sliding:1000:1"]
    assert cell["wall_s"] == 3.0 and cell["wall_s_q1"] == 2.0 and cell["wall_s_q3"] == 4.0  # 1..5
    assert cell["rss_growth_bytes"] == 3 * 2**20
    assert cell["bytes_per_window_triple"] == pytest.approx(3 * 2**20 / 2**10)
    assert summary.loc["spectra-L1-big", "short"] == True  # noqa: E712 (numpy bool)


def _with_scan(cells: pd.DataFrame, scan_growth_mib: float) -> pd.DataFrame:
    """``cells`` plus a scan cell (growth ``scan_growth_mib``) beside every workload of theirs."""
    scans = cells[cells["engine"] == "spectra"].copy()
    scans["engine"] = "scan"
    scans["cell_id"] = "scan-" + scans["cell_id"]
    scans["rss_peak_bytes"] = scans["rss_base_bytes"] + scan_growth_mib * 2**20
    return pd.concat([cells, scans], ignore_index=True)


def test_the_report_gives_the_engines_own_memory_over_scans_growth_in_the_same_cell():
    from harness.bench.memory_floor import over_floor

    cells = _with_scan(_cells(), scan_growth_mib=0.5)
    summary = per_cell(cells).set_index("cell_id")
    cell = summary.loc["spectra-L1-sliding:1000:1"]
    assert cell["rss_growth_bytes"] == 3 * 2**20  # raw growth kept in summary.csv
    assert cell["rss_floor_bytes"] == 0.5 * 2**20
    assert cell["rss_own_bytes"] == 2.5 * 2**20
    assert cell["own_bytes_per_window_triple"] == pytest.approx(2.5 * 2**20 / 2**10)
    # the claims' function on the same repetitions gives the same numbers
    mine = cells[cells["cell_id"] == "spectra-L1-sliding:1000:1"]
    own, floor = over_floor(mine, cells[cells["cell_id"] == "scan-spectra-L1-sliding:1000:1"])
    assert floor == 0.5 * 2**20 and own.median() == cell["rss_own_bytes"]
    table = display_table(per_cell(cells))
    assert "2.50 [1.50–3.50]" in set(table["own RSS MiB"]) and not any(str(t).endswith("raw") for t in table["own RSS MiB"])
    memory = next(t for t in paper.paper_tables(per_cell(cells), repetitions=5) if t.metric == "memory_growth")
    assert "less scan's" in memory.title and "raw" not in memory.title
    assert ["spectra", "L1", "2.50 [1.50–3.50]"] == next(row for row in memory.rows if row[:2] == ["spectra", "L1"])[:3]


def test_without_a_scan_cell_the_memory_columns_say_they_are_raw_growth():
    summary = per_cell(_cells())
    table = display_table(summary)
    assert "3.00 [2.00–4.00] raw" in set(table["own RSS MiB"])
    memory = next(t for t in paper.paper_tables(summary, repetitions=5) if t.metric == "memory_growth")
    assert "raw" in memory.title


def test_display_table_prints_median_and_iqr():
    table = display_table(per_cell(_cells()))
    assert "3.00 [2.00–4.00]" in set(table["wall s"])
    assert "peak RSS MiB" not in table and "own RSS MiB" in table and "own B/window triple" in table
    assert any(text.endswith("short") for text in table["runs ok"])
    assert spread_text(float("nan"), 1, 2) == "–"


def test_paper_tables_have_engines_and_queries_by_windows_without_status_columns():
    made = paper.paper_tables(per_cell(_cells()), repetitions=5, timeout_s=15, min_time_s=1)
    metrics = {table.metric for table in made}
    assert {"throughput", "memory_growth", "bytes_per_triple"} <= metrics
    assert "latency_p99" not in metrics  # not measured here: no table
    throughput = next(table for table in made if table.metric == "throughput")
    assert throughput.row_names == ["engine", "query"]
    assert throughput.columns == ["1 s", "10 s", "100 s"]  # ordered by size, one slide: said in the title
    assert "sliding by 1 ms" in throughput.title
    reeval_l1 = next(row for row in throughput.rows if row[:2] == ["reeval", "L1"])
    assert reeval_l1[-1] == "–^a" and throughput.notes[0] == "a: did not finish within the time-out of 15 s"
    spectra_l1 = next(row for row in throughput.rows if row[:2] == ["spectra", "L1"])
    assert spectra_l1[-1].endswith("†")
    latex = paper.to_latex(throughput, "tab:x")
    assert r"\toprule" in latex and r"\bottomrule" in latex and "status" not in latex.lower()
    assert r"--\textsuperscript{a}" in latex and r"\textsuperscript{\dag}" in latex
    assert latex.count("&") // (len(throughput.rows) + 1) <= 4  # engine, query and three windows: 4 separators a row
    assert "|" in paper.to_markdown(throughput) and "–a" in paper.to_markdown(throughput)


def test_window_labels_say_the_slide_when_columns_differ():
    assert paper.window_label("sliding:1000:1", with_slide=False) == "1 s"
    assert paper.window_label("sliding:2000:500", with_slide=True) == "2 s / 500 ms"
    assert paper.window_label("tumbling:10000", with_slide=False) == "tumbling 10 s"
    assert paper.window_label("event", with_slide=True) == "event"


def test_engine_styles_are_fixed_and_deterministic():
    assert engine_style("spectra") == KNOWN["spectra"]
    assert engine_style("sparkwave") == KNOWN["sparkwave"]
    variant = engine_style("tpjoin-event")
    assert variant.colour == KNOWN["tpjoin"].colour and variant.linestyle == "--"
    assert engine_style("tpjoin-event") == variant  # the same in every call (and every process: sha1, not hash)
    assert engine_style("brandnew").colour == engine_style("brandnew-x").colour
    colours = {KNOWN[name].colour + KNOWN[name].marker for name in KNOWN}
    assert len(colours) == len(KNOWN)  # no two known engines look alike


def test_one_tick_format_everywhere():
    assert [compact_number(v) for v in (0.5, 20, 1000, 25_000, 1e7)] == ["0.5", "20", "1k", "25k", "10M"]
    assert spans_decades([1, 10]) and not spans_decades([1, 9]) and not spans_decades([5])


def test_readme_names_the_command_commit_machine_and_duration():
    info = {"run_id": "r", "command": ["/venv/bin/cgpm", "bench", "c.toml", "--out", "results/runs/r"],
            "git": {"commit": "abc123def4567890", "dirty": False}, "created": "2026-01-01T10:00:00+00:00",
            "finished": "2026-01-01T10:21:00+00:00", "machine": {"processor": "AMD EPYC", "cpus_logical": 2,
                                                                  "memory_bytes": 24 * 2**30, "load_average": [2.0, 1.0, 1.0]},
            "config": {"repetitions": 5, "min_time_s": 1.0, "parallel": 1}, "runner": {"name": "spark"}}
    text = readme_text(info)
    assert "cgpm bench c.toml --out results/runs/r" in text and "cgpm report results/runs/r" in text
    assert "abc123def4567890" in text and "AMD EPYC, 2 logical CPUs, 24 GiB" in text and "21 min" in text
    assert command_text(["/x/harness/__main__.py", "bench", "a b.toml"]) == "cgpm bench 'a b.toml'"
    json.dumps(info)  # what run.json holds
    assert "resumed" not in text
    resumed = readme_text({**info, "git_at_start": {"commit": "0123456789abcdef"}})
    assert "abc123def4567890`; resumed with it, begun at `0123456789abcdef`" in resumed


def test_figures_draw_each_engine_in_its_own_style_with_every_window_labelled(monkeypatch, tmp_path):
    from matplotlib.colors import to_hex

    from harness.bench import figures

    drawn = {}
    monkeypatch.setattr(figures, "_save", lambda figure, directory, name, title, *formats: drawn.setdefault(name, figure) and [name])
    summary = per_cell(_cells())
    figures.throughput_vs_window(summary, tmp_path)
    figure = drawn["throughput_vs_window"]
    axis = figure.axes[0]
    colours = {container.get_label(): to_hex(container.lines[0].get_color()) for container in axis.containers}
    assert colours["spectra"] == KNOWN["spectra"].colour.lower() and colours["reeval"] == KNOWN["reeval"].colour.lower()
    assert [label.get_text() for label in axis.get_xticklabels()] == ["1 s", "10 s", "100 s"]
    assert axis.get_xscale() == "log"  # 1 s to 100 s: two decades
    assert figure.get_layout_engine() is not None  # constrained layout: tick labels never run into the next panel


def _wide_cells() -> pd.DataFrame:
    """Every engine's name, long windows and a verdict in each cell: what the demo's table holds."""
    from engines.registry import known_engines

    rows = []
    for engine in known_engines():
        for window in ("sliding:1000:100", "sliding:2000:500"):
            for repetition in range(3):
                rows.append({**KEY, "cell_id": f"{engine}-{window}", "engine": engine, "query": "L6", "window": window,
                             "repetition": repetition, "status": "ok", "verdict": "not checked (timeout)", "error": "",
                             "events": 600, "triples": 4000, "wall_s": 1.23456 + repetition,
                             "triples_per_s": 1234567.0 + repetition, "latency_p99_ms": 12.3456 + repetition,
                             "rss_base_bytes": 100 * 2**20, "rss_peak_bytes": 200 * 2**20 + repetition,
                             "window_triples": 2**10, "short": False})
    return pd.DataFrame(rows)


def test_the_terminal_table_fits_120_columns_and_the_report_keeps_every_column():
    from harness.bench.summary import terminal_table
    from harness.bench.tables import to_text

    summary = per_cell(_wide_cells())
    text = to_text(terminal_table(summary))
    assert max(len(line) for line in text.splitlines()) <= 120, text
    assert {"engine", "query", "window", "status", "verdict", "wall s"} <= set(terminal_table(summary).columns)
    assert max(len(line) for line in to_text(display_table(summary)).splitlines()) > 120


def test_one_repetition_prints_no_range():
    one = _cells()
    one = one[one["repetition"] == 0]
    table = display_table(per_cell(one))
    assert not any("[" in text for text in table["wall s"]), list(table["wall s"])
