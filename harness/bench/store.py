"""A run directory only ever holds complete files: each result is written beside its target and renamed into place.

Layout of ``RUN/`` (``docs/benchmarking.md`` describes every column)::

    run.json                  schema version, machine, commit, package versions, resolved config, progress
    parts/CELL_ID/rK.json     one finished repetition: the cell, its row, its RSS series (the resume record)
    parts/CELL_ID/rK.latency.npy   that repetition's per-event latencies in ns: its first passes, one after the other,
                                   up to ``STORED_LATENCIES`` (of a longer first pass, its first ones)
    parts/CELL_ID/rK.e2e.npy       a rate-paced repetition's first end-to-end latencies (arrival to answer) in ns
    parts/CELL_ID/verify.json the cell's verdict against the oracle, when verification was asked for
    cells.parquet, cells.csv  a row per cell and repetition, rebuilt from the parts after each one
    rss.parquet               cell_id, repetition, t_s (0 = start of the timed loop), rss_bytes, events (processed by
                              the first pass at that sample; empty after it)
    latency.parquet           cell_id, repetition, pass, event, latency_ms, e2e_ms (rate-paced runs only)

A run killed at any moment leaves every earlier part whole; rerunning skips the parts that exist.

The latency percentile columns (``latency_p*_ms``, ``e2e_p*_ms``) come from a sketch and are within
``latency_relative_error`` (0.01) of the exact ones (``harness.bench.quantiles``); a run stored before
has exact ones and no such column, and is read the same way.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd

from common.errors import ConfigError
from harness.bench.matrix import KEY_COLUMNS, streams_column
from harness.bench.run_status import shown_status
from harness.streams.atomic import replace_atomically

SCHEMA_VERSION = "cgpm-bench-run/1"
RUN_FILE = "run.json"
PARTS = "parts"
CELLS_PARQUET = "cells.parquet"
CELLS_CSV = "cells.csv"
RSS_PARQUET = "rss.parquet"
LATENCY_PARQUET = "latency.parquet"
VERIFY_PART = "verify"

# the columns every cells table has, in this order; more follow
CELL_COLUMNS = (
    "cell_id", *KEY_COLUMNS, "concurrent", "streams", "repetition", "status", "verdict", "wall_s", "cpu_s", "triples", "events",
    "triples_per_s", "events_per_s", "steady_triples_per_s", "steady_events_per_s", "steady_events", "inner_passes",
    "loop_total_s", "short", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms",
    "rss_base_bytes", "rss_peak_bytes", "window_triples", "answers", "added", "removed", "build_s", "load_s", "stats",
    "sampler_hz", "rss_samples", "sampler_cpu_s", "sampler_share", "pid", "ppid", "engine_module_preloaded", "error",
)


def write_atomically(path: Path, data: bytes) -> Path:
    """``path`` holds ``data`` entirely or keeps what it held before."""
    return replace_atomically(path, lambda handle: handle.write(data), binary=True)


def write_json(path: Path, value) -> Path:
    return write_atomically(path, (json.dumps(value, indent=1, default=_plain) + "\n").encode())


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot store {type(value).__name__} in JSON")


def _parquet_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def read_run_info(run_dir: str | Path) -> dict:
    path = Path(run_dir) / RUN_FILE
    if not path.is_file():
        raise ConfigError(f"{run_dir} is not a benchmark run: it has no {RUN_FILE}")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from None
    if info.get("schema_version") != SCHEMA_VERSION:
        raise ConfigError(f"{path} has schema {info.get('schema_version')!r}; this cgpm reads {SCHEMA_VERSION!r}")
    return {**info, "status": shown_status(info)}  # a killed bench's "running" reads as interrupted


def part_path(run_dir: Path, cell_id: str, repetition: int | str) -> Path:
    name = VERIFY_PART if repetition == VERIFY_PART else f"r{repetition}"
    return Path(run_dir) / PARTS / cell_id / f"{name}.json"


def save_part(run_dir: Path, cell: dict, cell_id: str, repetition: int | str, result: dict) -> None:
    """Store one finished task: latencies first, then the JSON whose presence marks the task done."""
    path = part_path(run_dir, cell_id, repetition)
    for key, suffix in (("latency_ns", ".latency.npy"), ("e2e_ns", ".e2e.npy")):
        values = result.get(key)
        if repetition != VERIFY_PART and values is not None and len(values):
            buffer = io.BytesIO()
            np.save(buffer, np.asarray(values, dtype=np.int64))
            write_atomically(path.with_suffix(suffix), buffer.getvalue())
    write_json(path, {"cell_id": cell_id, "repetition": repetition, "cell": cell,
                      "row": result["row"], "rss": result.get("rss") or []})


def finished_parts(run_dir: Path) -> set[tuple[str, int | str]]:
    """(cell_id, repetition or 'verify') of every task stored whole."""
    done = set()
    for path in (Path(run_dir) / PARTS).glob("*/*.json"):
        name = path.stem
        done.add((path.parent.name, VERIFY_PART if name == VERIFY_PART else int(name[1:])))
    return done


def _parts(run_dir: Path):
    for path in sorted((Path(run_dir) / PARTS).glob("*/*.json")):
        yield path, json.loads(path.read_text(encoding="utf-8"))


def cells_frame(run_dir: Path) -> pd.DataFrame:
    """The cells table assembled from the parts: timed rows, each with its cell's verdict."""
    rows, verdicts, verify_errors = [], {}, {}
    for _, part in _parts(run_dir):
        if part["repetition"] == VERIFY_PART:
            verdicts[part["cell_id"]] = part["row"].get("verdict") or part["row"].get("status")
            verify_errors[part["cell_id"]] = part["row"].get("error") or ""
            continue
        key = {column: part["cell"][column] for column in KEY_COLUMNS}
        key["concurrent"] = part["cell"].get("concurrent", 1)  # parts stored before the concurrent axis ran one query
        key["streams"] = streams_column(part["cell"].get("streams", ()))
        key["partitions"] = part["cell"].get("partitions", 0)  # 0: unsplit (and every part stored before the axis)
        rows.append({"cell_id": part["cell_id"], **key, "repetition": part["repetition"], **part["row"]})
    frame = pd.DataFrame(rows)
    if frame.empty:
        frame = pd.DataFrame(columns=list(CELL_COLUMNS))
    frame["verdict"] = frame["cell_id"].map(verdicts).fillna("not checked") if len(frame) else frame.get("verdict")
    if verify_errors and len(frame):  # why a verification could not run: the verdict alone says only "not checked (error)"
        frame["verify_error"] = frame["cell_id"].map(verify_errors).fillna("")
    for column in CELL_COLUMNS:
        if column not in frame.columns:
            frame[column] = None
    extra = [column for column in frame.columns if column not in CELL_COLUMNS]
    frame = frame[list(CELL_COLUMNS) + extra]
    return frame.sort_values(["cell_id", "repetition"], kind="stable").reset_index(drop=True)


