"""A rate-paced pass pushes each event no earlier than its scaled arrival time and measures arrival-to-answer latency.

This is how RSP benchmarks (CityBench, YABench) feed an engine: the stream plays at a given rate
and an engine that cannot keep up falls behind, so its answers come later and later. Arrival times
are the events' timestamps scaled so the stream plays at ``rate`` events per second on average
(``(ts_i - ts_0) * scale``, events of one timestamp arriving together); a stream whose events all
share a timestamp arrives evenly, ``i / rate``. An event's end-to-end latency is from its arrival
to the end of its push (when its answers are known); its wait is from its arrival to the start of
its push. The engine *kept up* when no event waited longer than ``lag_s``.
"""

from __future__ import annotations

import time
from collections.abc import MutableSequence, Sequence

import numpy as np

_SPIN_NS = 200_000  # closer than this to an arrival, spin instead of sleeping (sleep overshoots by ~0.1 ms)


def arrival_offsets_ns(timestamps: Sequence[int], rate: float) -> np.ndarray:
    """Each event's arrival, in ns after the first's, so that the stream plays at ``rate`` events per second."""
    stamps = np.asarray(timestamps, dtype=np.float64)
    count = len(stamps)
    if count < 2:
        return np.zeros(count, dtype=np.int64)
    play_ns = (count - 1) / rate * 1e9
    span = stamps[-1] - stamps[0]
    if span <= 0:
        return np.round(np.arange(count) * (1e9 / rate)).astype(np.int64)
    return np.round((stamps - stamps[0]) * (play_ns / span)).astype(np.int64)


def paced_loop(engine, events, arrivals_ns: np.ndarray, latencies: MutableSequence[int], waits: list[int], ends: list[int]) -> tuple[int, int]:
    """Push every event at its arrival; appends push latency, wait and end-to-end latency (ns); returns (added, removed)."""
    clock = time.perf_counter_ns
    added = removed = 0
    origin = clock()
    for event, offset in zip(events, arrivals_ns.tolist()):
        due = origin + offset
        now = clock()
        while now < due:
            if due - now > _SPIN_NS:
                time.sleep((due - now - _SPIN_NS) / 1e9)
            now = clock()
        before = clock()
        delta = engine.push(event)
        after = clock()
        latencies.append(after - before)
        waits.append(before - due)
        ends.append(after - due)
        added += len(delta.added)
        removed += len(delta.removed)
    return added, removed


def pacing_summary(waits_ns: np.ndarray, ends_ns: np.ndarray, rate: float, lag_s: float) -> dict:
    """The row's rate-paced columns: end-to-end latency percentiles, the longest wait, and whether the engine kept up."""
    if len(ends_ns) == 0:
        return {"rate_eps": rate, "kept_up": None}
    percentiles = np.percentile(ends_ns, [50, 95, 99]) / 1e6
    longest_wait = float(waits_ns.max()) / 1e9
    return {
        "rate_eps": rate,
        "e2e_p50_ms": float(percentiles[0]), "e2e_p95_ms": float(percentiles[1]), "e2e_p99_ms": float(percentiles[2]),
        "e2e_max_ms": float(ends_ns.max()) / 1e6, "max_wait_s": longest_wait, "kept_up": bool(longest_wait <= lag_s),
    }
