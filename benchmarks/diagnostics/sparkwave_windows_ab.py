"""What one Sparkwave network for queries of different windows gains over one instance per query: both forms interleaved in one process.

Issue 25: with window bounds per token, queries of different time windows are productions of one network
(``engines.sparkwave.query_set``), sharing its one pass per event and its collection but no memory (a triple
is a WME of each window it enters). This probe times N copies of pattern 1 on the leaf-typed BSBM stream
(rdfs, the set-up of docs/sparkwave-results.md), copy k under ``sliding(1000 + 250·k ms, 1 ms)``, as one
network (``add_query``) and as N instances, pushing the same events held in memory. The first event is
pushed untimed in both forms (a network holding added queries is built at its first event). Each pass
times the pushes with the thread's CPU time (another process's turn on a shared core is not counted); the
order of the two forms alternates from round to round. The figure is the per-round ratio of the
instances' time over the network's (above 1: one network is faster), median and IQR.

    taskset -c 0 python -m benchmarks.diagnostics.sparkwave_windows_ab results/runs/.streams/bsbm-1000-leaf \\
        [--events 3000 --counts 1 4 16 --rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from benchmarks.diagnostics.compact_ab import spread
from engines.model.query import load_query
from engines.model.stream import Window
from engines.sparkwave import SparkwaveEngine
from harness.streams.reader import open_stream

QUERY = Path(__file__).resolve().parents[2] / "generators" / "bsbm" / "queries" / "P1_offer_type.rq"


def one_network(queries, stream) -> list:
    engine = SparkwaveEngine(queries[0], static=stream.static, schema=stream.schema)
    for query in queries[1:]:
        engine.add_query(query)
    if "query_set" in engine.__dict__:
        raise AssertionError("the queries did not go into one network")
    return [engine]


def instances(queries, stream) -> list:
    return [SparkwaveEngine(query, static=stream.static, schema=stream.schema) for query in queries]


def push_cpu_seconds(engines, events) -> float:
    for engine in engines:
        engine.push(events[0])
    clock = time.thread_time_ns
    spent = 0
    for event in events[1:]:
        for engine in engines:
            before = clock()
            engine.push(event)
            spent += clock() - before
    return spent / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stream", help="the leaf-typed BSBM stream directory")
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    stream = open_stream(args.stream, max_events=args.events).materialise()
    events = list(stream.events)
    base = load_query(QUERY, window=Window.sliding(1000, 1), entailment="rdfs")
    print("| queries (windows) | instances' CPU time / one network's |\n|---:|---:|")
    for count in args.counts:
        queries = [base.with_window(Window.sliding(1000 + 250 * k, 1)) for k in range(count)]
        ratios = []
        for round_number in range(args.rounds):
            forms = [("network", one_network), ("instances", instances)]
            seconds = {}
            for name, build in forms[::-1] if round_number % 2 else forms:
                gc.collect()
                seconds[name] = push_cpu_seconds(build(queries, stream), events)
            ratios.append(seconds["instances"] / seconds["network"])
        print(f"| {count} | {spread(ratios)} |", flush=True)


if __name__ == "__main__":
    main()
