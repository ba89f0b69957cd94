"""A report is made from a run directory's stored files alone (run.json, cells, RSS series, latencies), never by re-running.

``make_report(RUN)`` writes ``RUN/report/``: ``summary.md`` (run facts, the summary table with
each measure's median and IQR, the figures), ``summary.csv`` (every summary column),
``cells.csv`` (every repetition), ``tables.md`` and ``summary.tex`` (a table per metric in the
paper's layout, ``harness.bench.paper``; also one ``tables/METRIC.tex`` each), ``README.md`` (the
command that rebuilds the run, the commit, the machine, how long it took), and the figures of
``harness.bench.figures`` as PDF and PNG. The directory is built beside its
target and renamed into place, so a report is never half-written.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pandas as pd

from harness.bench import figures, paper, store, tables
from harness.bench.provenance import load_text, readme_text
from harness.bench.summary import MEMORY_LEGEND, display_table, per_cell

REPORT_DIR = "report"
LATENCY_POINTS = 2000  # quantiles kept per repetition for the latency CDF: the curve, without 10^8 rows


def run_facts(info: dict) -> list[str]:
    machine, git, runner = info.get("machine", {}), info.get("git", {}), info.get("runner", {})
    config = info.get("config", {})
    commit = (git.get("commit") or "not recorded")[:12] + (" (with uncommitted changes)" if git.get("dirty") else "")
    memory = machine.get("memory_bytes")
    return [
        f"- run: `{info.get('run_id')}`, created {info.get('created')}, status {info.get('status')}",
        f"- code: commit {commit}; cgpm-bench {info.get('packages', {}).get('cgpm-bench')}",
        f"- machine: {machine.get('processor')}, {machine.get('cpus_logical')} logical CPUs, "
        f"{memory / 2**30:.1f} GiB" if memory else "- machine: not recorded",
        f"- load average at start: {load_text(machine)}",
        f"- runner: {runner.get('description')}" + (f" on {runner['spark_master']}" if runner.get("spark_master") else ""),
        f"- repetitions {config.get('repetitions')}, warm-up passes {config.get('warmup')}, timed loop of at least "
        f"{config.get('min_time_s', 0)} s per repetition (short cells repeated in their process), "
        + (f"rate-paced at {config.get('rate')} events/s, " if config.get("rate") else "") + "time-out "
        f"{config.get('timeout_s')} s, memory cap {config.get('memory_mb')} MiB, RSS sampled at {config.get('rss_hz')} Hz",
    ]


def make_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Write the report of ``run_dir`` (into ``RUN/report`` unless ``out`` is given); returns its directory."""
    run_dir = Path(run_dir)
    info = store.read_run_info(run_dir)
    cells = store.load_results(run_dir)
    rss, latencies = store.load_rss(run_dir), store.load_latencies(run_dir, per_repetition=LATENCY_POINTS)
    target = Path(out) if out is not None else run_dir / REPORT_DIR
    target.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=target.parent))
    try:
        summary = per_cell(cells)
        table = display_table(summary)
        drawn = figures.draw_all(summary, rss, latencies, building)
        (building / "summary.csv").write_text(tables.to_csv(summary.drop(columns=["error"], errors="ignore")))
        (building / "cells.csv").write_text(tables.to_csv(cells))
        _paper_tables(info, summary, building)
        (building / "summary.md").write_text(_markdown(info, table, summary, drawn))
        (building / "README.md").write_text(readme_text(info, contents="this report"))
        _replace_dir(building, target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return target


def _paper_tables(info: dict, summary: pd.DataFrame, directory: Path) -> None:
    config = info.get("config", {})
    made = paper.paper_tables(summary, repetitions=config.get("repetitions"), timeout_s=config.get("timeout_s"),
                              min_time_s=config.get("min_time_s"), engines=list(config.get("engines") or []))
    (directory / "tables").mkdir()
    run_id = str(info.get("run_id"))
    latex, markdown, by_metric = [], [f"# Tables of {run_id}", ""], {}
    for number, table in enumerate(made, start=1):
        text = paper.to_latex(table, label=f"tab:{run_id}:{table.metric}:{number}")
        by_metric.setdefault(table.metric, []).append(text)
        latex.append(text)
        markdown.append(paper.to_markdown(table))
    for metric, texts in by_metric.items():
        (directory / "tables" / f"{metric}.tex").write_text("\n".join(texts))
    (directory / "summary.tex").write_text("% needs \\usepackage{booktabs}\n" + "\n".join(latex))
    (directory / "tables.md").write_text("\n".join(markdown))


def _markdown(info: dict, table: pd.DataFrame, summary: pd.DataFrame, drawn: dict) -> str:
    lines = [f"# Benchmark report: {info.get('run_id')}", "", *run_facts(info), "",
             "Each measure is the median over the finished repetitions of its cell, with the interquartile range in "
             "brackets [q1–q3]. `short`: the timed loop stayed below min_time_s even after the most passes allowed. "
             "Steady state counts only the events after the window is full. Ratios (×B) divide the median wall time by "
             "engine B's on the same stream, query, window and entailment, measured in this run (above 1: slower). "
             "The same measures, a table per metric in the paper's layout: `tables.md`, `summary.tex`. " + MEMORY_LEGEND, "",
             tables.to_markdown(table)]
    problems = summary[summary["status"] != "ok"]
    if len(problems):
        lines += ["## Cells that did not finish every repetition", ""]
        lines += [f"- `{row.engine}` on {row.query} [{row.window}]: {row.status}: {row.error}" for row in problems.itertuples()]
        lines.append("")
    lines += ["## Figures", ""]
    for name, result in drawn.items():
        if isinstance(result, str):
            lines.append(f"- {name}: not drawn ({result})")
        else:
            png = next(file for file in result if file.endswith(".png"))
            lines.append(f"![{name}]({png}) ({', '.join(result)})")
    share = summary["sampler_share"].dropna()
    if len(share):
        lines += ["", f"RSS sampler: at most {100 * share.max():.2f}% of one CPU in any cell (median {100 * share.median():.2f}%)."]
    return "\n".join(lines) + "\n"


def _replace_dir(built: Path, target: Path) -> None:
    if target.exists():
        old = target.with_name(f".{target.name}.old-{built.name[-8:]}")
        target.rename(old)
        built.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        built.rename(target)
