"""A run's page answers two questions at a glance, from the numbers it already shows: which engine is fastest on each
workload, and what regressed since the run before it.

"Fastest" ranks the engines of one workload (the cell's keys but the engine) by their median
throughput; ``scan``, which only receives the stream, is the floor every engine pays and is not
ranked. An engine that timed out there is named apart: it has no median to rank. "What regressed"
is the step from the benchmark's previous run on the same machine to this one, judged by
``harness.bench.history.step_changes`` (``cgpm history``'s and ``cgpm compare``'s decision; nothing
here re-judges a step): the cells it calls ``compare.REGRESSIONS``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from harness.bench.compare import REGRESSIONS
from harness.bench.summary import WORKLOAD_COLUMNS, window_range_ms

FLOOR_ENGINES = ("scan",)
METRIC = "triples_per_s"
FASTEST_COLUMNS = ["workload", "fastest", "triples/s (median)", "next", "x the next", "engines ranked", "timed out"]


def _label(row: dict, varying: list[str]) -> str:
    from harness.bench.paper import window_label

    parts = [str(row["query"]), window_label(str(row["window"]), with_slide=True)]
    return " · ".join(parts + [f"{key} {row[key]}" for key in varying])


def fastest_per_workload(summary: pd.DataFrame, metric: str = METRIC) -> pd.DataFrame:
    """A row per workload: the engine with the best median ``metric``, by how much over the next (their ratio), and
    the engines that timed out there. Empty when the run has no such measure or a single engine everywhere."""
    if metric not in summary or summary.empty or "engine" not in summary:
        return pd.DataFrame(columns=FASTEST_COLUMNS)
    from harness.bench.paper import _natural

    keys = [key for key in WORKLOAD_COLUMNS if key in summary]
    varying = [key for key in keys if key not in ("query", "window") and summary[key].nunique(dropna=False) > 1]
    ranked = summary[~summary["engine"].isin(FLOOR_ENGINES)].copy()
    ranked["_metric"] = pd.to_numeric(ranked[metric], errors="coerce")
    rows = []
    for _, part in ranked.groupby(keys, sort=False, dropna=False):
        finished = part.dropna(subset=["_metric"]).sort_values("_metric", ascending=False, kind="stable")
        out = part[part["_metric"].isna() & part["status"].astype(str).str.contains("timeout")]
        if finished.empty:
            continue
        best, runner = finished.iloc[0], (finished.iloc[1] if len(finished) > 1 else None)
        rows.append({"workload": _label(best.to_dict(), varying), "fastest": best["engine"],
                     "triples/s (median)": float(best["_metric"]),
                     "next": "" if runner is None else runner["engine"],
                     "x the next": (float(best["_metric"] / runner["_metric"]) if runner is not None
                                    and runner["_metric"] > 0 else float("nan")),
                     "engines ranked": len(finished), "timed out": ", ".join(map(str, out["engine"])),
                     "_order": (_natural(str(best["query"])), _range_ms(str(best["window"])), str(best["window"]))})
    if not rows or all(row["engines ranked"] < 2 and not row["timed out"] for row in rows):
        return pd.DataFrame(columns=FASTEST_COLUMNS)
    return pd.DataFrame(rows).sort_values("_order", kind="stable").drop(columns=["_order"]).reset_index(drop=True)


def _range_ms(window: str) -> float:
    """The window's range for ordering: 1 s before 10 s before 100 s (a window without one first)."""
    range_ms = window_range_ms(window)
    return 0.0 if range_ms is None or pd.isna(range_ms) else float(range_ms)


@dataclass(frozen=True)
class Step:
    """The step into one run from the benchmark's run before it on the same machine."""

    machine: str
    metric: str                # the measure the step was judged on
    base_run: str
    base_commit: str
    cells: int                 # cells the step compared
    regressed: pd.DataFrame    # its rows whose change is a regression
    changes: dict              # change -> cells, over every compared cell


def step_into(steps: pd.DataFrame, run_id: str, commit: str, metric: str) -> Step | None:
    """The step into the run ``(run_id, commit)`` among ``steps`` (``history.step_changes``), or None when it is the
    first run of its benchmark on its machine."""
    mine = steps[(steps["run"] == run_id) & (steps["commit"] == commit)] if len(steps) else steps
    if mine.empty:
        return None
    first = mine.iloc[0]
    regressed = mine[mine["change"].isin(REGRESSIONS)]
    return Step(str(first["machine"]), metric, str(first["base_run"]), str(first["base_commit"]), len(mine),
                regressed.reset_index(drop=True), mine["change"].value_counts().to_dict())
