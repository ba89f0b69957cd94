"""Verification at scale: the Spark oracle's whole answer history against the plain oracle's per-instant re-evaluation.

Not part of the test run. Usage::

    python benchmarks/bench_spark_oracle.py --stream DIR --query L7.rq --window sliding:10s:1s \
        [--repetitions 5] [--plain-instants 40] [--master local[2]] [--skip-plain]

One session is started first (timed apart). Then, ``--repetitions`` times each, side by side:

- ``spark``: ``oracles.spark.answer_history`` over the whole stream, i.e. M(τ) at every instant,
  the changes collected on the driver;
- ``plain``: ``oracles.evaluate.oracle_answers(oracle="plain")`` at ``--plain-instants`` instants
  spread evenly over the stream (re-evaluating all of them would take hours); its time for all
  instants is the per-instant time × the number of instants, reported as such.

Prints one JSON line per repetition and a summary with medians and IQRs, the ratio of the
medians (plain extrapolated / spark), the window's size in triples and the load average (the
machine is shared: the ratio matters more than the seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np

from engines.model.query import load_query
from engines.model.windows import parse_window
from harness.oracle_choice import reevaluation_cost
from harness.spark import spark_session
from harness.streams import check_window, read_stream
from oracles.evaluate import oracle_answers
from oracles.spark import answer_history


def iqr(values: list[float]) -> float:
    q1, q3 = np.percentile(values, [25, 75])
    return float(q3 - q1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--window", required=True)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--plain-instants", type=int, default=40)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--skip-plain", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    query = load_query(args.query, window=parse_window(args.window))
    stream = read_stream(args.stream)
    check_window(stream, query.window)
    load_s = time.perf_counter() - started
    count = len(stream.events)
    window_triples = reevaluation_cost(query, stream, [e.index for e in stream.events]) / count
    started = time.perf_counter()
    spark = spark_session(args.master, app_name="cgpm bench spark oracle", progress=False)
    session_s = time.perf_counter() - started
    sample = sorted({int(i) for i in np.linspace(0, count - 1, args.plain_instants)})
    sample_indices = [stream.events[i].index for i in sample]
    rows = []
    for repetition in range(args.repetitions):
        started = time.perf_counter()
        history = answer_history(spark, query, stream)
        spark_s = time.perf_counter() - started
        changes = sum(map(len, history.added.values())) + sum(map(len, history.removed.values()))
        row = {"repetition": repetition, "spark_s": spark_s, "changes": changes}
        if not args.skip_plain:
            started = time.perf_counter()
            plain = list(oracle_answers(query, stream, instants=sample_indices, oracle="plain"))
            plain_s = time.perf_counter() - started
            row.update(plain_sample_s=plain_s, plain_per_instant_s=plain_s / len(sample),
                       plain_all_s_extrapolated=plain_s / len(sample) * count)
            replay = dict(history.answers(sample))
            row["agree_on_sample"] = all(replay[sample[k]] == answers for k, (_, _, answers) in enumerate(plain))
        rows.append(row)
        print(json.dumps(row), flush=True)
    spark_times = [r["spark_s"] for r in rows]
    summary = {
        "stream": args.stream, "query": args.query, "window": query.window.spec(), "events": count,
        "triples": stream.triple_count, "mean_window_triples": round(window_triples), "load_s": round(load_s, 1),
        "session_start_s": round(session_s, 1), "repetitions": len(rows),
        "spark_median_s": statistics.median(spark_times), "spark_iqr_s": iqr(spark_times),
        "loadavg": os.getloadavg(), "cpus": os.cpu_count(),
    }
    if not args.skip_plain:
        plain_times = [r["plain_all_s_extrapolated"] for r in rows]
        summary.update(plain_instants_sampled=len(sample), plain_all_median_s=statistics.median(plain_times),
                       plain_all_iqr_s=iqr(plain_times),
                       ratio_plain_over_spark=statistics.median(plain_times) / statistics.median(spark_times),
                       agree_on_sample=all(r["agree_on_sample"] for r in rows))
    print(json.dumps({"summary": summary}), flush=True)


if __name__ == "__main__":
    main()
