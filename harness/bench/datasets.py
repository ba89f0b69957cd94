"""A workload's streams exist on local disk before any cell runs: generated once per (dataset, scale, seed, shape, rate), fetched once per URI.

Streams are made by the generators' own Spark job (``generators.writer.write_stream_spark``) when
the run uses Spark, else by their pure-Python twin, which writes the same rows. They are kept in
the configuration's ``stream_cache`` (``results/runs/.streams`` by default, ignored by git), named
by what decides their rows, so a second run and a resumed run read the same stream. A workload's
``stream`` on another filesystem (``hdfs://``, ``s3a://``: anything Spark's Hadoop configuration reaches)
is copied into the same cache once, named by its URI, because every cell's process reads its stream
from a local directory; the copy is kept until the cache is removed, so a changed remote stream needs
the cache entry deleted (its name is printed when it is fetched).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from common.errors import GeneratorError, StreamError
from harness.bench.config import BenchConfig, is_remote

REMOTE = "uri"  # the first element of a fetched stream's key, beside generated streams' (dataset, ...) keys


def generated_keys(config: BenchConfig) -> list[tuple]:
    keys = []
    for workload in config.workloads:
        spec = workload.generate
        if spec is None:
            continue
        for scale in spec.scales:
            for shape in spec.event_shapes:
                key = (spec.dataset, scale, spec.seed, shape, spec.rate)
                if key not in keys:
                    keys.append(key)
    return keys


def stream_name(key: tuple) -> str:
    dataset, scale, seed, shape, rate = key
    name = f"{dataset}-scale{scale}-seed{seed}-{re.sub(r'[^A-Za-z0-9]+', '', shape)}"
    return name + (f"-rate{rate:g}" if rate is not None else "")


def make_stream(key: tuple, directory: Path, spark=None) -> dict:
    """Generate the stream ``key`` into ``directory`` (on Spark when a session is given)."""
    try:
        from generators.framing import EventShape, GeneratorSpec
        from generators.writer import write_stream_local, write_stream_spark
    except ImportError as error:
        raise GeneratorError(f"the generators cannot be imported ({error}); use a stream directory instead") from None
    dataset, scale, seed, shape, rate = key
    spec = GeneratorSpec(dataset=dataset, scale=scale, seed=seed, shape=EventShape.parse(shape), rate=rate)
    if spark is not None:
        return write_stream_spark(spark, spec, directory)
    return write_stream_local(spec, directory)


def remote_name(uri: str) -> str:
    """The cache entry of a fetched stream: its last path segment, and a hash of the whole URI (two buckets may share names)."""
    last = re.sub(r"[^A-Za-z0-9.-]+", "-", uri.rstrip("/").rsplit("/", 1)[-1]).strip("-") or "stream"
    return f"remote-{last}-{hashlib.sha1(uri.encode()).hexdigest()[:10]}"


def fetch_stream(uri: str, directory: Path, spark=None) -> None:
    """Copy the stream at ``uri`` into ``directory`` through Spark's Hadoop filesystem; nothing is left on failure."""
    import shutil

    from generators.hadoop_fs import SparkLocation

    if spark is None:
        from harness.spark import spark_session
        spark = spark_session(app_name="cgpm fetch")
    partial = directory.with_name(directory.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    try:
        SparkLocation(spark, uri).copy_to_local(partial)
        if not (partial / "stream.json").is_file():
            raise StreamError(f"{uri} holds no stream.json: not a stream directory")
        partial.rename(directory)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def prepare_streams(config: BenchConfig, spark=None, say=lambda message: None) -> dict[tuple, str]:
    """Directory of every generated or remote stream the configuration names, making or fetching the missing ones."""
    cache = Path(config.stream_cache)
    directories = {}
    for workload in config.workloads:
        if workload.stream is None or not is_remote(workload.stream) or (REMOTE, workload.stream) in directories:
            continue
        directory = cache / remote_name(workload.stream)
        if not (directory / "stream.json").is_file():
            say(f"fetching {workload.stream} into {directory}")
            fetch_stream(workload.stream, directory, spark)
        directories[(REMOTE, workload.stream)] = str(directory)
    for key in generated_keys(config):
        directory = cache / stream_name(key)
        if not (directory / "stream.json").is_file():
            say(f"generating {stream_name(key)} {'on Spark' if spark is not None else 'in this process'} into {directory}")
            make_stream(key, directory, spark)
        directories[key] = str(directory)
    return directories

