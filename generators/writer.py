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
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq

from common.errors import ConfigError, EnvironmentProblem, GeneratorError
from generators.framing import EVENT_SCHEMA, GeneratorSpec
from generators.pipeline import (
    UnitPlace,
    dataset_module,
    generate,
    partition_count,
    spark_places,
    stream_counts,
    twin_batches,
    twin_places,
)

FORMAT = "cgpm-stream/1"


def check_output(out: str | Path) -> None:
    """Refuse a local output path that is a file or a non-empty directory (other filesystems are checked through Spark)."""
    from generators.hadoop_fs import local_path

    out = local_path(out)
    if out is None:
        return
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


def _describe(spec: GeneratorSpec, unit_places: list[UnitPlace], started: float) -> dict:
    """stream.json's content, with the texts of schema.nt and static.nt under the private key ``_texts``."""
    dataset = dataset_module(spec.dataset)
    files = {"schema.nt": dataset.schema_ntriples(spec), "static.nt": dataset.static_ntriples(spec)}
    # each text is one string, or an iterable of chunks for graphs too large to hold whole
    texts = {name: text for name, text in files.items() if text is not None}
    info = provenance(spec, unit_places, time.perf_counter() - started)
    info["files"] = {"events": "events/", **{name: name for name in texts}}
    info["_texts"] = texts
    return info


def _finish(spec: GeneratorSpec, temporary: Path, out: Path, unit_places: list[UnitPlace], started: float) -> dict:
    info = _describe(spec, unit_places, started)
    for name, text in info.pop("_texts").items():
        with open(temporary / name, "w", encoding="utf-8") as file:
            file.writelines([text] if isinstance(text, str) else text)
    (temporary / "stream.json").write_text(json.dumps(info, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    if out.exists():
        out.rmdir()  # checked empty before starting
    os.replace(temporary, out)
    return info


def write_stream_spark(spark, spec: GeneratorSpec, out: str | Path, *, compression: str = "snappy") -> dict:
    """Generate on Spark and write the stream directory ``out``; returns its stream.json content.

    ``out`` is a path or any URI Spark's Hadoop configuration can write (``file://``, ``hdfs://``, an
    object store). The event rows come from ``generators.pipeline.generate`` (``mapInArrow``, one
    contiguous slice of units per partition) and are written by Spark's Parquet writer, one
    ``part-NNNNN-…`` file per partition, so file-name order is event order and no task needs a path
    of the driver's; the few small files are written from the driver through Hadoop's FileSystem.
    """
    from generators.hadoop_fs import SparkLocation

    target = SparkLocation(spark, out)
    target.check_writable_target()
    temporary = target.temporary_sibling()
    started = time.perf_counter()
    try:
        partitions = partition_count(spark, spec)
        _say(f"counting {len(dataset_module(spec.dataset).units(spec))} units in {partitions} partitions")
        unit_places = spark_places(spark, spec, partitions)
        counts = stream_counts(spec, unit_places)
        _say(f"writing {counts['triples']:,} triples in {counts['events']:,} events to {target.uri}")
        events = temporary.child("events")
        rows = generate(spark, spec, unit_places)
        rows.write.option("compression", compression).parquet(events)
        written = spark.read.parquet(events).count()  # from the Parquet footers
        if written != counts["triples"]:
            raise GeneratorError(f"{spec.dataset}: wrote {written} rows, expected {counts['triples']}")
        info = _describe(spec, unit_places, started)
        for name, text in info.pop("_texts").items():
            temporary.write_text(name, text)
        temporary.write_text("stream.json", json.dumps(info, indent=1, sort_keys=False) + "\n")
        temporary.replace(target)
        return info
    except BaseException:
        temporary.remove()
        raise


def write_stream_local(spec: GeneratorSpec, out: str | Path, *, compression: str = "snappy",
                       progress: Callable[[int, int], None] | None = None) -> dict:
    """The same stream directory made by the pure-Python twin, without Spark (for tests and small streams); local paths only.

    ``progress(rows_written, rows_in_all)`` is called after each batch written."""
    from generators.hadoop_fs import local_path

    if local_path(out) is None:
        raise ConfigError(f"output {out}: without Spark only a local path or file:// URI can be written")
    out = local_path(out)
    check_output(out)
    temporary = _temporary_sibling(out)
    started = time.perf_counter()
    try:
        unit_places = twin_places(spec)
        total = stream_counts(spec, unit_places)["triples"] if progress is not None else 0
        written = 0
        (temporary / "events").mkdir(parents=True)
        with pq.ParquetWriter(temporary / "events" / "part-00000.parquet", EVENT_SCHEMA, compression=compression) as writer:
            for batch in twin_batches(spec, unit_places):
                writer.write_batch(batch)
                written += batch.num_rows
                if progress is not None:
                    progress(written, total)
        return _finish(spec, temporary, out, unit_places, started)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def _say(message: str) -> None:
    if sys.stderr.isatty():
        print(f"cgpm generate: {message}", file=sys.stderr)