def write_cells(run_dir: Path) -> pd.DataFrame:
    """Rebuild cells.parquet and cells.csv from the parts."""
    frame = cells_frame(run_dir)
    write_atomically(Path(run_dir) / CELLS_PARQUET, _parquet_bytes(frame))
    write_atomically(Path(run_dir) / CELLS_CSV, frame.to_csv(index=False).encode())
    return frame


def write_series(run_dir: Path) -> None:
    """Rebuild rss.parquet and latency.parquet from the parts (at the end of a run), one part in memory at a time.

    A run with windows of 10^6 events holds ~10^8 latencies: gathered into one DataFrame they took 23 GB and
    the kernel killed the run at its last step, so each part is written as its own row group as it is read."""
    import pyarrow as pa

    parts = [(path, part) for path, part in _parts(run_dir) if part["repetition"] != VERIFY_PART]
    with_e2e = any(path.with_suffix(".e2e.npy").exists() for path, _ in parts)
    rss_schema = pa.schema([("cell_id", pa.string()), ("repetition", pa.int64()), ("t_s", pa.float64()),
                            ("rss_bytes", pa.int64()), ("events", pa.float64())])
    latency_schema = pa.schema([("cell_id", pa.string()), ("repetition", pa.int64()), ("pass", pa.int64()),
                                ("event", pa.int64()), ("latency_ms", pa.float64())]
                               + ([("e2e_ms", pa.float64())] if with_e2e else []))

    def rss_tables():
        for _, part in parts:
            if part["rss"]:
                series = np.asarray([(point + [None])[:3] for point in part["rss"]], dtype=float)  # older: no events
                yield pa.table({"cell_id": [part["cell_id"]] * len(series),
                                "repetition": np.full(len(series), part["repetition"], dtype=np.int64),
                                "t_s": series[:, 0], "rss_bytes": series[:, 1].astype(np.int64),
                                "events": series[:, 2]}, schema=rss_schema)

    def latency_tables():
        for path, part in parts:
            latency_file = path.with_suffix(".latency.npy")
            if not latency_file.exists():
                continue
            latencies = np.load(latency_file)
            per_pass = int(part["row"].get("events") or 0) or len(latencies) or 1
            columns = {"cell_id": pa.array([part["cell_id"]] * len(latencies), pa.string()),
                       "repetition": np.full(len(latencies), part["repetition"], dtype=np.int64),
                       "pass": np.arange(len(latencies)) // per_pass, "event": np.arange(len(latencies)) % per_pass,
                       "latency_ms": latencies / 1e6}
            if with_e2e:
                e2e = np.full(len(latencies), np.nan)
                e2e_file = path.with_suffix(".e2e.npy")
                if e2e_file.exists():
                    ends = np.load(e2e_file)[: len(latencies)]
                    e2e[: len(ends)] = ends / 1e6
                columns["e2e_ms"] = e2e
            yield pa.table(columns, schema=latency_schema)

    _write_parquet_parts(Path(run_dir) / RSS_PARQUET, rss_schema, rss_tables())
    _write_parquet_parts(Path(run_dir) / LATENCY_PARQUET, latency_schema, latency_tables())


