"""Sparkwave's per-event cost at steady state, variants and windows side by side in one process, rounds interleaved.

For each window (10^3, 10^4, 10^5 triples at 1,000 triples per second of stream time) and variant (rdfs on the
leaf-typed BSBM stream; no entailment on the same stream; no entailment on the closed-type stream, the paper's
second stream), one engine is built and fed the window's fill untimed; then, in each of ``--rounds`` rounds, every
engine in turn is timed on its next ``--tail`` events. All engines stay alive, so a change in the machine's load
falls on every variant of a round alike, and ratios are taken per round (median and IQR over rounds). The harness
runs (benchmarks/configs/sparkwave-*.toml) measure each cell in a fresh process; this one trades that for pairing.

    python -m benchmarks.diagnostics.bench_sparkwave results/runs/.streams/bsbm-1000-leaf-head results/runs/.streams/bsbm-1000-closed-head [--gc off]
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import numpy as np

from engines.model.query import load_query
from engines.sparkwave import SparkwaveEngine
from harness.streams import read_stream

QUERIES = Path(__file__).resolve().parents[2] / "generators" / "bsbm" / "queries"
WINDOWS = (1_000, 10_000, 100_000)


def spread(values: np.ndarray, unit: str = "") -> str:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return f"{median:.2f}{unit} [{q1:.2f}-{q3:.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("leaf")
    parser.add_argument("closed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tail", type=int, default=400)
    parser.add_argument("--gc", choices=("on", "off"), default="on",
                        help="off: CPython's cyclic collector disabled during the timed batches; to compare the "
                             "two, benchmarks/diagnostics/sparkwave_gc_ab.py alternates them in one process")
    args = parser.parse_args()
    streams = {"leaf": read_stream(args.leaf), "closed": read_stream(args.closed)}
    variants = {"rdfs, leaf": ("leaf", "P1_offer_type.rq", "rdfs"), "none, leaf": ("leaf", "P1_offer_type.rq", "none"),
                "none, closed": ("closed", "P1_offer_type_fc.rq", "none")}
    engines = {}
    for window in WINDOWS:
        for name, (stream_name, query_file, entailment) in variants.items():
            stream = streams[stream_name]
            query = load_query(QUERIES / query_file, window=f"sliding:{window}ms:1ms").with_entailment(entailment)
            engine = SparkwaveEngine(query, static=stream.static, schema=stream.schema)
            per_event = stream.triple_count / len(stream.events)
            fill = int(np.ceil(window / per_event))
            for event in stream.events[:fill]:
                engine.push(event)
            engines[window, name] = [engine, iter(stream.events[fill:])]
    cost = {key: [] for key in engines}  # µs per event, one entry per round
    for _ in range(args.rounds):
        for key, (engine, events) in engines.items():
            batch = [next(events) for _ in range(args.tail)]
            gc.collect()
            if args.gc == "off":
                gc.disable()
            start = time.perf_counter_ns()
            for event in batch:
                engine.push(event)
            cost[key].append((time.perf_counter_ns() - start) / args.tail / 1000)
            gc.enable()
    cost = {key: np.array(values) for key, values in cost.items()}
    print(f"steady-state µs per event (one offer), median [IQR] over {args.rounds} rounds of {args.tail} events, "
          f"cyclic garbage collector {args.gc}\n")
    print("| variant | " + " | ".join(f"W={w:,}" for w in WINDOWS) + " |\n|---|" + "---|" * len(WINDOWS))
    for name in variants:
        print(f"| {name} | " + " | ".join(spread(cost[w, name]) for w in WINDOWS) + " |")
    print("\n| ratio (per round) | " + " | ".join(f"W={w:,}" for w in WINDOWS) + " |\n|---|" + "---|" * len(WINDOWS))
    for other in ("none, closed", "none, leaf"):
        print(f"| cost rdfs / cost {other} | "
              + " | ".join(spread(cost[w, "rdfs, leaf"] / cost[w, other], "x") for w in WINDOWS) + " |")
    for name in variants:
        print(f"| cost W=10^5 / W=10^3, {name} | " + spread(cost[WINDOWS[-1], name] / cost[WINDOWS[0], name], "x")
              + " | | |")
    for window in WINDOWS:
        stats = engines[window, "rdfs, leaf"][0].stats()
        print(f"\nrdfs, leaf, W={window:,}: {stats}")


if __name__ == "__main__":
    main()
