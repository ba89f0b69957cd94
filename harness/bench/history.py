"""A benchmark's history only grows: each run added appends one row per cell, keyed by commit and machine, and is never rewritten.

The store is ``results/history/BENCHMARK.csv`` (asv's model: results per commit and machine,
kept apart from the runs themselves, which are too large to keep). Each row carries the schema
version, the run's commit, machine and creation time, the cell's keys, its status, and for each
measure of ``METRICS`` the median, the quartiles and the repetitions themselves (``;``-separated),
so that a later step can be tested with ``compare``'s rule (``compare_cells``): median ratio past the
threshold AND a t-test significant after correcting over the step's cells. Since ``cgpm-history/2`` the measures
include each repetition's CPU time per event and its ratio to the scan floor's on the same stream in the same round
(``harness.bench.normalised``), and ``reference`` names the scan cells of that ratio; a ``cgpm-history/1`` file is
read as it is (those columns empty) and widened once, its rows' values and versions kept, when a newer run joins it. The values are kept in
repetition order, so a step between runs of the same repetitions is tested pair by pair. A run published
with medians only has no repetitions to test: its steps are shown, never called a change.

``cgpm bench`` appends a finished run kept under ``results/runs/``; ``cgpm history --add RUN``
appends any other (a published folder, an old run). Adding a run twice adds nothing.

Claims judged from a run's published folder are kept beside, in ``harness.bench.claim_history`` (its names are
importable from here too).
"""

from __future__ import annotations

import csv
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from common.errors import ConfigError
from harness.bench.claim_history import (  # noqa: F401 (the claims' history, read through this module too)
    CLAIM_COLUMNS,
    CLAIM_SCHEMA_VERSION,
    CLAIMS_FILE,
    add_verdicts,
    claim_changes,
    read_claim_history,
)
from harness.bench.compare import compare_cells
from harness.bench.machine import machine_label  # noqa: F401 (keyed by it; importable from here as before)
from harness.bench.matrix import KEY_COLUMNS
from harness.bench.normalised import FIGURES, with_figures

SCHEMA_VERSION = "cgpm-history/2"
SCHEMA_VERSIONS = ("cgpm-history/1", SCHEMA_VERSION)  # every one read_history loads
HISTORY_DIR = Path("results") / "history"
METRICS_V1 = ("wall_s", "cpu_s", "latency_p99_ms", "rss_peak_bytes")
METRICS = (*METRICS_V1, *FIGURES)
POINT_COLUMNS = ("machine", "commit", "run_id")
SUFFIXES = ("", "_q1", "_q3", "_values")
COLUMNS_V1 = ("schema_version", "benchmark", "commit", "dirty", "machine", "created", "run_id", "source", "cell_id",
              *KEY_COLUMNS, "status", "n", *(f"{metric}{suffix}" for metric in METRICS_V1 for suffix in SUFFIXES))
# a version's columns are the one before's and more after them: an older file is widened, never reordered
COLUMNS = (*COLUMNS_V1, "reference", *(f"{metric}{suffix}" for metric in FIGURES for suffix in SUFFIXES))
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def history_path(benchmark: str, directory: str | Path = HISTORY_DIR) -> Path:
    if not SAFE_NAME.match(benchmark):
        raise ConfigError(f"benchmark name {benchmark!r} cannot name a history file (letters, digits, '.', '_', '-')")
    return Path(directory) / f"{benchmark}.csv"


def _joined(values) -> str:
    return ";".join(repr(float(value)) for value in values)


def _quartiles(values: np.ndarray) -> tuple[float, float, float]:
    if not len(values):
        return (float("nan"),) * 3
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    return float(median), float(q1), float(q3)


