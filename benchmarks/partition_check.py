"""A generated stream's rows do not depend on how Spark splits the work: a sample made on two masters is compared row for row.

The sample is the stream's first N units (days, blocks of trips, universities), made exactly as the
whole stream makes them (the full spec, its unit offsets from the first unit on), by
``generators.pipeline.generate`` on each master in turn, written as Parquet and read back in file
order, which is event order. The two tables must be equal row for row, order included; the digest of
the rows is recorded so a later run can be compared with this one.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from generators.framing import GeneratorSpec

MASTERS = ("local[1]", "local[2]")


def sample_places(spec: GeneratorSpec, units: int) -> list:
    """The first ``units`` units' offsets in the whole stream (counted in this process: a few units)."""
    from generators.pipeline import dataset_module, places

    dataset = dataset_module(spec.dataset)
    chosen = dataset.units(spec)[:units]
    counts = dataset.known_counts(spec)
    counts = counts[:len(chosen)] if counts is not None else [dataset.unit_counts(spec, unit) for unit in chosen]
    return places(chosen, counts)


def sample_rows(spark, spec: GeneratorSpec, units: int, scratch: Path) -> pa.Table:
    """The sample's event rows as Spark writes them, read back part file by part file (event order)."""
    from generators.pipeline import generate

    out = scratch / "sample"
    generate(spark, spec, sample_places(spec, units)).write.parquet(str(out))
    parts = sorted(out.glob("part-*.parquet"))
    return pa.concat_tables([pq.read_table(part) for part in parts]).combine_chunks()


def rows_digest(table: pa.Table) -> str:
    """SHA-256 over the rows in order (pandas' per-row hash of every column), independent of chunking."""
    hashes = pd.util.hash_pandas_object(table.to_pandas(), index=False).to_numpy()
    return hashlib.sha256(hashes.tobytes()).hexdigest()


def check_partitions(spec: GeneratorSpec, units: int, *, scratch: str | Path | None = None,
                     masters: tuple[str, ...] = MASTERS, say=lambda message: None) -> dict:
    """Make the sample on each master (a session each, stopped after) and compare; the result as run.json keeps it."""
    from harness.spark import spark_session

    started = time.perf_counter()
    tables, partitions = [], []
    for master in masters:
        say(f"partition check: first {units} units of {spec.dataset} on {master}")
        spark = spark_session(master, app_name="cgpm bench generators: partition check", progress=False)
        try:
            from generators.pipeline import partition_count

            partitions.append(partition_count(spark, spec))
            with tempfile.TemporaryDirectory(dir=scratch) as directory:
                tables.append(sample_rows(spark, spec, units, Path(directory)))
        finally:
            spark.stop()
    digests = [rows_digest(table) for table in tables]
    identical = all(table.equals(tables[0]) for table in tables[1:])
    return {"sample_units": units, "masters": list(masters), "partitions": partitions, "rows": tables[0].num_rows,
            "rows_per_master": [table.num_rows for table in tables], "digests": digests, "identical": identical,
            "seconds": round(time.perf_counter() - started, 1)}
