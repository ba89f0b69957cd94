"""Issue 5's figures from one stored run of benchmarks/configs/spectra-table1.toml: every number is read from the run.

Prints (Markdown) the Table 1 layout (median triples/s over repetitions, L-queries x windows, per engine) twice:
as the harness measures it (the whole cell: the window's fill plus the sliding tail) and at steady state (only
the events after the window is full: the runner's ``steady_triples_per_s``, or for older runs the same computation
on the stored per-event latencies); ``cgpm report`` prints the same tables with their IQR (``tables.md``); then the issue's ratios, side by side
from that run: spectra/spectra-rev and spectra/oxigraph at 10^5 triples on L1, L3, L7; the break-even window of
S-Inc over S-Rev on L5 and L7; RSS growth against window size and bytes per retained triple; spectra against scan
on the selective queries L4, L5, L6.

A cell that timed out has no throughput of its own; its events processed before the time-out (at the window's
cheap, filling start) give an upper bound on its throughput, so a ratio against it is a lower bound (">=").

    python benchmarks/spectra_table1.py results/runs/spectra-table1
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench import load_results  # noqa: E402
from harness.bench.steady import steady_rates  # noqa: E402

ENGINES = ["spectra", "spectra-rev", "spectra-rev-onchange", "reeval", "oxigraph", "scan"]
NON_SELECTIVE, SELECTIVE = ["L1", "L3", "L7"], ["L4", "L5", "L6"]
LARGE = (100_000, 1_000_000)  # "at windows of 10^5 triples and more"
RATE = 1000  # triples per second of stream time, as the config generates them: a window of W ms holds W triples


def window_triples(window: str) -> int:
    """Triples a ``sliding:RANGE:SLIDE`` window (RANGE in ms) holds at the config's rate."""
    return int(window.split(":")[1]) * RATE // 1000


def label(window: int) -> str:
    """10^k for a power of ten, else the count (the tumbling run's 50,000)."""
    exponent = int(round(np.log10(window)))
    return f"10^{exponent}" if 10**exponent == window else f"{window:,}"


def triples_per_event(shape: str) -> int:
    return int(shape.split(":")[1]) if shape.startswith("triples:") else 1


def steady_rate(run: Path, row) -> tuple[float, bool]:
    """(triples/s over the events after the window filled, True) or, for a cell that never got there or timed out,
    (an upper bound from every event it processed, False).

    The runner records the steady-state rate itself (``steady_triples_per_s``, ``harness.bench.steady``); a run
    older than that column is read back from its stored per-event latencies with the same function."""
    recorded = getattr(row, "steady_triples_per_s", None)
    if row.status == "ok" and recorded is not None and np.isfinite(recorded):
        return float(recorded), True
    path = run / "parts" / row.cell_id / f"r{row.repetition}.latency.npy"
    if not path.exists():
        return float("nan"), False
    latencies_ns = np.load(path)[: int(row.events)]  # the first pass
    per_event = triples_per_event(row.event_shape)
    fill_events = window_triples(row.window) // per_event  # at the config's rate, the runner's fill_index
    rates = steady_rates(latencies_ns, np.full(len(latencies_ns), per_event), fill_events)
    if row.status == "ok" and rates["steady_triples_per_s"] is not None:
        return float(rates["steady_triples_per_s"]), True
    if len(latencies_ns) == 0:
        return float("nan"), False
    return len(latencies_ns) * per_event / (latencies_ns.sum() / 1e9), False


def collect(run: Path) -> pd.DataFrame:
    cells = load_results(run)
    cells = cells[cells.repetition.astype(str) != "verify"].copy()
    rates = [steady_rate(run, row) for row in cells.itertuples()]
    cells["steady_tps"] = [rate for rate, _ in rates]
    cells["steady_exact"] = [exact for _, exact in rates]
    cells["workload"] = np.where(cells.event_shape == "triples:1", "S-Inc-1", "S-Inc-20")
    cells["W"] = cells.window.map(window_triples)
    return cells


def medians(cells: pd.DataFrame) -> pd.DataFrame:
    keys = ["workload", "engine", "query", "W"]
    return cells.groupby(keys).agg(
        status=("status", lambda s: "ok" if (s == "ok").all() else ",".join(sorted(set(s)))),
        tps=("triples_per_s", "median"), steady=("steady_tps", "median"), exact=("steady_exact", "all"),
        reps=("repetition", "count")).reset_index()