def run_rows(run, source: str) -> pd.DataFrame:
    """The history rows of ``run`` (a ``harness.site.runs.Run``): one per cell."""
    info = run.info
    fixed = {"schema_version": SCHEMA_VERSION, "benchmark": run.benchmark, "commit": run.commit,
             "dirty": bool(info.get("git", {}).get("dirty")), "machine": machine_label(info.get("machine", {})),
             "created": info.get("created"), "run_id": run.run_id, "source": source}
    repetitions = run.repetitions
    rows = []
    if repetitions is not None and len(repetitions):
        repetitions = with_figures(repetitions)
        for cell_id, group in repetitions.groupby("cell_id", sort=True):
            ok = group[group["status"] == "ok"]
            row = {**fixed, "cell_id": cell_id, **{key: group[key].iloc[0] for key in KEY_COLUMNS if key in group},
                   "status": "/".join(sorted(set(group["status"].dropna()))), "n": len(ok),
                   "reference": group["reference"].iloc[0]}
            for metric in METRICS:
                values = pd.to_numeric(ok[metric], errors="coerce").dropna().to_numpy() if metric in ok else np.array([])
                median, q1, q3 = _quartiles(values)
                row.update({metric: median, f"{metric}_q1": q1, f"{metric}_q3": q3, f"{metric}_values": _joined(values)})
            rows.append(row)
    else:  # medians only: no repetition to test a step with
        for cell in run.summary.itertuples(index=False):
            cell = cell._asdict()
            row = {**fixed, **{key: cell.get(key) for key in ("cell_id", *KEY_COLUMNS)}, "status": cell.get("status"),
                   "n": cell.get("ok")}
            for metric in METRICS:
                row.update({metric: cell.get(metric), f"{metric}_q1": cell.get(f"{metric}_q1"),
                            f"{metric}_q3": cell.get(f"{metric}_q3"), f"{metric}_values": ""})
            rows.append(row)
    return pd.DataFrame(rows).reindex(columns=list(COLUMNS))


def read_history(path: str | Path) -> pd.DataFrame:
    path = Path(path)
    try:
        frame = pd.read_csv(path, dtype={"commit": str, "run_id": str, "reference": str, **{f"{metric}_values": str for metric in METRICS}}, keep_default_na=False,
                            na_values=[""])
    except OSError as error:
        raise ConfigError(f"cannot read history {path}: {error.strerror}") from None
    if list(frame.columns) not in (list(COLUMNS_V1), list(COLUMNS)) or set(frame["schema_version"]) - set(SCHEMA_VERSIONS):
        found = sorted(set(frame.get("schema_version", pd.Series(["no schema_version column"]))))
        raise ConfigError(f"{path} is not a history of {' or '.join(SCHEMA_VERSIONS)} (schema {', '.join(map(str, found))})")
    frame = frame.reindex(columns=list(COLUMNS))  # an older file's rows: the newer measures not taken
    for metric in METRICS:
        frame[f"{metric}_values"] = frame[f"{metric}_values"].fillna("").astype(str)
    frame["reference"] = frame["reference"].fillna("").astype(str)
    return frame


