"""The bytes-per-window-triple table of a footprint run is made from its results alone: each engine's growth, and over scan's.

An engine's RSS growth in a cell (peak minus the baseline taken just before its first event) holds
its window state and the streaming reader's own bounded memory (one batch, the term cache); ``scan``
keeps no state, so its growth in the same cell is that floor. The table gives, per engine and window,
the median [IQR] over the repetitions of the growth per distinct window triple, and of the growth
over the median of ``scan``'s in the same cell (the engine's own state).

    python -m benchmarks.footprint_table results/runs/footprint > results/published/streaming/footprint.md
"""

from __future__ import annotations

import sys

import numpy as np


def table(run_dir: str) -> str:
    from harness.bench.store import load_results

    frame = load_results(run_dir)
    frame = frame[frame["status"] == "ok"].copy()
    frame["growth"] = frame["rss_peak_bytes"] - frame["rss_base_bytes"]
    keys = ["dataset", "query", "window"]
    floor = frame[frame["engine"] == "scan"].groupby(keys)["growth"].median().rename("floor")
    frame = frame.join(floor, on=keys)
    lines = ["| engine | dataset | query | window | window triples | bytes per window triple | over scan's growth | n |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    for (engine, dataset, query, window), cell in frame.groupby(["engine", *keys], sort=False):
        triples = int(cell["window_triples"].median())
        raw = cell["growth"] / triples
        net = (cell["growth"] - cell["floor"]) / triples
        lines.append(f"| {engine} | {dataset} | {query} | {window} | {triples:,} | {_spread(raw)} | "
                     f"{'' if engine == 'scan' else _spread(net)} | {len(cell)} |")
    return "\n".join(lines) + "\n"


def _spread(values) -> str:
    low, middle, high = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    return f"{middle:,.0f} [{low:,.0f}-{high:,.0f}]"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m benchmarks.footprint_table RUN_DIR", file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(table(sys.argv[1]))
