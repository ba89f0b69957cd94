"""A report is made from a run directory's stored files alone (run.json, cells, RSS series, latencies), never by re-running.

``make_report(RUN)`` writes ``RUN/report/``: ``summary.md`` (run facts, the summary table, the
figures), ``summary.tex`` and ``summary.csv`` (the same table), ``cells.csv`` (every repetition),
and the figures of ``harness.bench.figures`` as PDF and PNG. The directory is built beside its
target and renamed into place, so a report is never half-written.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pandas as pd

from harness.bench import figures, store, tables
from harness.bench.summary import display_table, per_cell

REPORT_DIR = "report"
LATENCY_POINTS = 2000  # quantiles kept per repetition for the latency CDF: the curve, without 10^8 rows


def run_facts(info: dict) -> list[str]:
    machine, git, runner = info.get("machine", {}), info.get("git", {}), info.get("runner", {})
    config = info.get("config", {})
    commit = (git.get("commit") or "unknown")[:12] + (" (with uncommitted changes)" if git.get("dirty") else "")
    memory = machine.get("memory_bytes")
    return [
        f"- run: `{info.get('run_id')}`, created {info.get('created')}, status {info.get('status')}",
        f"- code: commit {commit}; cgpm-bench {info.get('packages', {}).get('cgpm-bench')}",
        f"- machine: {machine.get('processor')}, {machine.get('cpus_logical')} logical CPUs, "
        f"{memory / 2**30:.1f} GiB" if memory else "- machine: unknown",
        f"- load average at start: {machine.get('load_average')}",
        f"- runner: {runner.get('description')}" + (f" on {runner['spark_master']}" if runner.get("spark_master") else ""),
        f"- repetitions {config.get('repetitions')}, warm-up passes {config.get('warmup')}, time-out "
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
        caption = (f"Benchmark run {info.get('run_id')}: medians over the finished repetitions; "
                   "×B is the ratio of wall times to engine B on the same stream, query and window (above 1: slower).")
        (building / "summary.tex").write_text(tables.to_latex(table, caption=caption, label=f"tab:{info.get('run_id')}"))
        (building / "summary.md").write_text(_markdown(info, table, summary, drawn))
        _replace_dir(building, target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return target


def _markdown(info: dict, table: pd.DataFrame, summary: pd.DataFrame, drawn: dict) -> str:
    lines = [f"# Benchmark report: {info.get('run_id')}", "", *run_facts(info), "",
             "Medians over the finished repetitions of each cell. Ratios (×B) divide the median wall time by engine B's "
             "on the same stream, query, window and entailment, measured in this run (above 1: slower).", "",
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
