"""Repetitions collapse to one row per cell (medians of the finished ones), with ratios to the baselines measured in the same run.

Ratios are of median wall times on the same stream, query, window and entailment, measured side
by side in one run: ``x_scan`` (the cost of merely receiving the stream), ``x_oxigraph`` and
``x_reeval`` (re-evaluation; below 1 the incremental engine wins, the break-even is where it
crosses 1), and ``x_variant`` for an engine named ``BASE-suffix`` against ``BASE`` (``spectra-rev``
against ``spectra``, ``delta-generic`` against ``delta``). A ratio above 1 means slower.
"""

from __future__ import annotations

import pandas as pd

from harness.bench.matrix import KEY_COLUMNS

WORKLOAD_COLUMNS = tuple(column for column in KEY_COLUMNS if column != "engine")
RATIO_BASES = ("scan", "oxigraph", "reeval")
MEDIAN_COLUMNS = ("wall_s", "cpu_s", "triples_per_s", "events_per_s", "latency_p50_ms", "latency_p95_ms",
                  "latency_p99_ms", "latency_max_ms", "rss_base_bytes", "rss_peak_bytes", "answers", "sampler_share")


def _status(statuses: pd.Series) -> str:
    distinct = sorted(set(statuses.dropna()))
    return distinct[0] if len(distinct) == 1 else "/".join(distinct)


def per_cell(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: medians over its ``ok`` repetitions, its status(es) and verdict."""
    if cells.empty:
        return pd.DataFrame(columns=["cell_id", *KEY_COLUMNS, "repetitions", "ok", "status", "verdict", *MEDIAN_COLUMNS])
    frame = cells.copy()
    for column in MEDIAN_COLUMNS:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame["ok_flag"] = frame["status"] == "ok"
    rows = []
    for cell_id, group in frame.groupby("cell_id", sort=False):
        ok = group[group["ok_flag"]]
        row = {"cell_id": cell_id, **{column: group[column].iloc[0] for column in KEY_COLUMNS}}
        row.update(repetitions=len(group), ok=len(ok), status=_status(group["status"]),
                   verdict=group["verdict"].iloc[0], error=next((e for e in group["error"] if isinstance(e, str) and e), ""))
        for column in ("events", "triples"):
            row[column] = pd.to_numeric(group[column], errors="coerce").max()
        for column in MEDIAN_COLUMNS:
            row[column] = ok[column].median() if len(ok) else float("nan")
        rows.append(row)
    result = pd.DataFrame(rows)
    result["rss_growth_bytes"] = result["rss_peak_bytes"] - result["rss_base_bytes"]
    return add_ratios(result)


def _workload_key(frame: pd.DataFrame) -> pd.Series:
    return frame[list(WORKLOAD_COLUMNS)].astype(str).agg("|".join, axis=1)


def add_ratios(summary: pd.DataFrame) -> pd.DataFrame:
    summary = summary.copy()
    workloads = list(_workload_key(summary))
    engines = list(summary["engine"])
    walls = list(summary["wall_s"])
    wall = {}
    for workload, engine, value in zip(workloads, engines, walls):
        wall.setdefault((workload, engine), value)

    def ratio(workload: str, engine: str, value: float, base: str | None) -> float:
        if base is None or engine == base or (workload, base) not in wall:
            return float("nan")
        return value / wall[(workload, base)]

    for base in RATIO_BASES:
        summary[f"x_{base}"] = [ratio(w, e, v, base) for w, e, v in zip(workloads, engines, walls)]
    names = set(engines)
    variants = [next((base for base in sorted(names) if name != base and name.startswith(base + "-")), None)
                for name in engines]
    summary["variant_of"] = variants
    summary["x_variant"] = [ratio(w, e, v, b) for w, e, v, b in zip(workloads, engines, walls, variants)]
    return summary


def window_range_ms(window: str) -> float:
    """The window's range for plotting against window size: sliding/tumbling range; NaN for event and unbounded."""
    parts = str(window).split(":")
    if parts[0] in ("sliding", "tumbling") and len(parts) > 1:
        try:
            return float(parts[1])
        except ValueError:
            return float("nan")
    return float("nan")


def display_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The columns a reader wants, with units in the names, ratios beside the absolutes."""
    table = pd.DataFrame({
        "engine": summary["engine"],
        "dataset": summary["dataset"],
        "query": summary["query"],
        "window": summary["window"],
        "events": summary["events"],
        "runs ok": summary["ok"].astype(str) + "/" + summary["repetitions"].astype(str),
        "status": summary["status"],
        "verdict": summary["verdict"],
        "wall s": summary["wall_s"],
        "triples/s": summary["triples_per_s"],
        "p50 ms": summary["latency_p50_ms"],
        "p99 ms": summary["latency_p99_ms"],
        "peak RSS MiB": summary["rss_peak_bytes"] / 2**20,
        "×scan": summary["x_scan"],
        "×oxigraph": summary["x_oxigraph"],
        "×reeval": summary["x_reeval"],
    })
    if summary["x_variant"].notna().any():
        table["variant of"] = summary["variant_of"].fillna("")
        table["×variant"] = summary["x_variant"]
    return table
