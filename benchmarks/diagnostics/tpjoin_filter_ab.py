"""A query against its FILTERed twin on one TP-Join engine in one process: the time each takes (interleaved rounds), the partitioning's share, and the work.

Figure 14 compares a query with and without an atomic FILTER, each cell in its own process; a gap of ten per
cent can then be the machine (the other core's load, the order of the cells) as well as the FILTER. This script
takes the process out, as ``tpjoin_lazy_eager_ab.py`` does for two engines: it loads the stream once and
alternates the two queries round after round (B first in even rounds), each pass a fresh engine after a garbage
collection. Each pass is timed on two clocks: the wall clock (``perf_counter_ns``, as the runner) and the
thread's CPU time (``thread_time_ns``), which leaves out the time the process waits for the core: on a machine
shared with more runnable processes than cores the wall clock mostly measures the others. In each round it also
times Algorithm 1 alone (a fresh engine's ``route`` over every update of the events: pass 1, pass 2 with the
atomic FILTERs, and the encoding of the kept triples, into a dictionary that is never swept), so the rest of the
pass (views, automaton, expiry) is the difference. Printed: each round's ratios B / A (above 1: A faster) of the
whole pass (wall and CPU), of the partitioning and of the rest (CPU), then their median [IQR].

``--counts`` adds one instrumented pass of each query (``tpjoin_lazy_eager_ab.WorkCounter``): automaton runs,
state joins with their rows in and out, view rows, matches, dictionary calls, and the automata compiled (one
per distinct join order SortAndCombine chose).

    taskset -c 1 python -m benchmarks.diagnostics.tpjoin_filter_ab --stream results/runs/tpjoin-streams/snb-p200-message-rate1000 \
        --queries generators/snb/queries/Q3_complex.rq generators/snb/queries/Q3_complex_atomic.rq \
        --window sliding:10s:1ms --max-events 4000 [--engine tpjoin-lazy] [--rounds 12] [--counts]
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import numpy as np

from benchmarks.diagnostics.tpjoin_lazy_eager_ab import WorkCounter, _totals
from engines.model.query import load_query
from engines.registry import get_engine
from harness.streams.parquet_io import read_stream


def timed_pass(engine_cls, query, stream, events) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one pass of a fresh engine over ``events``."""
    gc.collect()
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    push = engine.push
    wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
    for event in events:
        push(event)
    return (time.perf_counter_ns() - wall) / 1e9, (time.thread_time_ns() - cpu) / 1e9


def partitioning_pass(engine_cls, query, stream, events) -> float:
    """CPU seconds for Algorithm 1 alone: a fresh engine's ``route`` over every update of ``events``, as ``push`` calls it."""
    gc.collect()
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    route, predicates = engine.compiled.route, engine.compiled.predicates
    started = time.thread_time_ns()
    for event in events:
        for _, s, p, o in event.updates:
            if predicates is None or p in predicates:  # pass 1, before ``route``, as ``push`` does it
                route(s, p, o)
    return (time.thread_time_ns() - started) / 1e9


def spread(values) -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.3f} [{q1:.3f}-{q3:.3f}] (n={len(values)})"


def rounds(engine_cls, queries, stream, events, count: int) -> None:
    """``count`` rounds of a pass and a partitioning pass of each query, B first in even rounds; ratios B / A."""
    wall, whole, partitioning, rest = [], [], [], []
    print("| round | first | A wall s | B wall s | A CPU s | B CPU s | A partitioning CPU s | B partitioning CPU s | "
          "B / A wall | B / A CPU | B / A partitioning | B / A rest |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in range(count):
        order = (1, 0) if number % 2 == 0 else (0, 1)
        got = {}
        for side in order:
            got[side] = (*timed_pass(engine_cls, queries[side], stream, events),
                         partitioning_pass(engine_cls, queries[side], stream, events))
        (a_wall, a_cpu, a_part), (b_wall, b_cpu, b_part) = got[0], got[1]
        wall.append(b_wall / a_wall)
        whole.append(b_cpu / a_cpu)
        partitioning.append(b_part / a_part)
        rest.append((b_cpu - b_part) / (a_cpu - a_part))
        print(f"| {number} | {'AB'[order[0]]} | {a_wall:.3f} | {b_wall:.3f} | {a_cpu:.3f} | {b_cpu:.3f} | {a_part:.4f} | "
              f"{b_part:.4f} | {wall[-1]:.3f} | {whole[-1]:.3f} | {partitioning[-1]:.3f} | {rest[-1]:.3f} |", flush=True)
    print(f"\nB / A per round (above 1: A faster): whole pass, wall clock {spread(wall)}; CPU {spread(whole)}; "
          f"partitioning (CPU) {spread(partitioning)}; the rest (CPU) {spread(rest)}")


def counts(engine_cls, queries, names, stream, events) -> None:
    found = []
    for query in queries:
        with WorkCounter() as counter:
            engine = engine_cls(query, static=stream.static, schema=stream.schema)
            for event in events:
                engine.push(event)
        found.append(_totals(counter.counts["filling"]))
    print(f"\n| count | A: {names[0]} | B: {names[1]} |\n|---|---|---|")
    for key in sorted(set(found[0]) | set(found[1])):
        print(f"| {key} | {found[0][key]:,} | {found[1][key]:,} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True, help="stream directory")
    parser.add_argument("--queries", nargs=2, required=True, metavar=("A", "B"), help="the query and its twin")
    parser.add_argument("--window", required=True, help="e.g. sliding:10s:1ms")
    parser.add_argument("--max-events", type=int, default=0)
    parser.add_argument("--engine", default="tpjoin-lazy", help="a TP-Join engine (default tpjoin-lazy)")
    parser.add_argument("--rounds", type=int, default=12, help="interleaved rounds (default 12)")
    parser.add_argument("--counts", action="store_true", help="also count the work of one pass of each")
    args = parser.parse_args(argv)
    stream = read_stream(args.stream)
    events = stream.events[: args.max_events] if args.max_events else stream.events
    queries = [load_query(path, window=args.window) for path in args.queries]
    names = [Path(path).stem for path in args.queries]
    engine_cls = get_engine(args.engine)
    print(f"{Path(args.stream).name}, {args.engine}, {args.window}, {len(events):,} events; "
          f"A = {names[0]}, B = {names[1]}\n")
    rounds(engine_cls, queries, stream, events, args.rounds)
    if args.counts:
        counts(engine_cls, queries, names, stream, events)


if __name__ == "__main__":
    main()
