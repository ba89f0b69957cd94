"""tpjoin-lazy against tpjoin-eager in one process: the work each does (counted) and the time each takes (interleaved rounds), on the same stream and window.

The harness runs each cell in a fresh process, one after the other; a gap of a few per cent between
two engines can then be the machine (the other core's work, the order of the cells) as well as the
code. This script takes the process out: it loads the stream once and alternates the two engines
round after round (eager first in even rounds, lazy first in odd ones), each pass a fresh engine
after a garbage collection, timing every ``push`` with ``perf_counter_ns`` as the runner does (``--clock cpu``:
with the thread's CPU time instead, for a machine with more runnable processes than cores).
Printed: each round's ratio B / A (eager / lazy: above 1, lazy faster) over the whole pass and over
the steady state (the events after the window filled, ``harness.bench.steady.fill_index``), then their
median [IQR]. ``--engines tpjoin-eager tpjoin-eager`` times one engine against itself: the noise floor.

``--counts`` runs one instrumented pass of each engine instead and prints, for the filling and the
steady part apart, what each did: automaton runs, every state's joins with the rows in and out,
rows added to and removed from the views, triples expired, matches found and removed, dictionary
calls, and the calls to ``View.__len__`` (SortAndCombine reads the sizes of the views); the automaton states'
joins are summed unless ``--by-state``.

``--gc`` adds, per pass and for the steady part alone, how many collections of each generation Python's garbage
collector ran and the time they took (``gc.callbacks``): a collection of the oldest generation walks every object of
the heap, so over a window of 10^7 triples one can take longer than the whole steady span.

    taskset -c 1 python -m benchmarks.diagnostics.tpjoin_lazy_eager_ab --stream results/runs/tpjoin-streams/snb-p200-message-rate1000 \
        --query generators/snb/queries/Q1_star.rq --window sliding:100s:1ms --max-events 8038 [--rounds 12] [--engines A B] [--counts [--by-state]]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from engines.model.query import load_query
from engines.registry import get_engine
from engines.tpjoin import automaton as automaton_module
from engines.tpjoin import dictionary as dictionary_module
from engines.tpjoin import incremental as incremental_module
from engines.tpjoin import views as views_module
from harness.bench.steady import fill_index
from harness.streams.reader import open_stream

ENGINES = ("tpjoin-lazy", "tpjoin-eager")


class CollectorLog:
    """The collections Python's garbage collector runs while installed: per generation, how many and their seconds."""

    def __init__(self) -> None:
        self.counts = Counter()
        self.seconds = Counter()
        self._started = 0

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter_ns()
        else:
            self.counts[info["generation"]] += 1
            self.seconds[info["generation"]] += (time.perf_counter_ns() - self._started) / 1e9

    def __enter__(self):
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._callback)

    def line(self) -> str:
        return ", ".join(f"gen{generation} {self.counts[generation]} in {self.seconds[generation]:.3f} s"
                         for generation in sorted(self.counts)) or "none"


def timed_pass(engine_cls, query, stream, events, fill: int, clock=time.perf_counter_ns,
               steady_collections: CollectorLog | None = None) -> tuple[float, float]:
    """(seconds of the whole pass, seconds of its events from ``fill`` on), summed per push like the runner;
    ``steady_collections`` logs the collections from the fill point on."""
    gc.collect()
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    push = engine.push
    latencies = []
    append = latencies.append
    for index, event in enumerate(events):
        if index == fill and steady_collections is not None:
            steady_collections.__enter__()
        before = clock()
        push(event)
        append(clock() - before)
    if steady_collections is not None and len(events) > fill:
        steady_collections.__exit__()
    return sum(latencies) / 1e9, sum(latencies[fill:]) / 1e9


def spread(values) -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.3f} [{q1:.3f}-{q3:.3f}] (n={len(values)})"


def rounds(query, stream, events, fill: int, count: int, names: tuple[str, str], clock=time.perf_counter_ns,
           collections: bool = False) -> None:
    """``count`` rounds of one pass of A (``names[0]``) and one of B, B first in even rounds; ratios B / A."""
    a, b = names
    classes = [get_engine(a), get_engine(b)]
    whole, steady = [], []
    print(f"A = {a}, B = {b}\n")
    print("| round | first | A s | B s | A steady s | B steady s | B / A | B / A steady |")
    print("|---|---|---|---|---|---|---|---|")
    for number in range(count):
        order = (1, 0) if number % 2 == 0 else (0, 1)
        logs = {side: CollectorLog() if collections else None for side in order}
        got = {side: timed_pass(classes[side], query, stream, events, fill, clock, logs[side]) for side in order}
        (a_all, a_steady), (b_all, b_steady) = got[0], got[1]
        whole.append(b_all / a_all)
        steady.append(b_steady / a_steady)
        print(f"| {number} | {'AB'[order[0]]} | {a_all:.3f} | {b_all:.3f} | {a_steady:.3f} | {b_steady:.3f} | "
              f"{whole[-1]:.3f} | {steady[-1]:.3f} |", flush=True)
        if collections:
            print(f"|  | steady collections | A: {logs[0].line()} | B: {logs[1].line()} | | | | |", flush=True)
    print(f"\nB / A per round (above 1: A faster): whole pass {spread(whole)}, steady state {spread(steady)}")


