"""An engine's own memory is its RSS growth less the floor: the growth of ``scan`` (which holds nothing) in the same cell.

A bench process grows by some tens of MiB whatever engine it runs (the interpreter's allocator, the stream reader,
the answer bookkeeping): on a fresh bench ``scan`` grows about as much as the real engines, so raw growth over the
window's triples gives every engine the same few KB per triple. The claims (``harness.claims.ratios``) and the
report (``harness.bench.summary``) both subtract the floor with these functions, so they cannot disagree. The
floor is the median growth over the baseline engine's repetitions of the same cell; a run with no ``scan`` cell
for a workload has no floor there, and its memory columns are the raw growth, marked so.
"""

from __future__ import annotations

import pandas as pd

FLOOR_ENGINE = "scan"


def rss_growth(rows: pd.DataFrame) -> pd.Series:
    """Peak RSS less the RSS before the pass, per row: the stored growth where every row has it, else peak - base."""
    if "rss_growth_bytes" in rows and rows.rss_growth_bytes.notna().all():
        return pd.to_numeric(rows.rss_growth_bytes, errors="coerce")
    return pd.to_numeric(rows.rss_peak_bytes, errors="coerce") - pd.to_numeric(rows.rss_base_bytes, errors="coerce")


def floor_bytes(baseline_rows: pd.DataFrame) -> float | None:
    """The baseline engine's median growth over its rows of one cell; None when it has no row or no measure."""
    columns = set(baseline_rows)
    if baseline_rows.empty or not ("rss_growth_bytes" in columns or {"rss_peak_bytes", "rss_base_bytes"} <= columns):
        return None
    measured = rss_growth(baseline_rows).dropna()  # a scan that timed out or failed measured no growth
    return float(measured.median()) if len(measured) else None


def over_floor(engine_rows: pd.DataFrame, baseline_rows: pd.DataFrame) -> tuple[pd.Series, float | None]:
    """The engine's growth per row less the floor of ``baseline_rows`` (the same cell's), and that floor. No baseline
    rows: the growth is raw (floor None); baseline rows that measured nothing: NaN, no floor to trust."""
    floor = floor_bytes(baseline_rows)
    subtracted = floor if floor is not None else 0.0 if baseline_rows.empty else float("nan")
    return rss_growth(engine_rows) - subtracted, floor


def add_own_memory(frame: pd.DataFrame, workload: pd.Series, floor_engine: str = FLOOR_ENGINE) -> pd.DataFrame:
    """``frame`` (repetitions or one row per cell) with ``rss_floor_bytes`` (the floor engine's growth in the row's
    workload, NaN without one), ``rss_own_bytes`` (growth less that floor, raw growth where there is none) and
    ``own_bytes_per_window_triple``; ``workload`` keys each row's cell without its engine."""
    frame = frame.copy()
    frame["rss_growth_bytes"] = rss_growth(frame)
    baseline = frame[frame["engine"] == floor_engine]
    floors = {key: floor_bytes(rows) for key, rows in baseline.groupby(workload[baseline.index], sort=False)}
    frame["rss_floor_bytes"] = pd.to_numeric(workload.map(lambda key: floors.get(key)), errors="coerce")
    frame["rss_own_bytes"] = frame["rss_growth_bytes"] - frame["rss_floor_bytes"].fillna(0.0)
    triples = pd.to_numeric(frame.get("window_triples", pd.Series(float("nan"), index=frame.index)), errors="coerce")
    frame["own_bytes_per_window_triple"] = frame["rss_own_bytes"] / triples.where(triples > 0)
    return frame
