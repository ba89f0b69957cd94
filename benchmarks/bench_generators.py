"""Generator throughput end to end on Spark, measured per repetition: wall and CPU seconds, peak RSS of the whole process tree, Parquet bytes.

Not part of the test run. Usage (from the repository's root)::

    python -m benchmarks.bench_generators --stream taxi:10000000:seed=7 --stream lsbench:6000 \\
        --repeat 3 --master 'local[1]' --publish results/published/generation/paper-scale \\
        [--check-partitions 4] [--keep results/runs/.streams]

``--stream DATASET:SCALE[:KEY=VALUE,...]`` (keys seed, index, events_of, rate, else the dataset's
options: ``lsbench:6000:days=10``). Each repetition times ``write_stream_spark`` (count pass,
generation, Parquet written, files renamed into place) on an already started session (its start-up is
reported apart); the CPU seconds and the peak RSS (``harness.bench.sampler``, 10 samples a second)
cover the driver, the JVM and the Python workers. ``--check-partitions N`` first makes the stream's
first N units on ``local[1]`` and on ``local[2]`` and compares the rows (``benchmarks.partition_check``):
a difference is an error (exit 1) after it is published. ``--publish DIR`` adds the streams'
repetitions and records to DIR (``benchmarks.generation_record``); ``--keep DIR`` keeps the last
repetition's stream directory as ``DIR/<the name cgpm bench's cache gives it>``, so ``cgpm bench``
reuses it. ``--twin`` also times the in-process generation alone (no Spark, nothing written).
``--retable DIR`` measures nothing and regenerates DIR's table and README; ``--docs FILE`` then rewrites the
block of FILE that shows the table (``docs/generators.md``; a test keeps the two equal).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import psutil

from benchmarks import generation_record
from benchmarks.partition_check import MASTERS, check_partitions
from common.errors import CgpmError, ConfigError
from generators.framing import GeneratorSpec

SAMPLE_HZ = 0.0  # no series kept: the sampler reads the tree's RSS at its watch rate (10 a second) for the peak


def _cpu_seconds() -> float:
    """CPU time of this process and all its descendants (the JVM and the Python workers)."""
    total = 0.0
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _lines(path: Path) -> int:
    if not path.is_file():
        return 0
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 24), b""))


def measure(spark, spec: GeneratorSpec, out: Path, repetition: int, master: str) -> dict:
    """Write the stream once into ``out`` and return the repetition's row (``out`` is left for the caller)."""
    from generators.writer import write_stream_spark
    from harness.bench.sampler import RssSampler

    load = os.getloadavg()[0]
    sampler = RssSampler(SAMPLE_HZ, children=True)
    rss_before = sampler.rss()
    sampler.start()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    cpu = _cpu_seconds()
    started = time.perf_counter()
    try:
        info = write_stream_spark(spark, spec, out)
    finally:
        seconds = time.perf_counter() - started
        cpu = _cpu_seconds() - cpu
        sampler.stop()
    files = [path for path in out.rglob("*") if path.is_file()]
    triples = info["counts"]["triples"]
    return {"stream": generation_record.stream_label(spec), "dataset": spec.dataset, "scale": spec.scale,
            "master": master, "repetition": repetition, "wall_s": round(seconds, 3), "cpu_s": round(cpu, 3),
            "triples": triples, "events": info["counts"]["events"], "static_triples": _lines(out / "static.nt"),
            "triples_per_s": round(triples / seconds), "triples_per_cpu_s": round(triples / cpu),
            "peak_rss_bytes": max(sampler.peak, rss_before), "rss_before_bytes": rss_before,
            "parquet_bytes": sum(path.stat().st_size for path in files if path.parent.name == "events"),
            "directory_bytes": sum(path.stat().st_size for path in files),
            "load_average_before": round(load, 2), "sampler_cpu_s": round(sampler.cpu_s, 3),
            "started": started_at}


def twin_row(spec: GeneratorSpec) -> dict:
    from generators.pipeline import twin_batches

    started = time.perf_counter()
    triples = sum(batch.num_rows for batch in twin_batches(spec))
    seconds = time.perf_counter() - started
    return {"stream": generation_record.stream_label(spec), "mode": "twin, generation only", "triples": triples,
            "seconds": round(seconds, 2), "triples_per_second": round(triples / seconds)}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_generators", description=__doc__.splitlines()[0])
    parser.add_argument("--stream", action="append", default=[], metavar="DATASET:SCALE[:KEY=VALUE,...]",
                        help="a stream to measure, repeatable (e.g. taxi:10000000:seed=7, lsbench:6000:days=10)")
    parser.add_argument("--repeat", type=int, default=5, help="writes per stream (default 5)")
    parser.add_argument("--master", default="local[1]")
    parser.add_argument("--check-partitions", type=int, default=0, metavar="N",
                        help="first compare the stream's first N units made on local[1] and on local[2]")
    parser.add_argument("--publish", type=Path, help="published folder the streams are added to")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the last repetition's stream in DIR")
    parser.add_argument("--scratch", type=Path, help="where repetitions are written (default: a temp dir)")
    parser.add_argument("--note", default="", help="a line for the README beside each stream of this run")
    parser.add_argument("--twin", action="store_true", help="also time in-process generation alone")
    parser.add_argument("--retable", metavar="DIR", help="measure nothing: regenerate DIR's table.md and README.md")
    parser.add_argument("--docs", metavar="FILE", help="then rewrite FILE's block holding the table of --publish/--retable")
    return parser.parse_args(argv)


