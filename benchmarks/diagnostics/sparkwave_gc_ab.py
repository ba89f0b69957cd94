"""Whether CPython's cyclic collector is part of Sparkwave's steady-state per-event cost: collector on and off, interleaved.

One process, one rdfs engine per window (10^3, 10^4, 10^5 triples on the leaf-typed BSBM stream, pattern 1, the
set-up of docs/sparkwave-results.md), each filled untimed. Then in every round each engine is timed on two
batches of ``--tail`` events, one with the collector enabled and one with it disabled, the order alternating from
round to round so that neither setting always runs first. ``gc.callbacks`` counts, during the timed batches with
the collector on, the collections of each generation and the objects they found unreachable: if the collector
costs something here, it has to show as collections, and if the growth were cyclic garbage, as objects found.
Ratios are per round (the two batches of a round run back to back under the same machine load).

    taskset -c 1 python -m benchmarks.diagnostics.sparkwave_gc_ab results/runs/.streams/bsbm-1000-leaf [--rounds 12 --tail 400]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from pathlib import Path

import numpy as np

from engines.model.query import load_query
from engines.sparkwave import SparkwaveEngine
from harness.streams import read_stream

QUERY = Path(__file__).resolve().parents[2] / "generators" / "bsbm" / "queries" / "P1_offer_type.rq"
WINDOWS = (1_000, 10_000, 100_000)


class CollectionCounter:
    """Collections per generation and objects found unreachable, while ``counting`` is set."""

    def __init__(self) -> None:
        self.counting = False
        self.collections: Counter[int] = Counter()
        self.collected = 0
        self.uncollectable = 0

    def __call__(self, phase: str, info: dict) -> None:
        if self.counting and phase == "stop":
            self.collections[info["generation"]] += 1
            self.collected += info["collected"]
            self.uncollectable += info["uncollectable"]


def spread(values, unit: str = "") -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.2f}{unit} [{q1:.2f}-{q3:.2f}]"


def timed_batch(engine, batch, collector_on: bool, counter: CollectionCounter) -> float:
    """µs per event over ``batch``, with the cyclic collector on or off (collections counted when on).

    No full collection is forced between batches: the collector keeps its generation counts across them, as in
    a long run, so its older generations are collected whenever the thresholds say. Only the young objects left
    by a batch run with the collector off are collected afterwards, untimed, so the next batch does not pay them.
    """
    if not collector_on:
        gc.disable()
    counter.counting = collector_on
    start = time.perf_counter_ns()
    for event in batch:
        engine.push(event)
    elapsed = time.perf_counter_ns() - start
    counter.counting = False
    if not collector_on:
        gc.enable()
        gc.collect(0)
    return elapsed / len(batch) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stream", help="the leaf-typed BSBM stream (bsbm-1000-leaf: the 10^5 window needs 9,091 "
                                       "events of fill and 2 x rounds x tail more)")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--tail", type=int, default=400)
    args = parser.parse_args()
    stream = read_stream(args.stream)
    per_event = stream.triple_count / len(stream.events)
    engines = {}
    for window in WINDOWS:
        query = load_query(QUERY, window=f"sliding:{window}ms:1ms").with_entailment("rdfs")
        engine = SparkwaveEngine(query, static=stream.static, schema=stream.schema)
        fill = int(np.ceil(window / per_event))
        if fill + 2 * args.rounds * args.tail > len(stream.events):
            parser.error(f"{args.stream} has {len(stream.events)} events; window {window} needs "
                         f"{fill + 2 * args.rounds * args.tail}")
        for event in stream.events[:fill]:
            engine.push(event)
        engines[window] = (engine, iter(stream.events[fill:]))
    gc.collect()
    counters = {window: CollectionCounter() for window in WINDOWS}
    for counter in counters.values():
        gc.callbacks.append(counter)
    cost = {(window, setting): [] for window in WINDOWS for setting in ("on", "off")}
    for round_index in range(args.rounds):
        order = ("on", "off") if round_index % 2 == 0 else ("off", "on")
        for window, (engine, events) in engines.items():
            for setting in order:
                batch = [next(events) for _ in range(args.tail)]
                cost[window, setting].append(timed_batch(engine, batch, setting == "on", counters[window]))
    for counter in counters.values():
        gc.callbacks.remove(counter)
    cost = {key: np.array(values) for key, values in cost.items()}
    print(f"sparkwave rdfs, P1_offer_type, leaf stream; µs per event, median [IQR] over {args.rounds} rounds of "
          f"{args.tail} events per setting, collector on and off alternating\n")
    print("| | " + " | ".join(f"W={w:,}" for w in WINDOWS) + " |\n|---|" + "---|" * len(WINDOWS))
    for setting in ("on", "off"):
        print(f"| collector {setting}, µs/event | " + " | ".join(spread(cost[w, setting]) for w in WINDOWS) + " |")
    print("| cost on / cost off (per round) | "
          + " | ".join(spread(cost[w, "on"] / cost[w, "off"], "x") for w in WINDOWS) + " |")
    for setting in ("on", "off"):
        ratio = cost[WINDOWS[-1], setting] / cost[WINDOWS[0], setting]
        print(f"| cost W=10^5 / W=10^3, collector {setting} | {spread(ratio, 'x')} | | |")
    print(f"\ncollector thresholds {gc.get_threshold()}; objects tracked at the end {len(gc.get_objects()):,}")
    for window in WINDOWS:
        counter = counters[window]
        per_generation = ", ".join(f"gen {g}: {counter.collections[g]}" for g in range(3))
        print(f"W={window:,}, collector on, {args.rounds * args.tail} timed events: collections {per_generation}; "
              f"objects found unreachable {counter.collected}, uncollectable {counter.uncollectable}")


if __name__ == "__main__":
    main()
