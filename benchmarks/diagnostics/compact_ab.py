"""Whether an engine's compact state (issue 22) costs throughput: the engine of another checkout and this one, interleaved in one process.

The old engine package (``--package``, default ``engines.sparkwave``) is imported from ``--old`` (a
checkout from before the change, e.g. ``git archive COMMIT engines | tar -x -C DIR``) under the same
module names, then set aside, so both engines share every other module (the query model, the RDFS
vocabulary). Each cell is a stream, a query and a
window; its events are read once and held, and both engines push the same event objects. In every
round each engine makes one whole pass over each cell, the order of old and new alternating from round
to round; only ``push`` is timed (wall time; with ``--cpu`` the thread's CPU time, which leaves out other
processes' turns on a shared core). The figure is the per-round ratio of throughputs, new over old
(above 1: the new engine is faster), with its median and IQR.

    taskset -c 1 python -m benchmarks.diagnostics.compact_ab --old DIR [--package engines.spectra --engine SpectraRevEngine] \\
        --cell STREAM,QUERY,WINDOW[,ENTAILMENT[,EVENTS]] [--cell ...] --rounds 5
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

import numpy as np


def _modules_of(package: str) -> list[str]:
    return [name for name in sys.modules if name == package or name.startswith(package + ".")]


def import_engine(package: str, engine: str, old_root: str | None = None):
    """The class ``engine`` of ``package`` (an ``engines`` subpackage): this checkout's, or the one at ``old_root``.

    The old package's modules are imported under their own names while this checkout's are set aside, then
    set aside in turn, so each class keeps its own modules and the rest of the process sees this checkout's."""
    import engines

    current = {name: sys.modules[name] for name in _modules_of(package)}
    if old_root is None:
        return getattr(__import__(package, fromlist=[engine]), engine)
    for name in current:
        del sys.modules[name]
    engines.__path__.insert(0, f"{old_root}/engines")
    try:
        return getattr(__import__(package, fromlist=[engine]), engine)
    finally:
        engines.__path__.pop(0)
        for name in _modules_of(package):
            del sys.modules[name]
        sys.modules.update(current)


def push_seconds(engine_cls, query, stream, events, clock=time.perf_counter_ns) -> float:
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    spent = 0
    for event in events:
        before = clock()
        engine.push(event)
        spent += clock() - before
    return spent / 1e9


def spread(values) -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.3f} [{q1:.3f}-{q3:.3f}]"


def main() -> None:
    from engines.model.query import load_query
    from engines.model.windows import parse_window
    from harness.streams.reader import open_stream

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="root of the old checkout (holding engines/)")
    parser.add_argument("--package", default="engines.sparkwave")
    parser.add_argument("--engine", default="SparkwaveEngine", help="the engine class in the package")
    parser.add_argument("--cell", action="append", required=True,
                        help="STREAM,QUERY,WINDOW[,ENTAILMENT[,EVENTS]]")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", action="store_true",
                        help="time pushes with the thread's CPU time (another process's turn on a shared core not counted)")
    args = parser.parse_args()
    clock = time.thread_time_ns if args.cpu else time.perf_counter_ns
    new_cls = import_engine(args.package, args.engine)
    old_cls = import_engine(args.package, args.engine, args.old)
    cells = []
    for spec in args.cell:
        stream_path, query_path, window, *rest = spec.split(",")
        entailment = rest[0] if rest and rest[0] else None
        events = int(rest[1]) if len(rest) > 1 else None
        query = load_query(query_path, window=parse_window(window), entailment=entailment)
        stream = open_stream(stream_path, max_events=events).materialise()
        label = f"{query.name} {query.entailment} {window} {stream_path.rstrip('/').split('/')[-1]}"
        cells.append((label, query, stream, list(stream.events)))
    ratios: dict[str, list[float]] = {label: [] for label, *_ in cells}
    rates: dict[tuple[str, str], list[float]] = {}
    for round_number in range(args.rounds):
        order = (("old", old_cls), ("new", new_cls))
        if round_number % 2:
            order = order[::-1]
        for label, query, stream, events in cells:
            triples = sum(len(event.updates) for event in events)
            seconds = {}
            for name, engine_cls in order:
                gc.collect()
                seconds[name] = push_seconds(engine_cls, query, stream, events, clock)
                rates.setdefault((label, name), []).append(triples / seconds[name])
            ratios[label].append(seconds["old"] / seconds["new"])
            print(f"round {round_number + 1} {label}: old {seconds['old']:.2f}s new {seconds['new']:.2f}s "
                  f"ratio {ratios[label][-1]:.3f}", flush=True)
    print(f"\n{new_cls.name} new/old triples per second, per round, median [IQR] over {args.rounds} rounds\n")
    print("| cell | old triples/s | new triples/s | new / old |\n|---|---:|---:|---:|")
    for label, *_ in cells:
        print(f"| {label} | {np.median(rates[label, 'old']):,.0f} | {np.median(rates[label, 'new']):,.0f} "
              f"| {spread(ratios[label])} |")


if __name__ == "__main__":
    main()
