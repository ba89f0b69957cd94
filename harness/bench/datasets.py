"""A generated workload's streams exist on disk before any cell runs, made once per (dataset, scale, seed, shape, rate) and reused.

Streams are made by the generators' own Spark job (``generators.writer.write_stream_spark``) when
the run uses Spark, else by their pure-Python twin, which writes the same rows. They are kept in
the configuration's ``stream_cache`` (``results/runs/.streams`` by default, ignored by git), named
by what decides their rows, so a second run and a resumed run read the same stream.
"""

from __future__ import annotations

import re
from pathlib import Path

from common.errors import GeneratorError
from harness.bench.config import BenchConfig


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


def prepare_streams(config: BenchConfig, spark=None, say=lambda message: None) -> dict[tuple, str]:
    """Directory of every generated stream the configuration names, generating the missing ones."""
    cache = Path(config.stream_cache)
    directories = {}
    for key in generated_keys(config):
        directory = cache / stream_name(key)
        if not (directory / "stream.json").is_file():
            say(f"generating {stream_name(key)} {'on Spark' if spark is not None else 'in this process'} into {directory}")
            make_stream(key, directory, spark)
        directories[key] = str(directory)
    return directories

