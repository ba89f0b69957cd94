"""The process protocol's own cost: the same engine in-process and behind the protocol, side by side in one run.

    python -m benchmarks.diagnostics.external_overhead --stream STREAM_DIR [--events 100000] [--repetitions 5]

Every event of the stream is split into one-triple events (the protocol's worst case: one line per
triple). Pairs: ``scan`` in-process against ``scan`` served by ``engines.external.serve`` (the same
Python code behind the protocol), against ``scan-js`` (the same work in Node) and ``scan-java`` (in Java, on the
kit of engines/external/java); ``reeval``
against ``reeval`` served. Repetitions alternate the engines of a pair; each repetition builds a
fresh engine (child started and past its hello before the clock starts) and times the feed loop
only. Prints per-event medians with their IQR, the added cost per event (protocol minus in-process),
the ratio, and the harness process's own CPU time per event (the child's runs beside it, on the
other core when there is a free one), as a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import psutil

from engines.model.query import load_query
from engines.model.stream import Event, Stream
from harness.engines_setup import build_engine, close_engine, engine_deltas
from harness.streams import read_stream

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
PAIRS = [
    ("scan", str(HERE / "external" / "scan-py.toml"), "scan served (Python)"),
    ("scan", "scan-js", "scan-js (Node)"),
    ("scan", "scan-java", "scan-java (Java, the kit)"),
    ("reeval", str(HERE / "external" / "reeval-py.toml"), "reeval served (Python)"),
]


def one_triple_events(stream: Stream, count: int) -> Stream:
    events = []
    for event in stream.events:
        for update in event.updates:
            events.append(Event(len(events), event.ts, (update,)))
            if len(events) == count:
                return Stream(tuple(events), stream.static, stream.schema, stream.provenance)
    return Stream(tuple(events), stream.static, stream.schema, stream.provenance)


def _child_cpu(engine) -> float:
    pid = getattr(engine, "child_pid", None)
    if pid is None:
        return 0.0
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def time_once(reference: str, query, stream: Stream) -> tuple[float, float, float]:
    """Wall, this process's CPU and the child's CPU seconds per event of one feed loop over a fresh engine."""
    engine = build_engine(reference, query, stream)
    try:
        child_started = _child_cpu(engine)
        cpu_started, started = time.process_time(), time.perf_counter()
        for _ in engine_deltas(engine, stream.events):
            pass
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        child = _child_cpu(engine) - child_started
        count = len(stream.events)
        return wall / count, cpu / count, child / count
    finally:
        close_engine(engine)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True, type=Path)
    parser.add_argument("--query", type=Path, default=HERE.parent / "generators" / "lubm" / "queries" / "L4.rq")
    parser.add_argument("--window", default="tumbling:1s")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    stream = one_triple_events(read_stream(args.stream), args.events)
    query = load_query(args.query, window=args.window, entailment="none")
    print(f"{len(stream.events)} one-triple events of {args.stream.name}, {query.name} [{query.window.spec()}], "
          f"{args.repetitions} repetitions, engines alternating\n")
    print("| in-process | through the protocol | in-process µs/event (IQR) | protocol µs/event (IQR) "
          "| added µs/event | ratio | CPU µs/event: in-process / protocol, harness + child |")
    print("|---|---|---|---|---|---|---|")
    for local, external, label in PAIRS:
        wall: dict[str, list[float]] = {local: [], external: []}
        cpu: dict[str, list[float]] = {local: [], external: []}
        child: list[float] = []
        for _ in range(args.repetitions):
            for reference in (local, external):
                seconds, cpu_seconds, child_seconds = time_once(reference, query, stream)
                wall[reference].append(seconds * 1e6)
                cpu[reference].append(cpu_seconds * 1e6)
                if reference == external:
                    child.append(child_seconds * 1e6)
        a, b = quartiles(wall[local]), quartiles(wall[external])
        print(f"| {local} | {label} | {a[1]:.2f} ({a[0]:.2f}-{a[2]:.2f}) | {b[1]:.2f} ({b[0]:.2f}-{b[2]:.2f}) "
              f"| {b[1] - a[1]:.2f} | {b[1] / a[1]:.2f} "
              f"| {statistics.median(cpu[local]):.2f} / {statistics.median(cpu[external]):.2f} + "
              f"{statistics.median(child):.2f} |")
    print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
