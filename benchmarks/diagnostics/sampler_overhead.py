"""Measure what the RSS sampler costs a cell: the same timed loop with the sampler off and on, interleaved, in one process.

Usage: python -m benchmarks.diagnostics.sampler_overhead [--stream DIR] [--query FILE] [--window SPEC] [--engine NAME]
       [--events N] [--pairs N] [--hz HZ ...]

For each pair the order (off, on) alternates, so a drift in the machine's load falls on both.
It prints the median of the per-pair ratios on/off and the sampler thread's share of one CPU.
This is a measurement, not a test: run it on a quiet machine, report the figure in docs/benchmarking.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

from engines.model.query import load_query
from harness.bench.latencies import PassLatencies
from harness.bench.matrix import engine_class
from harness.bench.passes import timed_pass
from harness.bench.quantiles import LatencySketch
from harness.bench.sampler import RssSampler
from harness.engines_setup import engine_class_for
from harness.streams import read_stream

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"


def one_pass(engine_cls, query, stream, hz: float | None) -> tuple[float, float]:
    sampler = RssSampler(hz).start() if hz else None
    try:
        _, totals = timed_pass(engine_cls, query, stream, PassLatencies(LatencySketch()))
    finally:
        if sampler:
            sampler.stop()
    return totals["wall_s"], (sampler.cpu_s / sampler.lifetime_s if sampler and sampler.lifetime_s else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", type=Path, default=EXAMPLE)
    parser.add_argument("--query", type=Path, default=EXAMPLE / "queries" / "chain.rq")
    parser.add_argument("--window")
    parser.add_argument("--engine", default="reeval")
    parser.add_argument("--events", type=int, default=0)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--hz", type=float, nargs="+", default=[20.0, 100.0])
    args = parser.parse_args()
    query = load_query(args.query, window=args.window)
    stream = read_stream(args.stream)
    if args.events:
        stream = dataclasses.replace(stream, events=stream.events[: args.events])
    engine_cls = engine_class_for(engine_class(args.engine), query, stream)
    one_pass(engine_cls, query, stream, None)  # warm the caches once
    for hz in args.hz:
        ratios, shares, walls = [], [], []
        for pair in range(args.pairs):
            order = (None, hz) if pair % 2 == 0 else (hz, None)
            results = {}
            for setting in order:
                results[setting] = one_pass(engine_cls, query, stream, setting)
            ratios.append(results[hz][0] / results[None][0])
            shares.append(results[hz][1])
            walls.append(results[None][0])
        print(f"{args.engine} on {query.name} [{query.window.spec()}], {len(stream.events)} events, "
              f"{args.pairs} pairs, loop {statistics.median(walls):.3f}s: sampler at {hz:g} Hz: "
              f"median wall ratio on/off {statistics.median(ratios):.4f} "
              f"(quartiles {statistics.quantiles(ratios, n=4)[0]:.4f}..{statistics.quantiles(ratios, n=4)[2]:.4f}), "
              f"sampler thread {100 * statistics.median(shares):.3f}% of one CPU")
        time.sleep(0.1)


if __name__ == "__main__":
    main()
