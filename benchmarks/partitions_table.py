"""Print the worker sweep's table (docs/partitioned-runs.md) from a published folder's repetitions.csv, nothing typed by hand.

    python benchmarks/partitions_table.py results/published/partitions-sweep

One row per engine, query and partition count: the steady-state throughput over the critical path (median and
IQR of the repetitions), its ratio to the unsplit cell's (the median of the per-round ratios: the two cells of a
round ran side by side), the slowest partition's CPU time, the updates routed to each partition and the skew
(largest over mean), the driver's merge and the whole job's time, and whether the answers' digest is the unsplit
cell's in every repetition.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd


def _spread(values: pd.Series, digits: int = 0, scale: float = 1.0) -> str:
    values = values.dropna() / scale
    if values.empty:
        return "–"
    q1, median, q3 = values.quantile([0.25, 0.5, 0.75])
    return f"{median:,.{digits}f} [{q1:,.{digits}f}–{q3:,.{digits}f}]"


def table(cells: pd.DataFrame) -> str:
    cells = cells[cells["status"] == "ok"].copy()
    cells["partitions"] = pd.to_numeric(cells["partitions"], errors="coerce").fillna(0).astype(int)
    lines = [
        "| engine | query | partitions | steady triples/s | × unsplit (per round) | slowest partition CPU s | "
        "updates per partition | skew | merge s | job s | answers as unsplit | verdict |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for (engine, query), group in cells.groupby(["engine", "query"], sort=True):
        unsplit = group[group["partitions"] == 0].set_index("repetition")
        for partitions, cell in group.groupby("partitions", sort=True):
            rounds = cell.set_index("repetition")
            ratio = (rounds["steady_triples_per_s"] / unsplit["steady_triples_per_s"]).dropna()
            same = set(cell["answer_digest"]) == set(unsplit["answer_digest"]) and len(set(cell["answer_digest"])) == 1
            if partitions == 0:
                sizes = cpu = skew = merge = job = "–"
                ratio_text = "1"
            else:
                sizes = " / ".join(f"{n:,}" for n in json.loads(cell["partition_updates"].iloc[0]))
                cpu = _spread(cell["partition_cpu_s"].map(lambda text: max(json.loads(text))), 2)
                skew = f"{pd.to_numeric(cell['partition_skew']).median():.3f}"
                merge = _spread(pd.to_numeric(cell["merge_s"]), 3)
                job = _spread(pd.to_numeric(cell["end_to_end_s"]), 1)
                ratio_text = _spread(ratio, 2)
            lines.append(
                f"| {engine} | {query} | {partitions} | {_spread(pd.to_numeric(cell['steady_triples_per_s']))} "
                f"| {ratio_text} | {cpu} | {sizes} | {skew} | {merge} | {job} | {'yes' if same else 'NO'} "
                f"| {cell['verdict'].iloc[0]} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "results/published/partitions-sweep")
    print(table(pd.read_csv(folder / "repetitions.csv")), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
