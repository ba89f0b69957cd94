"""Generator throughput end to end: triples per second with the Parquet stream directory written, on Spark.

Not part of the test run. Usage::

    python benchmarks/bench_generators.py [--lubm 20] [--taxi 1000000] [--bsbm 0] [--lsbench 0] [--snb 0] [--repeat 1] [--master local[2]] [--twin]

For each dataset it times ``write_stream_spark`` (count pass, generation, Parquet written, files
renamed into place) on an already started session, and prints one JSON line with the triples,
the seconds and triples/s; the session start-up is timed and reported apart. On a shared machine
the wall rate says mostly how busy it is, so the CPU seconds of the driver, JVM and Python workers
(psutil, all descendants) and the load average are reported too. ``--twin`` also
times the in-process generation alone (no Spark, nothing written) as a reference for the
Python-side cost. ``--repeat R`` writes each stream R times and adds a summary line with the
median and interquartile range of the triples/s; for BSBM the driver's time to make ``static.nt``
(included in the write) is reported apart as ``static_seconds``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
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


def _measure_twin(spec: GeneratorSpec) -> dict:
    started = time.perf_counter()
    triples = sum(batch.num_rows for batch in twin_batches(spec))
    seconds = time.perf_counter() - started
    return {"dataset": spec.dataset, "scale": spec.scale, "mode": "twin, generation only", "triples": triples,
            "seconds": round(seconds, 2), "triples_per_second": round(triples / seconds)}


def _summary(runs: list[dict]) -> dict:
    rates = np.array([run["triples_per_second"] for run in runs], dtype=np.float64)
    cpu_rates = np.array([run["triples_per_cpu_second"] for run in runs], dtype=np.float64)
    quartiles = lambda values: [round(float(q)) for q in np.percentile(values, [25, 50, 75])]  # noqa: E731
    q1, median, q3 = quartiles(rates)
    c1, cpu_median, c3 = quartiles(cpu_rates)
    return {"dataset": runs[0]["dataset"], "scale": runs[0]["scale"], "summary_of": len(runs),
            "triples": runs[0]["triples"], "triples_per_second_median": median, "triples_per_second_iqr": [q1, q3],
            "triples_per_cpu_second_median": cpu_median, "triples_per_cpu_second_iqr": [c1, c3]}


def _static_seconds(spec: GeneratorSpec) -> float:
    from generators.pipeline import dataset_module

    started = time.perf_counter()
    text = dataset_module(spec.dataset).static_ntriples(spec)
    sum(len(chunk) for chunk in ([text] if isinstance(text, str) else text or ()))
    return round(time.perf_counter() - started, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lubm", type=int, default=20, help="LUBM universities (0 to skip)")
    parser.add_argument("--taxi", type=int, default=1_000_000, help="taxi trips (0 to skip)")
    parser.add_argument("--bsbm", type=int, default=0, help="BSBM products, 20 offers each (0 to skip)")
    parser.add_argument("--lsbench", type=int, default=0, help="LSBench users, 10 days (0 to skip)")
    parser.add_argument("--snb", type=int, default=0, help="SNB persons, one year (0 to skip)")
    parser.add_argument("--repeat", type=int, default=1, help="writes per stream; > 1 adds a median/IQR summary")
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
             for name, scale in (("lubm", args.lubm), ("taxi", args.taxi), ("bsbm", args.bsbm),
                                 ("lsbench", args.lsbench), ("snb", args.snb)) if scale]
    with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
        for spec in specs:
            runs = []
            for _ in range(args.repeat):
                runs.append(_measure_spark(spark, spec, Path(scratch)))
                print(json.dumps(runs[-1]), flush=True)
            if args.repeat > 1:
                print(json.dumps(_summary(runs)), flush=True)
            if spec.dataset == "bsbm":
                print(json.dumps({"dataset": "bsbm", "scale": spec.scale, "static_seconds": _static_seconds(spec)}), flush=True)
            if args.twin:
                print(json.dumps(_measure_twin(spec)), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
