"""Print the worker sweep's table (docs/partitioned-runs.md) from a published folder's repetitions.csv, nothing typed by hand.

    python benchmarks/partitions_table.py results/published/partitions-sweep

One row per engine, query and partition count: the steady-state throughput over the critical path (median and
IQR of the repetitions) and its speed-up over the unsplit cell (per round: the cells of a round ran side by side),
the critical path in CPU time (the slowest partition's loop and the merge; unsplit, the loop's) and its speed-up,
the updates routed to each partition and the skew (largest over mean), the driver's merge and the whole job's
time, and whether the answers' digest is the unsplit cell's in every repetition.
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
        "| engine | query | partitions | steady triples/s | speed-up | CPU s (critical path) | CPU speed-up | "
        "updates per partition | skew | merge ms | job s | answers as unsplit | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for (engine, query), group in cells.groupby(["engine", "query"], sort=True):
        unsplit = group[group["partitions"] == 0].set_index("repetition")
        for partitions, cell in group.groupby("partitions", sort=True):
            rounds = cell.set_index("repetition")
            # per round: the two cells of a round ran side by side, so their ratio is the least disturbed figure
            speed = (rounds["steady_triples_per_s"] / unsplit["steady_triples_per_s"]).dropna()
            cpu_speed = (unsplit["cpu_s"] / rounds["cpu_s"]).dropna()
            same = set(cell["answer_digest"]) == set(unsplit["answer_digest"]) and len(set(cell["answer_digest"])) == 1
            if partitions == 0:
                sizes = skew = merge = job = "–"
            else:
                sizes = " / ".join(f"{n:,}" for n in json.loads(cell["partition_updates"].iloc[0]))
                skew = f"{pd.to_numeric(cell['partition_skew']).median():.3f}"
                merge = _spread(pd.to_numeric(cell["merge_s"]), 1, 1e-3)
                job = _spread(pd.to_numeric(cell["end_to_end_s"]), 1)
            lines.append(
                f"| {engine} | {query} | {partitions} | {_spread(pd.to_numeric(cell['steady_triples_per_s']))} "
                f"| {_spread(speed, 2)} | {_spread(pd.to_numeric(cell['cpu_s']), 3)} | {_spread(cpu_speed, 2)} "
                f"| {sizes} | {skew} | {merge} | {job} | {'yes' if same else 'NO'} | {cell['verdict'].iloc[0]} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "results/published/partitions-sweep")
    print(table(pd.read_csv(folder / "repetitions.csv")), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
