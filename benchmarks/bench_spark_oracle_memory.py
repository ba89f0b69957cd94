"""Driver memory of the Spark oracle: the Stream entry (stream read into the driver) against the directory entry (read by Spark).

Not part of the test run. Each (entry, stream, repetition) runs in a fresh Python process, since a
process's peak RSS only grows::

    python benchmarks/bench_spark_oracle_memory.py --stream DIR [--stream DIR2 …] --query L7.rq \
        --window sliding:10s:1s [--repetitions 3] [--master local[2]]

A child starts the session (``harness.spark.spark_session``, ``spark.driver.memory`` as it sets it),
notes the driver's RSS, runs one entry over the whole stream consuming its answers without keeping
them, and reports the Python driver's peak RSS (``ru_maxrss``), its growth over the RSS after session
start, and the JVM's peak RSS (psutil, sampled every 50 ms; in local mode the JVM is also the executor).
Prints one JSON line per run and a summary: median and IQR per (stream, entry).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time

import numpy as np


def _child(args) -> None:
    import psutil

    from engines.model.query import load_query
    from engines.model.windows import parse_window
    from harness.spark import spark_session

    spark = spark_session(args.master, app_name="cgpm bench spark oracle memory", progress=False)
    me = psutil.Process()
    jvm_peak = [0]

    def sample() -> None:
        while True:
            total = 0
            for child in me.children(recursive=True):
                try:
                    total += child.memory_info().rss
                except psutil.Error:
                    pass
            jvm_peak[0] = max(jvm_peak[0], total)
            time.sleep(0.05)

    threading.Thread(target=sample, daemon=True).start()
    rss_after_session = me.memory_info().rss
    query = load_query(args.query, window=parse_window(args.window))
    started = time.perf_counter()
    if args.entry == "stream":
        from harness.streams import read_stream
        from oracles.spark import oracle_answers

        answers = oracle_answers(spark, query, read_stream(args.stream))
    else:
        from oracles.spark import oracle_answers_from_directory

        answers = oracle_answers_from_directory(spark, query, args.stream)
    instants = changes = 0
    for _, _, current in answers:
        instants += 1
        changes += len(current)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({
        "entry": args.entry, "stream": args.stream, "instants": instants, "answer_rows": changes, "seconds": round(seconds, 1),
        "driver_peak_mb": round(peak / 2**20, 1), "driver_after_session_mb": round(rss_after_session / 2**20, 1),
        "driver_growth_mb": round((peak - rss_after_session) / 2**20, 1), "jvm_peak_mb": round(jvm_peak[0] / 2**20, 1),
        "spark_driver_memory": spark.conf.get("spark.driver.memory", "default"),
    }), flush=True)


def iqr(values: list[float]) -> float:
    q1, q3 = np.percentile(values, [25, 75])
    return float(q3 - q1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", action="append", required=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--window", required=True)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--entry", choices=["stream", "directory"], help=argparse.SUPPRESS)  # a child's one run
    args = parser.parse_args()
    if args.entry:
        args.stream = args.stream[0]
        _child(args)
        return
    rows = []
    for repetition in range(args.repetitions):
        for stream in args.stream:
            for entry in ("stream", "directory"):  # side by side in each repetition
                command = [sys.executable, __file__, "--entry", entry, "--stream", stream, "--query", args.query,
                           "--window", args.window, "--master", args.master]
                output = subprocess.run(command, check=True, capture_output=True, text=True, env=os.environ).stdout
                row = json.loads(output.strip().splitlines()[-1]) | {"repetition": repetition}
                rows.append(row)
                print(json.dumps(row), flush=True)
    summary = {}
    for stream in args.stream:
        for entry in ("stream", "directory"):
            mine = [r for r in rows if r["stream"] == stream and r["entry"] == entry]
            summary[f"{stream} {entry}"] = {
                key: {"median": statistics.median(r[key] for r in mine), "iqr": iqr([r[key] for r in mine])}
                for key in ("driver_peak_mb", "driver_growth_mb", "jvm_peak_mb", "seconds")
            }
    print(json.dumps({"summary": summary, "loadavg": os.getloadavg(), "cpus": os.cpu_count()}), flush=True)


if __name__ == "__main__":
    main()
