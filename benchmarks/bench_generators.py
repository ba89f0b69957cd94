"""Generator throughput end to end: triples per second with the Parquet stream directory written, on Spark.

Not part of the test run. Usage::

    python benchmarks/bench_generators.py [--lubm 20] [--taxi 1000000] [--lsbench 10000] [--snb 10000]
                                          [--repetitions 5] [--master local[2]] [--twin]

For each dataset it times ``write_stream_spark`` (``--repetitions`` times, then the median and
interquartile range of the rates) (count pass, generation, Parquet written, files
renamed into place) on an already started session, and prints one JSON line with the triples,
the seconds and triples/s; the session start-up is timed and reported apart. On a shared machine
the wall rate says mostly how busy it is, so the CPU seconds of the driver, JVM and Python workers
(psutil, all descendants) and the load average are reported too. ``--twin`` also
times the in-process generation alone (no Spark, nothing written) as a reference for the
Python-side cost.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import psutil

from generators.framing import GeneratorSpec
from generators.pipeline import twin_batches
from generators.writer import write_stream_spark
from harness.spark import spark_session


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


def _measure_spark(spark, spec: GeneratorSpec, scratch: Path) -> dict:
    out = scratch / f"{spec.dataset}-{spec.scale}"
    load = os.getloadavg()[0]
    cpu = _cpu_seconds()
    started = time.perf_counter()
    info = write_stream_spark(spark, spec, out)
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu
    size = sum(path.stat().st_size for path in (out / "events").glob("part-*"))
    shutil.rmtree(out)
    triples = info["counts"]["triples"]
    return {"dataset": spec.dataset, "scale": spec.scale, "mode": "spark+parquet", "triples": triples,
            "events": info["counts"]["events"], "seconds": round(seconds, 2),
            "triples_per_second": round(triples / seconds), "cpu_seconds": round(cpu, 2),
            "triples_per_cpu_second": round(triples / cpu), "load_average_before": round(load, 2), "parquet_bytes": size}


def _summary(runs: list[dict]) -> dict:
    """Median and interquartile range of the repetitions' rates (wall and per CPU second)."""
    summary = {"dataset": runs[0]["dataset"], "scale": runs[0]["scale"], "repetitions": len(runs), "triples": runs[0]["triples"]}
    for key in ("triples_per_second", "triples_per_cpu_second"):
        q1, median, q3 = statistics.quantiles([run[key] for run in runs], n=4, method="inclusive")
        summary[key] = {"median": round(median), "iqr": [round(q1), round(q3)]}
    return summary


def _measure_twin(spec: GeneratorSpec) -> dict:
    started = time.perf_counter()
    triples = sum(batch.num_rows for batch in twin_batches(spec))
    seconds = time.perf_counter() - started
    return {"dataset": spec.dataset, "scale": spec.scale, "mode": "twin, generation only", "triples": triples,
            "seconds": round(seconds, 2), "triples_per_second": round(triples / seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lubm", type=int, default=20, help="LUBM universities (0 to skip)")
    parser.add_argument("--taxi", type=int, default=1_000_000, help="taxi trips (0 to skip)")
    parser.add_argument("--lsbench", type=int, default=0, help="LSBench users, 10 days (0 to skip)")
    parser.add_argument("--snb", type=int, default=0, help="SNB persons, one year (0 to skip)")
    parser.add_argument("--repetitions", type=int, default=1, help="timed writes per dataset (median and IQR reported)")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, help="Spark partitions (default: twice the cores)")
    parser.add_argument("--twin", action="store_true", help="also time in-process generation alone")
    parser.add_argument("--scratch", type=Path, default=None, help="where to write (default: a temp dir)")
    args = parser.parse_args()

    started = time.perf_counter()
    spark = spark_session(args.master, app_name="cgpm bench generators", progress=False)
    spark.range(1).count()
    print(json.dumps({"session_start_seconds": round(time.perf_counter() - started, 2), "master": args.master}))
    specs = [GeneratorSpec(name, scale, partitions=args.partitions)
             for name, scale in (("lubm", args.lubm), ("taxi", args.taxi), ("lsbench", args.lsbench), ("snb", args.snb))
             if scale]
    with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
        for spec in specs:
            runs = [_measure_spark(spark, spec, Path(scratch)) for _ in range(args.repetitions)]
            for run in runs:
                print(json.dumps(run), flush=True)
            if len(runs) > 1:
                print(json.dumps(_summary(runs)), flush=True)
            if args.twin:
                print(json.dumps(_measure_twin(spec)), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
