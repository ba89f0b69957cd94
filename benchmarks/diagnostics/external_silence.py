"""An external engine's longest silence between two answers (what its event_timeout_s bounds) on LUBM L7, sliding 10 s / 1 s.

Usage: python -m benchmarks.diagnostics.external_silence DESCRIPTOR.toml STREAM_DIR EVENTS
(the descriptor's own event_timeout_s is lifted to an hour, so the silence is measured, not cut short).
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time

from engines.external import external_engine_class, read_descriptor
from engines.model.query import load_query
from harness.engines_setup import close_engine, engine_deltas
from harness.streams import read_stream

descriptor_path, stream_path, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
descriptor = dataclasses.replace(read_descriptor(descriptor_path), event_timeout_s=3600.0)
query = load_query("generators/lubm/queries/L7.rq", window="sliding:10s:1s")
stream = read_stream(stream_path)
engine = external_engine_class(descriptor)(query, static=stream.static, schema=stream.schema)
gaps = []
started = last = time.perf_counter()
for _delta in engine_deltas(engine, stream.events[:limit]):
    now = time.perf_counter()
    gaps.append(now - last)
    last = now
    if len(gaps) % 500 == 0:
        print(f"{len(gaps)} events, longest silence so far {max(gaps):.2f}s", flush=True)
close_engine(engine)
print(f"{descriptor_path}: events {len(gaps)} total {last - started:.1f}s longest silence {max(gaps):.2f}s "
      f"median {statistics.median(gaps):.5f}s", flush=True)