def _write_parquet_parts(path: Path, schema, tables) -> None:
    """``path`` holds every table of ``tables`` (one row group each) or keeps what it held before."""
    import pyarrow.parquet as pq

    def fill(handle) -> None:
        with pq.ParquetWriter(handle, schema) as writer:
            for table in tables:
                writer.write_table(table)

    replace_atomically(path, fill, binary=True)


def _read_table(run_dir: str | Path, name: str) -> pd.DataFrame:
    path = Path(run_dir) / name
    if not path.is_file():
        raise ConfigError(f"{run_dir} has no {name}: the run has not stored results yet")
    return pd.read_parquet(path)


def load_results(run_dir: str | Path) -> pd.DataFrame:
    """The run's cells table: a row per cell and repetition (see CELL_COLUMNS)."""
    read_run_info(run_dir)
    frame = _read_table(run_dir, CELLS_PARQUET)
    if "concurrent" not in frame.columns:  # a run stored before the concurrent axis: one query per cell
        frame.insert(frame.columns.get_loc("max_events") + 1, "concurrent", 1)
    return frame


def load_rss(run_dir: str | Path) -> pd.DataFrame:
    return _read_table(run_dir, RSS_PARQUET) if (Path(run_dir) / RSS_PARQUET).exists() else pd.DataFrame(
        columns=["cell_id", "repetition", "t_s", "rss_bytes", "events"])


def load_latencies(run_dir: str | Path, per_repetition: int | None = None) -> pd.DataFrame:
    """Per-event latencies; with ``per_repetition=N``, a repetition of more than N events is cut to N evenly spaced
    quantiles of its latencies (same distribution, ``event`` is then the quantile's rank), read a batch at a time.

    A run at windows of 10^6 events holds ~10^8 latencies: whole, as a DataFrame, they outgrow memory, and
    a latency CDF needs only their distribution."""
    path = Path(run_dir) / LATENCY_PARQUET
    if not path.exists():
        return pd.DataFrame(columns=["cell_id", "repetition", "event", "latency_ms"])
    if per_repetition is None:
        return _read_table(run_dir, LATENCY_PARQUET)
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path)
    measures = [name for name in ("latency_ms", "e2e_ms") if name in parquet.schema_arrow.names]
    pieces: dict[tuple, dict[str, list[np.ndarray]]] = {}
    for batch in parquet.iter_batches(batch_size=1 << 20, columns=["cell_id", "repetition", *measures]):
        frame = batch.to_pandas()
        for key, group in frame.groupby(["cell_id", "repetition"], sort=False):
            for name in measures:
                pieces.setdefault(key, {}).setdefault(name, []).append(group[name].to_numpy())
    frames = []
    for (cell_id, repetition), arrays in pieces.items():
        columns = {}
        for name, chunks in arrays.items():
            values = np.concatenate(chunks)
            if name != "latency_ms":
                values = values[~np.isnan(values)]
            if len(values) > per_repetition:
                values = np.quantile(values, np.linspace(0.0, 1.0, per_repetition))
            columns[name] = values
        length = max(len(values) for values in columns.values())
        padded = {name: np.concatenate([values, np.full(length - len(values), np.nan)]) for name, values in columns.items()}
        frames.append(pd.DataFrame({"cell_id": cell_id, "repetition": repetition, "event": np.arange(length), **padded}))
    if not frames:
        return pd.DataFrame(columns=["cell_id", "repetition", "event", "latency_ms"])
    return pd.concat(frames, ignore_index=True)