def fmt(value: float, status: str, exact: bool = True) -> str:
    if status != "ok":
        return status if not np.isfinite(value) else f"{status} (<={value:,.0f})"
    return f"{value:,.0f}" if exact else f"~{value:,.0f}"


def table(summary: pd.DataFrame, workload: str, column: str) -> str:
    part = summary[summary.workload == workload]
    windows = sorted(part.W.unique())
    lines = ["| engine | query | " + " | ".join(label(w) for w in windows) + " |",
             "|---|---|" + "---|" * len(windows)]
    for engine in [engine for engine in ENGINES if engine in set(part.engine)]:
        for query in sorted(part["query"].unique()):
            cells = []
            for window in windows:
                row = part[(part.engine == engine) & (part["query"] == query) & (part.W == window)]
                if row.empty:
                    cells.append("")
                    continue
                row = row.iloc[0]
                if column == "tps":
                    cells.append(fmt(row.tps, row.status))
                else:
                    cells.append(fmt(row.steady, row.status, bool(row.exact)))
            lines.append(f"| {engine} | {query} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def rate_of(summary: pd.DataFrame, workload: str, engine: str, query: str, window: int) -> tuple[float, bool]:
    row = summary[(summary.workload == workload) & (summary.engine == engine) & (summary["query"] == query)
                  & (summary.W == window)]
    if row.empty:
        return float("nan"), False
    row = row.iloc[0]
    return float(row.steady), row.status == "ok" and bool(row.exact)


def round_ratios(cells: pd.DataFrame, workload: str, numerator: str, denominator: str, query: str,
                 window: int) -> str:
    """Median [IQR] of numerator/denominator steady-state throughput, repetition k against repetition k.

    The runner interleaves the engines in rounds (repetition k of every cell before k+1), so a pair of the same
    round shared the machine's condition; the spread of these per-round ratios is the ratio's own spread."""
    def by_round(engine: str) -> pd.Series:
        part = cells[(cells.workload == workload) & (cells.engine == engine) & (cells["query"] == query)
                     & (cells.W == window) & (cells.status == "ok") & cells.steady_exact]
        return part.set_index(part.repetition.astype(int)).steady_tps
    ratios = (by_round(numerator) / by_round(denominator)).dropna()
    if len(ratios) < 2:
        return "-"
    low, mid, high = np.percentile(ratios, [25, 50, 75])
    return f"{mid:.2f} [{low:.2f}-{high:.2f}] (n={len(ratios)})"


def ratio_line(summary: pd.DataFrame, workload: str, query: str, other: str, window: int,
               target: float | None, cells: pd.DataFrame) -> str | None:
    mine, mine_exact = rate_of(summary, workload, "spectra", query, window)
    theirs, theirs_exact = rate_of(summary, workload, other, query, window)
    if not (np.isfinite(mine) and np.isfinite(theirs)):
        return None  # a cell this run did not have
    ratio = mine / theirs
    bound = "" if theirs_exact else ">= "  # a timed-out other engine's rate is an upper bound
    if target is None:
        goal, verdict = "none (beyond the paper)", "-"
    else:
        goal, verdict = f">= {target:g}x", "met" if ratio >= target else ("not shown" if bound else "MISSED")
    return (f"| {workload} | {query} | {label(window)} | spectra/{other} | {mine:,.0f} / {theirs:,.0f} "
            f"| {bound}{ratio:.1f}x | {round_ratios(cells, workload, 'spectra', other, query, window)} "
            f"| {goal} | {verdict} |")


def break_even(summary: pd.DataFrame, query: str, rev: str) -> str | None:
    windows = sorted(summary[summary.workload == "S-Inc-1"].W.unique())
    ratios = []
    for window in windows:
        inc, _ = rate_of(summary, "S-Inc-1", "spectra", query, window)
        theirs, exact = rate_of(summary, "S-Inc-1", rev, query, window)
        if np.isfinite(inc / theirs):
            ratios.append((window, inc / theirs, exact))
    if not ratios:
        return None
    first_stable = next((w for w, _, _ in ratios if all(r >= 1.0 for v, r, _ in ratios if v >= w)), None)
    shown = ", ".join(f"{label(w)}: {'' if exact else '>= '}{r:.2f}x" for w, r, exact in ratios)
    first = label(first_stable) if first_stable else "none"
    verdict = "met" if first_stable and first_stable <= 10_000 else "MISSED"
    return f"| {query} | {rev} | {shown} | {first} | {verdict if rev == 'spectra-rev' else '-'} |"


def memory(cells: pd.DataFrame) -> str:
    # scan's growth over the same cell is the harness's own (the per-event latency list, ~40 B an event): subtracted
    lines = ["| engine | query | window (triples) | RSS growth, median | scan's growth, same cell | retained triples "
             "| bytes per retained triple (growth - scan's) |", "|---|---|---|---|---|---|---|"]
    one = cells[(cells.workload == "S-Inc-1") & (cells.status == "ok")]
    growth_of = (one.rss_peak_bytes - one.rss_base_bytes).groupby([one.engine, one["query"], one.W]).median()
    for (engine, query, window), group in one[one.engine.isin(["spectra", "spectra-rev"])].groupby(
            ["engine", "query", "W"]):
        if query not in ("L1", "L3", "L7", "L5"):
            continue
        growth = float(growth_of[(engine, query, window)])
        floor = float(growth_of.get(("scan", query, window), 0.0))
        retained = json.loads(group.stats.iloc[0]).get("window_triples", 0)
        per_retained = f"{(growth - floor) / retained:,.0f}" if retained else "-"
        lines.append(f"| {engine} | {query} | {label(window)} | {growth / 2**20:,.1f} MiB "
                     f"| {floor / 2**20:,.1f} MiB | {retained:,} | {per_retained} |")
    return "\n".join(lines)


def main(run: str) -> None:
    run_dir = Path(run)
    cells = collect(run_dir)
    summary = medians(cells)
    for workload in sorted(summary.workload.unique()):
        print(f"\n### {workload}: triples/s over the whole cell (fill + slide), median of repetitions\n")
        print(table(summary, workload, "tps"))
        print(f"\n### {workload}: triples/s at steady state (events after the window is full), median\n")
        print(table(summary, workload, "steady"))
    print("\n### Ratios at 10^5 and 10^6 triples, steady state, non-selective queries\n")
    print("| workload | query | window | ratio | triples/s | measured (of medians) | per round, median [IQR] "
          "| target | verdict |\n|---|---|---|---|---|---|---|---|---|")
    for workload in sorted(summary.workload.unique()):
        for window in LARGE:
            for query in NON_SELECTIVE:
                for other, target in (("spectra-rev", 3), ("oxigraph", 10), ("spectra-rev-onchange", None)):
                    line = ratio_line(summary, workload, query, other, window, target, cells)
                    if line:
                        print(line)
    print("\n### Break-even of S-Inc over S-Rev (steady-state spectra/S-Rev per window; target <= 10^4)\n")
    print("| query | against | spectra/against by window | break-even (first window from which S-Inc stays ahead) "
          "| verdict |\n|---|---|---|---|---|")
    for query in ("L5", "L7"):
        for rev in ("spectra-rev", "spectra-rev-onchange"):
            line = break_even(summary, query, rev)
            if line:
                print(line)
    print("\n### spectra against scan on the selective queries (scan/spectra, steady state; target <= 3x)\n")
    print("| query | window | scan | spectra | scan/spectra | per round, median [IQR] | verdict |\n"
          "|---|---|---|---|---|---|---|")
    for query in SELECTIVE:
        for window in sorted(summary[summary.workload == "S-Inc-1"].W.unique()):
            scan, _ = rate_of(summary, "S-Inc-1", "scan", query, window)
            mine, _ = rate_of(summary, "S-Inc-1", "spectra", query, window)
            if not (np.isfinite(scan) and np.isfinite(mine)):
                continue
            factor = scan / mine
            print(f"| {query} | {label(window)} | {scan:,.0f} | {mine:,.0f} | {factor:.1f}x "
                  f"| {round_ratios(cells, 'S-Inc-1', 'scan', 'spectra', query, window)} "
                  f"| {'met' if factor <= 3 else 'MISSED'} |")
    print("\n### Memory (Fig. 9): RSS growth over the cell against window size\n")
    print(memory(cells))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/runs/spectra-table1")
