"""What it costs the harness to encode one-triple events for a child: JSON Lines (as sent) against the alternatives.

    python -m benchmarks.diagnostics.wire_encoding [--events 200000] [--repetitions 5]

JSON Lines built by hand, 256 events to a string (``engines.external.wire.encode_events``, as the client does), ``json.dumps`` of the same value,
and Arrow IPC record batches of 1024 events (event, ts, op, s, p, o columns, as the stream's
Parquet layout) built from the same Event objects. Medians and IQR in µs per event.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time

import pyarrow as pa

from engines.external.wire import encode_events
from engines.model.stream import Event, Update


def json_lines(events, batch: int = 256) -> None:
    buffer = bytearray()
    for start in range(0, len(events), batch):
        buffer += encode_events(events[start:start + batch])


def json_dumps(events) -> None:
    buffer = bytearray()
    for event in events:
        buffer += (json.dumps([event.index, event.ts, [list(u) for u in event.updates]]) + "\n").encode()


def arrow_ipc(events, batch: int = 1024) -> None:
    sink = io.BytesIO()
    writer = None
    for start in range(0, len(events), batch):
        rows = [(e.index, e.ts, u) for e in events[start:start + batch] for u in e.updates]
        table = pa.record_batch([
            pa.array([r[0] for r in rows], pa.int64()), pa.array([r[1] for r in rows], pa.int64()),
            pa.array([r[2].op for r in rows], pa.int8()), pa.array([r[2].s for r in rows]),
            pa.array([r[2].p for r in rows]), pa.array([r[2].o for r in rows]),
        ], names=["event", "ts", "op", "s", "p", "o"])
        writer = writer or pa.ipc.new_stream(sink, table.schema)
        writer.write_batch(table)
    writer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    events = tuple(Event(i, i, (Update(1, f"<http://www.Department{i % 15}.University0.edu/Student{i % 977}>",
                                       "<http://swat.cse.lehigh.edu/onto/univ-bench.owl#takesCourse>",
                                       f"<http://www.Department{i % 15}.University0.edu/Course{i % 61}>"),))
                   for i in range(args.events))
    print("| encoding | µs/event median (IQR) |\n|---|---|")
    for name, encode in [("JSON Lines by hand (sent)", json_lines), ("json.dumps", json_dumps),
                         ("Arrow IPC, batches of 1024", arrow_ipc)]:
        times = []
        for _ in range(args.repetitions):
            started = time.perf_counter()
            encode(events)
            times.append((time.perf_counter() - started) / len(events) * 1e6)
        q1, median, q3 = statistics.quantiles(times, n=4, method="inclusive")
        print(f"| {name} | {median:.2f} ({q1:.2f}-{q3:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