def _widened(target: Path) -> None:
    """``target`` with the newest columns, when it was written with an older version's: rewritten into a sibling and
    renamed into place, every row's fields as they were (text for text) and empty ones after them."""
    with target.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows or rows[0] == list(COLUMNS):
        return
    if rows[0] != list(COLUMNS)[: len(rows[0])]:
        raise ConfigError(f"{target} has columns no version of {SCHEMA_VERSION} wrote: it cannot be widened")
    missing = len(COLUMNS) - len(rows[0])
    handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(COLUMNS)
            writer.writerows(row + [""] * missing for row in rows[1:])
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def add_run(run_path: str | Path, directory: str | Path = HISTORY_DIR) -> tuple[Path, int]:
    """Append ``run_path``'s rows to its benchmark's history; returns the file and the rows added (0 if known)."""
    from harness.site.runs import open_run

    run = open_run(run_path)
    rows = run_rows(run, source=str(run_path))
    target = history_path(run.benchmark, directory)
    if target.exists():
        known = read_history(target)
        seen = set(zip(known["run_id"], known["commit"], known["machine"]))
        if (run.run_id, run.commit, rows["machine"].iloc[0] if len(rows) else None) in seen:
            return target, 0
        _widened(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8", newline="") as handle:  # append-only: earlier rows are never rewritten
        rows.to_csv(handle, header=handle.tell() == 0, index=False)
    return target, len(rows)


def points(history: pd.DataFrame) -> pd.DataFrame:
    """One row per run in the history (machine, commit, run), oldest first per machine, with its cell count."""
    frame = history.groupby(list(POINT_COLUMNS), sort=False).agg(created=("created", "first"), cells=("cell_id", "size"),
                                                                  dirty=("dirty", "first")).reset_index()
    return frame.sort_values(["machine", "created"], kind="stable").reset_index(drop=True)


def results_table(history: pd.DataFrame, machine: str, metric: str = "wall_s") -> pd.DataFrame:
    """A row per cell, a column per run on ``machine`` (oldest first, named by its commit): the median [IQR] of
    ``metric``, or the cell's status where it did not finish."""
    runs = points(history)
    runs = runs[runs["machine"] == machine]
    here = history[history["machine"] == machine]
    table = here.drop_duplicates("cell_id")[["cell_id", "engine", "dataset", "query", "window"]].set_index("cell_id")
    for run in runs.itertuples():
        rows = here[(here["run_id"] == run.run_id) & (here["commit"] == run.commit)].set_index("cell_id")
        label = f"{run.commit[:10]} {run.run_id}" if runs["commit"].duplicated(keep=False).any() else run.commit[:10]
        table[label] = [_shown(rows.loc[cell_id], metric) if cell_id in rows.index else "" for cell_id in table.index]
    return table.reset_index(drop=True).sort_values(["engine", "dataset", "query", "window"], kind="stable")


def _shown(row: pd.Series, metric: str) -> str:
    median = row[metric]
    if pd.isna(median):
        return str(row["status"])
    spread = "" if pd.isna(row[f"{metric}_q1"]) else f" [{row[f'{metric}_q1']:.3g}–{row[f'{metric}_q3']:.3g}]"
    return f"{median:.3g}{spread}"


def _as_repetitions(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """History rows back into the cells table ``compare_cells`` reads: a row per stored repetition."""
    out = []
    for row in rows.to_dict("records"):
        keys = {key: row[key] for key in ("cell_id", *KEY_COLUMNS)}
        values = [float(value) for value in row[f"{metric}_values"].split(";") if value]
        if values:  # the finished repetitions, in order: repetition k of two such runs is paired
            out += [{**keys, "repetition": number, "status": "ok", metric: value} for number, value in enumerate(values)]
        else:  # no repetition stored: finished medians are not tested, failures stay failures
            out.append({**keys, "repetition": float("nan"), "status": "ok" if row["status"] == "ok" else row["status"],
                        metric: float("nan")})
    return pd.DataFrame(out, columns=["cell_id", *KEY_COLUMNS, "repetition", "status", metric])


def step_changes(history: pd.DataFrame, metric: str = "wall_s", threshold: float = 0.10,
                 alpha: float = 0.05, correction: str = "bh") -> pd.DataFrame:
    """Each run against the one before it on the same machine, cell by cell, with ``compare``'s rule (the correction
    over the step's cells)."""
    if metric not in METRICS:
        raise ConfigError(f"history keeps {', '.join(METRICS)}; {metric!r} is not one of them")
    steps = []
    for machine, runs in points(history).groupby("machine", sort=False):
        for before, after in zip(runs.itertuples(), runs.iloc[1:].itertuples()):
            base = history[(history["machine"] == machine) & (history["run_id"] == before.run_id)
                           & (history["commit"] == before.commit)]
            run = history[(history["machine"] == machine) & (history["run_id"] == after.run_id)
                          & (history["commit"] == after.commit)]
            table = compare_rows(base, run, metric, threshold, alpha, correction)
            steps.append(table.assign(machine=machine, base_commit=before.commit, commit=after.commit,
                                      base_run=before.run_id, run=after.run_id))
    columns = ["machine", "base_commit", "commit", "base_run", "run", "cell_id", "engine", "query", "window", "change",
               "ratio", "test", "p_value", "p_adjusted", "base_median", "run_median", "base_n", "run_n", "note"]
    return pd.concat(steps, ignore_index=True)[columns] if steps else pd.DataFrame(columns=columns)


def compare_rows(base: pd.DataFrame, run: pd.DataFrame, metric: str, threshold: float, alpha: float,
                 correction: str) -> pd.DataFrame:
    """Two runs' history rows compared cell by cell on ``metric`` with ``compare``'s rule (``compare_cells``)."""
    table = compare_cells(_as_repetitions(base, metric), _as_repetitions(run, metric), threshold=threshold,
                          alpha=alpha, metrics=(metric,), correction=correction).table
    table["note"] = table["note"].astype(object)
    # finished, with no value stored: a run published with medians only (both failing stays "no finished"); a
    # version-1 row has no CPU time per event either, and says so the same way
    medians_only = table["change"].eq("not measured") & table["note"].astype(str).str.startswith(f"no {metric} in")
    table.loc[medians_only, "note"] = "medians only: no repetitions to test"
    return _with_medians(table, base, run, metric)


def _with_medians(table: pd.DataFrame, base: pd.DataFrame, run: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Medians (and their ratio) filled in from the stored summaries where no repetition was there to test."""
    base_medians, run_medians = base.set_index("cell_id")[metric], run.set_index("cell_id")[metric]
    table = table.copy()
    table["base_median"] = table["base_median"].fillna(table["cell_id"].map(base_medians))
    table["run_median"] = table["run_median"].fillna(table["cell_id"].map(run_medians))
    missing = table["ratio"].isna() & (table["base_median"] > 0)
    table.loc[missing, "ratio"] = table.loc[missing, "run_median"] / table.loc[missing, "base_median"]
    return table
