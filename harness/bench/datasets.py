"""A workload's streams exist on local disk before any cell runs: generated once per (dataset, scale, seed, shape, rate, options), fetched once per URI.

Streams are made by the generators' own Spark job (``generators.writer.write_stream_spark``) when
the run uses Spark, else by their pure-Python twin, which writes the same rows. They are kept in
the configuration's ``stream_cache`` (``results/runs/.streams`` by default, ignored by git), named
by what decides their rows, so a second run and a resumed run read the same stream (a workload over named
streams has a directory or a generated stream per stream IRI: ``harness.bench.workload_streams``). A workload's
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
from harness.bench.config import BenchConfig, Generate, is_remote
from harness.bench.workload_streams import generated_key

REMOTE = "uri"  # the first element of a fetched stream's key, beside generated streams' (dataset, ...) keys


def _generate_specs(workload) -> list[Generate]:
    named = [spec for _, spec in workload.streams if isinstance(spec, Generate)]
    return ([workload.generate] if workload.generate is not None else []) + named


def _locations(workload) -> list[str]:
    named = [spec for _, spec in workload.streams if isinstance(spec, str)]
    return ([workload.stream] if workload.stream is not None else []) + named


def generated_keys(config: BenchConfig) -> list[tuple]:
    keys = []
    for workload in config.workloads:
        for spec in _generate_specs(workload):
            for scale in spec.scales:
                for shape in spec.event_shapes:
                    key = generated_key(spec, scale, shape)
                    if key not in keys:
                        keys.append(key)
    return keys


def stream_name(key: tuple) -> str:
    dataset, scale, seed, shape, rate, options = key
    name = f"{dataset}-scale{scale}-seed{seed}-{re.sub(r'[^A-Za-z0-9]+', '', shape)}"
    name += "".join(f"-{re.sub(r'[^A-Za-z0-9.]+', '', f'{option}{value}')}" for option, value in options)
    return name + (f"-rate{rate:g}" if rate is not None else "")


def make_stream(key: tuple, directory: Path, spark=None) -> dict:
    """Generate the stream ``key`` into ``directory`` (on Spark when a session is given)."""
    try:
        from generators.framing import EventShape, GeneratorSpec
        from generators.writer import write_stream_local, write_stream_spark
    except ImportError as error:
        raise GeneratorError(f"the generators cannot be imported ({error}); use a stream directory instead") from None
    dataset, scale, seed, shape, rate, options = key
    spec = GeneratorSpec(dataset=dataset, scale=scale, seed=seed, shape=EventShape.parse(shape), rate=rate,
                         options=tuple(options))
    from harness.progress_lines import following, progress_bar
    from harness.spark_progress import spark_progress

    what = f"generate {dataset}({scale})"
    if spark is not None:
        with spark_progress(f"{what} on Spark"):
            return write_stream_spark(spark, spec, directory)
    bar = progress_bar(0, what, "triple", leave=False)
    try:
        return write_stream_local(spec, directory, progress=following(bar))
    finally:
        bar.close()


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
    for location in dict.fromkeys(location for workload in config.workloads for location in _locations(workload)):
        if not is_remote(location):
            continue
        directory = cache / remote_name(location)
        if not (directory / "stream.json").is_file():
            say(f"fetching {location} into {directory}")
            fetch_stream(location, directory, spark)
        directories[(REMOTE, location)] = str(directory)
    for key in generated_keys(config):
        directory = cache / stream_name(key)
        if not (directory / "stream.json").is_file():
            say(f"generating {stream_name(key)} {'on Spark' if spark is not None else 'in this process'} into {directory}")
            make_stream(key, directory, spark)
        directories[key] = str(directory)
    return directories

