"""Issue 10's figures from stored runs of benchmarks/configs/sparkwave-*.toml: every number is read from the run.

Steady state: only the events after the window is full count (from the stored per-event latencies), as in
benchmarks/spectra_table1.py; a window of W ms holds W triples (1,000 triples per second of stream time). For each
(variant, window): the median events/s over repetitions with its IQR, the per-event cost, and the RSS growth per
window triple (minus scan's growth in the same cell, the harness's own). Ratios are taken per repetition (the
rounds put repetition k of every cell close in time) and summarised by median and IQR. A cell that timed out has
no steady state: its rate over the events it did process (the window's cheap fill first) is an upper bound, so
a ratio against it is a lower bound (">=").

    python benchmarks/sparkwave_results.py results/runs/sparkwave-windows
    python benchmarks/sparkwave_results.py results/runs/sparkwave-static
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench import load_results  # noqa: E402

RATE = 1000  # triples per second of stream time: a window of W ms holds W triples


def window_triples(window: str) -> int:
    return int(window.split(":")[1].removesuffix("ms")) * RATE // 1000


def variant(row) -> str:
    closed = row.query.endswith("_fc")
    stream = "closed types" if closed else "leaf types"
    return f"{row.engine} {row.entailment} ({stream})"


def steady(run: Path, row) -> tuple[float, bool]:
    """(events/s after the window filled, True), or (an upper bound from every processed event, False)."""
    path = run / "parts" / row.cell_id / f"r{row.repetition}.latency.npy"
    if not path.exists():
        return float("nan"), False
    latencies = np.load(path)
    per_event = row.triples / row.events if row.events else 1
    fill = int(np.ceil(window_triples(row.window) / per_event))
    if row.status == "ok" and len(latencies) > fill:
        tail = latencies[fill:]
        return len(tail) / (tail.sum() / 1e9), True
    return (len(latencies) / (latencies.sum() / 1e9), False) if len(latencies) else (float("nan"), False)


def collect(run: Path) -> pd.DataFrame:
    cells = load_results(run)
    cells = cells[cells.repetition.astype(str) != "verify"].copy()
    rates = [steady(run, row) for row in cells.itertuples()]
    cells["eps"] = [rate for rate, _ in rates]
    cells["exact"] = [exact for _, exact in rates]
    cells["W"] = cells.window.map(window_triples)
    cells["variant"] = [variant(row) for row in cells.itertuples()]
    cells["growth"] = cells.rss_peak_bytes - cells.rss_base_bytes
    return cells


def spread(values) -> str:
    values = np.asarray([v for v in values if np.isfinite(v)])
    if not len(values):
        return "-"
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:,.0f} [{q1:,.0f}-{q3:,.0f}]" if median >= 100 else f"{median:.2f} [{q1:.2f}-{q3:.2f}]"


def rates_table(cells: pd.DataFrame, group: str) -> str:
    columns = sorted(cells[group].unique())
    lines = ["| variant | query | " + " | ".join(f"{group}={c:,}" for c in columns) + " |",
             "|---|---|" + "---|" * len(columns)]
    for (name, query), part in cells.groupby(["variant", "query"]):
        row = []
        for column in columns:
            cell = part[part[group] == column]
            if cell.empty:
                row.append("")
            elif (cell.status == "ok").all() and cell.exact.all():
                row.append(spread(cell.eps))
            else:
                row.append(f"{','.join(sorted(set(cell.status)))} (<= {np.nanmax(cell.eps):,.0f})")
        lines.append(f"| {name} | {query} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def paired(cells: pd.DataFrame, mine: dict, theirs: dict) -> tuple[np.ndarray, bool]:
    """Per-repetition ratios mine/theirs (events/s); False when ``theirs`` did not finish (then a lower bound)."""
    def pick(selector: dict) -> pd.DataFrame:
        part = cells
        for key, value in selector.items():
            part = part[part[key] == value]
        return part.set_index("repetition")

    a, b = pick(mine), pick(theirs)
    a = a[a.exact]  # a repetition of mine that timed out has no steady state
    if a.empty or b.empty:
        return np.array([]), False
    if not b.exact.all():
        bound = np.nanmax(b.eps)
        return a.eps.to_numpy() / bound, False
    joined = a[["eps"]].join(b[["eps"]], lsuffix="_a", rsuffix="_b", how="inner")
    return (joined.eps_a / joined.eps_b).to_numpy(), True


def memory_table(cells: pd.DataFrame) -> str:
    lines = ["| variant | W | RSS growth, median MiB | scan's growth MiB | bytes per window triple |", "|---|---|---|---|---|"]
    ok = cells[cells.status == "ok"]
    scan = ok[ok.engine == "scan"].groupby("W").growth.median()
    for (name, window), part in ok[ok.engine != "scan"].groupby(["variant", "W"]):
        growth = part.growth.median()
        floor = float(scan.get(window, 0.0))
        lines.append(f"| {name} | {window:,} | {growth / 2**20:,.1f} | {floor / 2**20:,.1f} "
                     f"| {(growth - floor) / window:,.0f} |")
    return "\n".join(lines)


def windows_report(cells: pd.DataFrame) -> None:
    print("\n### Steady-state events/s (one offer per event), median [IQR] over repetitions\n")
    print(rates_table(cells, "W"))
    print("\n### Ratios (per repetition, median [IQR])\n")
    print("| ratio | window | measured | target | verdict |\n|---|---|---|---|---|")
    rdfs = {"engine": "sparkwave", "query": "P1_offer_type", "entailment": "rdfs"}
    for window in sorted(cells.W.unique()):
        for label, other in (("sparkwave rdfs / sparkwave none, closed-type stream", {
                "engine": "sparkwave", "query": "P1_offer_type_fc", "entailment": "none"}),
                ("sparkwave rdfs / sparkwave none, same leaf stream", {
                    "engine": "sparkwave", "query": "P1_offer_type", "entailment": "none"})):
            ratios, _ = paired(cells, {**rdfs, "W": window}, {**other, "W": window})
            if len(ratios):
                cost = 1 - np.median(ratios)
                print(f"| {label} | {window:,} | {spread(ratios * 100)} % (reasoning cost {cost:.0%}) "
                      f"| cost <= 25% | {'met' if cost <= 0.25 else 'MISSED'} |")
        for other in ("oxigraph", "reeval"):
            ratios, exact = paired(cells, {**rdfs, "W": window}, {**rdfs, "engine": other, "W": window})
            if len(ratios):
                target = ">= 10x" if other == "oxigraph" and window >= 100_000 else "-"
                verdict = "-" if target == "-" else ("met" if np.median(ratios) >= 10 else "not shown")
                print(f"| sparkwave / {other}, rdfs | {window:,} | {'' if exact else '>= '}{spread(ratios)}x "
                      f"| {target} | {verdict} |")
    small, large = cells.W.min(), cells.W.max()
    for name, part in cells[(cells.engine == "sparkwave") & cells.exact].groupby("variant"):
        a = part[part.W == small].set_index("repetition").eps
        b = part[part.W == large].set_index("repetition").eps
        joined = (a / b.reindex(a.index)).dropna().to_numpy()
        if len(joined):
            print(f"| per-event cost {large:,} / {small:,}, {name} ({len(joined)} pairs) | - | {spread(joined)}x | <= 1.5x "
                  f"| {'met' if np.median(joined) <= 1.5 else 'MISSED'} |")
    print("\n### Memory (Fig. 8): RSS growth over the cell per window triple (static data included in the growth)\n")
    print(memory_table(cells))


def main(run: str) -> None:
    cells = collect(Path(run))
    if cells.scale.nunique() > 1:
        print("\n### Steady-state events/s by BSBM scale (products; static triples in docs/sparkwave-results.md)\n")
        print(rates_table(cells, "scale"))
        print("\n### Reasoning cost by scale: sparkwave rdfs (leaf) / sparkwave none (closed), per repetition\n")
        print("| query | scale | rdfs/none | reasoning cost |\n|---|---|---|---|")
        for query in sorted(q for q in cells["query"].unique() if not q.endswith("_fc")):
            for scale in sorted(cells.scale.unique()):
                ratios, _ = paired(cells, {"engine": "sparkwave", "query": query, "scale": scale},
                                   {"engine": "sparkwave", "query": f"{query}_fc", "scale": scale})
                if len(ratios):
                    print(f"| {query} | {scale:,} | {spread(ratios * 100)} % | {1 - np.median(ratios):.0%} |")
    else:
        windows_report(cells)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/runs/sparkwave-windows")
