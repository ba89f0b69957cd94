"""Where SPECTRA's time goes on a generated stream: engines side by side on one window's tail, spectra split by phase, and a profiler hook.

For each query and window (in triples, of a stream generated with ``--rate 1000``, so W triples are
``sliding:W ms:1 ms``), every engine named fills the window in this process, then the next
``--tail`` events are timed (the steady state: each event inserts and evicts). For ``spectra`` the
tail is also replayed in three ways, on fresh engines filled the same way, to split its cost:

- ``predicate test``: only GraphSummary's first test (is the predicate one the query uses?);
- ``conductor``: ``QueryConductor.advance`` alone: summarisation, encoding, timelist, eviction
  (no view is added to, no join runs, so evicted rows are removed from views that never got them:
  the figure bounds that phase, it is not a consistent engine);
- ``whole push``: everything, joins and match invalidation included.

This is a diagnostic for one process (the harness's ``cgpm bench`` is the measurement):

    cgpm generate lubm --scale 2 --seed 0 --events-of 1 --rate 1000 --out /tmp/lubm2
    python -m benchmarks.diagnostics.bench_spectra --stream /tmp/lubm2 --queries L4,L5,L6 --windows 100000
    python -m benchmarks.diagnostics.bench_spectra --stream /tmp/lubm2 --queries L4 --windows 100000 --profile spectra
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import time
from pathlib import Path

from engines.model.query import load_query
from engines.registry import get_engine
from harness.streams import read_stream

QUERIES = Path(__file__).resolve().parents[2] / "generators" / "lubm" / "queries"


def filled(engine_name: str, query, events, window: int):
    engine = get_engine(engine_name)(query)
    for event in events[:window]:
        engine.push(event)
    gc.collect()
    return engine


def timed(step, tail, profile: bool = False) -> float:
    """Seconds ``step`` takes over the tail's events (printing a profile when asked)."""
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    for event in tail:
        step(event)
    if profiler:
        profiler.disable()
    seconds = time.perf_counter() - started
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return seconds


def phases(query, events, window: int, tail) -> dict[str, float]:
    """Seconds for the tail: the predicate test alone, the conductor alone, the whole push."""
    engine = filled("spectra", query, events, window)
    predicates = engine.conductor.summary.predicates

    def predicate_test(event):
        for update in event.updates:
            if predicates is None or update.p in predicates:
                pass

    return {
        "predicate test": timed(predicate_test, tail),
        "conductor": timed(filled("spectra", query, events, window).conductor.advance, tail),
        "whole push": timed(engine.push, tail),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True, help="a stream directory made with --events-of 1 --rate 1000")
    parser.add_argument("--queries", default="L1,L3,L4,L5,L6,L7")
    parser.add_argument("--windows", default="100000", help="window sizes in triples, comma-separated")
    parser.add_argument("--engines", default="scan,spectra,spectra-rev,spectra-rev-onchange")
    parser.add_argument("--tail", type=int, default=20_000, help="timed events after the window is full")
    parser.add_argument("--profile", help="print a cProfile of this engine's tail")
    args = parser.parse_args(argv)
    events = read_stream(args.stream).events
    for window in (int(w) for w in args.windows.split(",")):
        tail = events[window:window + args.tail]
        if len(tail) < args.tail:
            parser.error(f"the stream has {len(events)} events: too few for a window of {window} and a tail of {args.tail}")
        for name in args.queries.split(","):
            query = load_query(QUERIES / f"{name}.rq", window=f"sliding:{window}ms:1ms")
            rates = {}
            for engine_name in args.engines.split(","):
                engine = filled(engine_name, query, events, window)
                rates[engine_name] = len(tail) / timed(engine.push, tail, profile=engine_name == args.profile)
            print(f"{name} W={window:,}: " + "  ".join(f"{engine}={rate:,.0f} triples/s" for engine, rate in rates.items()))
            split = phases(query, events, window, tail)
            print(f"{name} W={window:,}: spectra's tail of {len(tail):,} events: "
                  + ", ".join(f"{phase} {seconds * 1e3:.1f} ms" for phase, seconds in split.items()), flush=True)


if __name__ == "__main__":
    main()
