"""A published folder is read as one table of cell rows: a row per repetition when it keeps them, else a median per cell.

A folder is ``DIR/`` holding ``run.json`` with ``repetitions.csv`` (one row per cell repetition) or, from before
repetitions were published, ``summary.csv`` (medians); or a name prefix ``DIR/NAME`` for folders that keep
several runs side by side (``NAME.run.json``, ``NAME.repetitions.csv``; or ``NAME-run.json``, ``NAME-cells.csv``). A run directory (``cgpm bench --out``)
is read through ``harness.bench.store`` and always has its repetitions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd  # CSVs are read with float_precision="round_trip": a published value reads back as it was written

REPETITIONS = "repetitions.csv"
TEXT_COLUMNS = {"answer_digest": str}  # 16 hex digits, some all decimal: read as text, never as a number


@dataclass(frozen=True)
class Cells:
    rows: pd.DataFrame        # columns: engine, status, repetition and the cell keys and measures
    per_repetition: bool      # False: one median row per cell (repetition -1)
    timeout_s: float | None
    source: Path


def load_cells(path: Path) -> Cells | None:
    """The cells of a published folder or run directory; None when there is nothing at ``path``."""
    if (path / "cells.parquet").is_file():
        from harness.bench.store import load_results

        return _cells(load_results(path), True, _timeout(path / "run.json"), path)
    if path.is_dir():
        run_json, repetitions, summary = path / "run.json", path / REPETITIONS, path / "summary.csv"
    else:
        prefix = path.parent / path.name
        run_json, repetitions = Path(f"{prefix}.run.json"), Path(f"{prefix}.{REPETITIONS}")
        if not repetitions.is_file():  # results/published/streaming names its cells NAME-cells.csv
            run_json, repetitions = Path(f"{prefix}-run.json"), Path(f"{prefix}-cells.csv")
        summary = Path(f"{prefix}.summary.csv")
    if repetitions.is_file():
        return _cells(pd.read_csv(repetitions, float_precision="round_trip", dtype=TEXT_COLUMNS), True,
                      _timeout(run_json), path)
    if summary.is_file():
        medians = pd.read_csv(summary, float_precision="round_trip")
        medians["repetition"] = -1
        return _cells(medians, False, _timeout(run_json), path)
    return None


def _cells(rows: pd.DataFrame, per_repetition: bool, timeout_s: float | None, source: Path) -> Cells:
    rows = rows[rows["repetition"].astype(str) != "verify"].copy()
    rows["repetition"] = pd.to_numeric(rows["repetition"], errors="coerce").fillna(-1).astype(int)
    return Cells(rows.reset_index(drop=True), per_repetition, timeout_s, source)


def _timeout(run_json: Path) -> float | None:
    try:
        return float(json.loads(run_json.read_text())["config"]["timeout_s"])
    except (OSError, KeyError, TypeError, ValueError):
        return None


def select(rows: pd.DataFrame, keys: dict[str, str]) -> pd.DataFrame:
    """The rows whose columns equal ``keys`` (compared as numbers where both sides are numbers, else as text)."""
    chosen = pd.Series(True, index=rows.index)
    for column, wanted in keys.items():
        if column not in rows:
            return rows.iloc[0:0]
        chosen &= _equal(rows[column], wanted)
    return rows[chosen]


def _equal(column: pd.Series, wanted: str) -> pd.Series:
    try:
        number = float(wanted)
    except ValueError:
        return column.astype(str) == wanted
    numeric = pd.to_numeric(column, errors="coerce")
    return (numeric == number) | (column.astype(str) == wanted)


def window_range(window: str) -> int:
    """The range of a ``sliding:RANGE:SLIDE`` or ``tumbling:RANGE`` window, as written (ms, or triples at the
    configs' 1,000 triples per second of stream time); 0 when it names none."""
    parts = str(window).split(":")
    digits = parts[1].removesuffix("ms") if len(parts) > 1 else ""
    return int(digits) if digits.isdigit() else 0
