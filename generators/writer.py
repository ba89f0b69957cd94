"""A generated stream lands on disk whole or not at all: written to a temporary sibling, then renamed into place.

Layout (DESIGN.md section 3): ``stream.json`` (dataset, scale, seed, counts, generator version,
event shape, rate), ``events/`` (Parquet part files whose natural file-name order is event order),
``schema.nt`` and ``static.nt`` where the dataset has them. An output directory that already
holds anything is refused before any work starts.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import uuid
from pathlib import Path

import pyarrow.parquet as pq

from common.errors import ConfigError, EnvironmentProblem, GeneratorError
from generators.framing import EVENT_SCHEMA, GeneratorSpec
from generators.pipeline import (
    UnitPlace,
    dataset_module,
    partition_count,
    spark_places,
    stream_counts,
    twin_batches,
    twin_places,
)

FORMAT = "cgpm-stream/1"


def check_output(out: Path) -> None:
    """Refuse an output path that is a file or a non-empty directory."""
    if out.exists():
        if not out.is_dir():
            raise ConfigError(f"output {out} exists and is not a directory")
        if any(out.iterdir()):
            raise ConfigError(f"output directory {out} already holds data; remove it or choose another --out")


def _temporary_sibling(out: Path) -> Path:
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EnvironmentProblem(f"cannot create {parent}: {error.strerror}") from None
    if not os.access(parent, os.W_OK):
        raise EnvironmentProblem(f"cannot write in {parent}")
    return parent / f".{out.name}.partial-{uuid.uuid4().hex[:8]}"


def provenance(spec: GeneratorSpec, unit_places: list[UnitPlace], seconds: float) -> dict:
    dataset = dataset_module(spec.dataset)
    info = {
        "format": FORMAT,
        "dataset": spec.dataset,
        "scale": spec.scale,
        "seed": spec.seed,
        "index": spec.index,
        "event_shape": str(spec.shape),
        "counts": stream_counts(spec, unit_places),
        "units": len(unit_places),
        "ts_unit": "ms",
        "op": "insert only",
        "generation_seconds": round(seconds, 3),
    }
    info.update(dataset.provenance(spec))
    return info


def _finish(spec: GeneratorSpec, temporary: Path, out: Path, unit_places: list[UnitPlace], started: float) -> dict:
    dataset = dataset_module(spec.dataset)
    files = {"schema.nt": dataset.schema_ntriples(spec), "static.nt": dataset.static_ntriples(spec)}
    for name, text in files.items():
        if text is not None:  # one string, or an iterable of text chunks for graphs too large to hold whole
            with open(temporary / name, "w", encoding="utf-8") as file:
                file.writelines([text] if isinstance(text, str) else text)
    info = provenance(spec, unit_places, time.perf_counter() - started)
    info["files"] = {"events": "events/", **{name: name for name, text in files.items() if text is not None}}
    (temporary / "stream.json").write_text(json.dumps(info, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    if out.exists():
        out.rmdir()  # checked empty before starting
    os.replace(temporary, out)
    return info


def _partition_writer(spec: GeneratorSpec, events_dir: str, compression: str):
    """A Spark partition function: write this partition's units to ``part-NNNNN.parquet`` with pyarrow."""

    def write(index, places):
        places = list(places)
        if not places:
            return
        dataset = dataset_module(spec.dataset)
        rows = 0
        with pq.ParquetWriter(f"{events_dir}/part-{index:05d}.parquet", EVENT_SCHEMA, compression=compression) as out:
            for unit, first_entity, first_triple in places:
                for batch in dataset.unit_batches(spec, unit, first_entity, first_triple):
                    out.write_batch(batch)
                    rows += batch.num_rows
        yield index, rows

    return write


def write_stream_spark(spark, spec: GeneratorSpec, out: Path, *, compression: str = "snappy") -> dict:
    """Generate on Spark and write the stream directory ``out``; returns its stream.json content.

    Each task writes its slice of units straight to a Parquet part file with pyarrow (rows never
    pass through the JVM), so ``out`` must be on a filesystem the executors share (always true in
    local mode).
    """
    out = Path(out)
    check_output(out)
    temporary = _temporary_sibling(out)
    started = time.perf_counter()
    try:
        partitions = partition_count(spark, spec)
        _say(f"counting {len(dataset_module(spec.dataset).units(spec))} units in {partitions} partitions")
        unit_places = spark_places(spark, spec, partitions)
        counts = stream_counts(spec, unit_places)
        _say(f"writing {counts['triples']:,} triples in {counts['events']:,} events")
        events_dir = (temporary / "events").resolve()
        events_dir.mkdir(parents=True)
        rows = [(place.unit, place.first_entity, place.first_triple) for place in unit_places]
        written = (
            spark.sparkContext.parallelize(rows, partitions)
            .mapPartitionsWithIndex(_partition_writer(spec, str(events_dir), compression))
            .collect()
        )
        if sum(count for _, count in written) != counts["triples"]:
            raise GeneratorError(f"{spec.dataset}: wrote {sum(c for _, c in written)} rows, expected {counts['triples']}")
        return _finish(spec, temporary, out, unit_places, started)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def write_stream_local(spec: GeneratorSpec, out: Path, *, compression: str = "snappy") -> dict:
    """The same stream directory made by the pure-Python twin, without Spark (for tests and small streams)."""
    out = Path(out)
    check_output(out)
    temporary = _temporary_sibling(out)
    started = time.perf_counter()
    try:
        unit_places = twin_places(spec)
        (temporary / "events").mkdir(parents=True)
        with pq.ParquetWriter(temporary / "events" / "part-00000.parquet", EVENT_SCHEMA, compression=compression) as writer:
            for batch in twin_batches(spec, unit_places):
                writer.write_batch(batch)
        return _finish(spec, temporary, out, unit_places, started)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def _say(message: str) -> None:
    if sys.stderr.isatty():
        print(f"cgpm generate: {message}", file=sys.stderr)