def check_args(args: argparse.Namespace) -> list[GeneratorSpec]:
    """The streams to measure; anything wrong is a one-line ConfigError/GeneratorError before Spark starts."""
    if not args.stream and not args.retable:
        raise ConfigError("give at least one --stream DATASET:SCALE (or --retable DIR)")
    if args.docs and not (args.publish or args.retable):
        raise ConfigError("--docs needs the folder whose table it shows: --publish DIR or --retable DIR")
    if args.repeat < 1:
        raise ConfigError(f"--repeat {args.repeat}: it must be >= 1")
    if args.check_partitions < 0:
        raise ConfigError(f"--check-partitions {args.check_partitions}: it must be >= 0 (0: no check)")
    specs = [generation_record.parse_stream(text) for text in args.stream]
    if args.keep is not None:
        for spec in specs:
            kept = args.keep / generation_record.stream_label(spec)
            if kept.exists():
                raise ConfigError(f"--keep {args.keep}: {kept} already exists; remove it or keep elsewhere")
    if args.publish is not None:
        generation_record.read_folder(args.publish)  # another schema is refused now, not after an hour of work
    return specs


def _record(args, spec, argv, started, session_start_s, check, kept) -> dict:
    from harness.bench.machine import git_info, machine_info, package_versions

    return {"stream": generation_record.stream_label(spec), "command": argv, "master": args.master,
            "repetitions": args.repeat, "started": started,
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "session_start_s": session_start_s, "partition_check": check, "kept": str(kept) if kept else None,
            "cpu_affinity": sorted(os.sched_getaffinity(0)), "nice": os.nice(0), "note": args.note,
            "machine": machine_info(), "git": git_info(), "packages": package_versions()}


def run(argv: list[str]) -> int:
    from harness.spark import spark_session

    args = parse_args(argv[1:])
    specs = check_args(args)
    if args.retable:
        generation_record.retable(args.retable)
        if args.docs:
            generation_record.write_docs(args.docs, args.retable)
        return 0
    records, rows, failed = {}, [], []
    for spec in specs:
        started = datetime.now(UTC).isoformat(timespec="seconds")
        check = None
        if args.check_partitions:
            check = check_partitions_of(spec, args)
            print(json.dumps({"partition_check": check}), flush=True)
            if not check["identical"]:
                failed.append(generation_record.stream_label(spec))
        session_started = time.perf_counter()
        spark = spark_session(args.master, app_name="cgpm bench generators", progress=False)
        spark.range(1).count()
        session_start_s = round(time.perf_counter() - session_started, 2)
        kept = None
        with tempfile.TemporaryDirectory(dir=args.scratch, prefix="cgpm-bench-generators-") as scratch:
            for repetition in range(args.repeat):
                out = Path(scratch) / generation_record.stream_label(spec)
                rows.append(measure(spark, spec, out, repetition, args.master))
                print(json.dumps(rows[-1]), flush=True)
                if args.keep is not None and repetition == args.repeat - 1:
                    kept = args.keep / out.name
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(out), str(kept))
                else:
                    shutil.rmtree(out)
        spark.stop()
        if args.twin:
            print(json.dumps(twin_row(spec)), flush=True)
        label = generation_record.stream_label(spec)
        records[label] = _record(args, spec, argv, started, session_start_s, check, kept)
        if args.publish is not None:  # stream by stream: a long run's finished streams are kept if a later one fails
            generation_record.publish(args.publish, {label: records[label]}, [row for row in rows if row["stream"] == label])
    if args.docs:
        generation_record.write_docs(args.docs, str(args.publish))
    if failed:
        print(f"bench_generators: partition check failed: {', '.join(failed)} differ between "
              f"{' and '.join(MASTERS)} (see run.json)", file=sys.stderr)
        return 1
    return 0


def check_partitions_of(spec: GeneratorSpec, args: argparse.Namespace) -> dict:
    return check_partitions(spec, args.check_partitions, scratch=args.scratch,
                            say=lambda message: print(message, file=sys.stderr, flush=True))


def main() -> int:
    try:
        return run(sys.argv)
    except CgpmError as error:
        print(f"bench_generators: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
