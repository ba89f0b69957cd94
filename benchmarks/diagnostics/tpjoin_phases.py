"""TP-Join's insertion time and query time, measured apart in one process: query time is exactly the automaton's runs (joins, FILTERs, projection), insertion time the rest of ``push``.

The paper's figures 8-12 and Table I split each event's cost into insertion (Algorithm 1:
partitioning, encoding, view materialisation; for the incremental models also expiry and filing
the matches) and query (the TP-Join automaton). The harness's runner times whole ``push`` calls,
so this script feeds a stored stream to an engine in-process and wraps the automaton's ``run`` and
``mappings`` with a clock (two ``perf_counter`` calls per automaton run, a few per event). Each
cell is repeated (``--repetitions``, default 5) in a fresh engine; printed: median [IQR] of total,
insertion and query time per event and the total throughput, one Markdown row per cell.

    taskset -c 0 python -m benchmarks.diagnostics.tpjoin_phases --stream STREAM_DIR --query Q.rq [--query ...] \
        --engine tpjoin-event --window event [--max-events N] [--repetitions 5] [--profile out.prof]

``--by-size`` also prints the median per-event times per event-size bucket (figures 8-12 plot them against event
size). ``--profile`` runs one repetition under cProfile instead and prints the 25 most expensive functions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

import numpy as np

from engines.model.query import load_query
from engines.registry import get_engine
from engines.tpjoin import automaton as automaton_module
from harness.streams.reader import open_stream


class JoinClock:
    """Accumulates the time spent inside ``Automaton.run`` and ``Automaton.mappings`` while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.runs = 0

    def __enter__(self):
        cls = automaton_module.Automaton
        self._saved = cls.run, cls.mappings
        run, mappings = self._saved
        clock = self

        def timed_run(automaton, merged):
            start = time.perf_counter()
            try:
                return run(automaton, merged)
            finally:
                clock.seconds += time.perf_counter() - start
                clock.runs += 1

        def timed_mappings(automaton, merged):
            start = time.perf_counter()
            try:
                return mappings(automaton, merged)
            finally:
                clock.seconds += time.perf_counter() - start

        cls.run, cls.mappings = timed_run, timed_mappings
        return self

    def __exit__(self, *exc) -> None:
        automaton_module.Automaton.run, automaton_module.Automaton.mappings = self._saved


def one_pass(engine_cls, query, stream, events, per_event: list | None = None) -> tuple[float, float, int]:
    """(total seconds, query seconds, answers added) of one pass over ``events`` in a fresh engine.

    ``events`` may be read from disk as the pass goes: the total is the sum of the pushes' times, so reading and
    decoding are never counted. With ``per_event``, (triples, total s, query s) of every event is appended to it."""
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    push = engine.push
    added = 0
    total = 0.0
    clock_now = time.perf_counter
    with JoinClock() as clock:
        for event in events:
            joined, began = clock.seconds, clock_now()
            added += len(push(event).added)
            took = clock_now() - began
            total += took
            if per_event is not None:
                per_event.append((len(event.updates), took, clock.seconds - joined))
    return total, clock.seconds, added


def by_size(per_event: list) -> None:
    """Median per-event total, insertion and query time (ms) per event-size bucket (powers of two), all repetitions."""
    rows = np.array(per_event)
    buckets = np.floor(np.log2(np.maximum(rows[:, 0], 1))).astype(int)
    print("| triples/event | events | total ms/event | insertion ms/event | query ms/event |")
    print("|---|---|---|---|---|")
    for bucket in sorted(set(buckets)):
        part = rows[buckets == bucket]
        total, query = part[:, 1], part[:, 2]
        cells = [spread(total, 1e3), spread(total - query, 1e3), spread(query, 1e3)]
        print(f"| {2 ** bucket:,}-{2 ** (bucket + 1) - 1:,} | {len(part):,} | " + " | ".join(cells) + " |")


def spread(values, scale: float = 1.0) -> str:
    q1, median, q3 = np.percentile(np.asarray(values) * scale, [25, 50, 75])
    return f"{median:,.1f} [{q1:,.1f}-{q3:,.1f}]"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True, action="append", help="stream directory (repeatable)")
    parser.add_argument("--query", required=True, action="append", help="query file (repeatable)")
    parser.add_argument("--engine", action="append", dest="engines", help="engine name (repeatable; default tpjoin-event)")
    parser.add_argument("--window", default="event")
    parser.add_argument("--max-events", type=int, default=0)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--profile", help="run once under cProfile, write the stats here and print the top 25")
    parser.add_argument("--by-size", action="store_true", help="also print the times per event-size bucket")
    args = parser.parse_args(argv)
    engines = args.engines or ["tpjoin-event"]
    print("| engine | stream | query | window | events | triples/event | total µs/event | insertion µs/event |"
          " query µs/event | query share | triples/s (median) | answers |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for stream_path in args.stream:
        # read as each pass goes (a paper-scale stream of 45M triples would not fit as Python objects)
        stream = open_stream(stream_path, max_events=args.max_events or None)
        facts = stream.facts()
        n_events, n_triples = facts.events, facts.triples
        for query_path in args.query:
            query = load_query(query_path, window=args.window)
            for engine_name in engines:
                engine_cls = get_engine(engine_name)
                if args.profile:
                    profiler = cProfile.Profile()
                    profiler.runcall(one_pass, engine_cls, query, stream, stream.events)
                    profiler.dump_stats(args.profile)
                    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                    continue
                totals, queries, answers = [], [], 0
                per_event: list | None = [] if args.by_size else None
                for _ in range(args.repetitions):
                    total, joined, answers = one_pass(engine_cls, query, stream, stream.events, per_event)
                    totals.append(total / n_events)
                    queries.append(joined / n_events)
                inserts = [t - q for t, q in zip(totals, queries)]
                share = float(np.median(np.array(queries) / np.array(totals)))
                rate = n_triples / (float(np.median(totals)) * n_events)
                print(f"| {engine_name} | {Path(stream_path).name} | {Path(query_path).stem} | {args.window} | "
                      f"{n_events:,} | {n_triples / n_events:.1f} | {spread(totals, 1e6)} | {spread(inserts, 1e6)} | "
                      f"{spread(queries, 1e6)} | {share:.2f} | {rate:,.0f} | {answers:,} |", flush=True)
                if per_event:
                    by_size(per_event)


if __name__ == "__main__":
    main()