class WorkCounter:
    """Wraps the engines' work functions with counters while installed; ``phase`` names where they go."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.phase = "filling"
        self._saved: list[tuple[object, str, object]] = []

    def _wrap(self, owner, name: str, measure) -> None:
        original = getattr(owner, name)
        self._saved.append((owner, name, original))
        counter = self

        def counted(*args, **kwargs):
            result = original(*args, **kwargs)
            measure(counter.counts[counter.phase], args, result)
            return result

        setattr(owner, name, counted)

    def __enter__(self):
        def calls(label):
            return lambda c, args, result: c.update({label: 1})

        self._wrap(automaton_module.Automaton, "run", lambda c, args, result: c.update(
            {"automaton runs": 1, "automaton seed rows": len(args[1]), "automaton final rows": len(result)}))
        self._wrap(views_module.View, "add", calls("view rows added"))
        self._wrap(views_module.View, "remove", calls("view rows removed"))
        self._wrap(views_module.View, "__len__", calls("View.__len__ calls"))
        for method in ("encode", "hold", "release", "sweep"):
            self._wrap(dictionary_module.SynchronisedDictionary, method, calls(f"dictionary.{method} calls"))
        engine_cls = incremental_module.TPJoinIncrementalEngine
        self._wrap(engine_cls, "_retract", lambda c, args, result: c.update(
            {"expired triples": len(args[1]), "matches removed": len(result)}))
        self._wrap(engine_cls, "_extend", lambda c, args, result: c.update(
            {"_extend calls": 1, "new view rows": sum(map(len, args[1].values())), "matches found": len(result)}))
        build = automaton_module.Automaton.__init__
        self._saved.append((automaton_module.Automaton, "__init__", build))
        counter = self

        def built(automaton, *args, **kwargs):
            build(automaton, *args, **kwargs)
            counter.counts[counter.phase]["automata compiled"] += 1
            seed = kwargs.get("seed")
            for number, state in enumerate(automaton.states):
                label = f"seed {seed} state {number} (pattern {state.pattern}, {state.join_type})"

                def join(merged, inner=state.join, label=label):
                    out = inner(merged)
                    counter.counts[counter.phase].update(
                        {f"{label} joins": 1, f"{label} rows in": len(merged), f"{label} rows out": len(out)})
                    return out

                state.join = join

        automaton_module.Automaton.__init__ = built
        return self

    def __exit__(self, *exc) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)


def _totals(counts: Counter) -> Counter:
    """The per-state counts summed over the states: automaton state joins, rows into and out of them."""
    out = Counter({key: value for key, value in counts.items() if not key.startswith("seed ")})
    for key, value in counts.items():
        if key.startswith("seed "):
            out["state " + key.rsplit(") ", 1)[1]] += value
    return out


def counts(query, stream, events, fill: int, by_state: bool) -> None:
    found = {}
    for name in ENGINES:
        engine_cls = get_engine(name)
        with WorkCounter() as counter:
            engine = engine_cls(query, static=stream.static, schema=stream.schema)
            for index, event in enumerate(events):
                counter.phase = "filling" if index < fill else "steady"
                engine.push(event)
        found[name] = counter.counts
    for phase in ("filling", "steady"):
        lazy, eager = found["tpjoin-lazy"][phase], found["tpjoin-eager"][phase]
        if not by_state:
            lazy, eager = _totals(lazy), _totals(eager)
        differing = sum(lazy[key] != eager[key] for key in set(lazy) | set(eager))
        print(f"\n{phase} ({'events before ' if phase == 'filling' else 'events from '}{fill}): "
              f"{differing} of {len(set(lazy) | set(eager))} counts differ\n")
        print("| count | tpjoin-lazy | tpjoin-eager |")
        print("|---|---|---|")
        for key in sorted(set(lazy) | set(eager), key=lambda key: (key.startswith(("seed", "state")), key)):
            mark = "" if lazy[key] == eager[key] else " **differs**"
            print(f"| {key}{mark} | {lazy[key]:,} | {eager[key]:,} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True, help="stream directory")
    parser.add_argument("--query", required=True, help="query file")
    parser.add_argument("--window", required=True, help="e.g. sliding:100s:1ms")
    parser.add_argument("--max-events", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=12, help="interleaved rounds (default 12)")
    parser.add_argument("--engines", nargs=2, default=list(ENGINES), metavar=("A", "B"),
                        help="the two engines timed (default tpjoin-lazy tpjoin-eager; the same twice: the noise floor)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: perf_counter_ns, as the runner; cpu: the thread's CPU time, which leaves out the time "
                             "spent waiting for the core on a machine with more runnable processes than cores")
    parser.add_argument("--counts", action="store_true", help="count the work of one pass of each instead of timing")
    parser.add_argument("--by-state", action="store_true", help="with --counts: every automaton state's joins apart")
    parser.add_argument("--gc", action="store_true", help="log the garbage collector's collections in each pass's steady part")
    args = parser.parse_args(argv)
    # only the events timed are read and held: a paper-scale stream's tail beyond them is never decoded
    stream = open_stream(args.stream, max_events=args.max_events or None)
    events = list(stream.events)
    query = load_query(args.query, window=args.window)
    fill = fill_index([event.ts for event in events], query.window)
    if fill is None:
        parser.error(f"window {args.window} never fills within {len(events)} events: no steady state to compare")
    print(f"{Path(args.stream).name}, {Path(args.query).stem}, {args.window}, {len(events):,} events, "
          f"window full from event {fill:,}")
    if args.counts:
        counts(query, stream, events, fill, args.by_state)
    else:
        clock = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
        rounds(query, stream, events, fill, args.rounds, tuple(args.engines), clock, args.gc)


if __name__ == "__main__":
    main()
