"""A rate-paced pass pushes each event no earlier than its scaled arrival time and measures arrival-to-answer latency.

This is how RSP benchmarks (CityBench, YABench) feed an engine: the stream plays at a given rate
and an engine that cannot keep up falls behind, so its answers come later and later. Arrival times
are the events' timestamps scaled so the stream plays at ``rate`` events per second on average
(``(ts_i - ts_0) * scale``, events of one timestamp arriving together); a stream whose events all
share a timestamp arrives evenly, ``i / rate``. An event's end-to-end latency is from its arrival
to the end of its push (when its answers are known); its wait is from its arrival to the start of
its push. The engine *kept up* when no event waited longer than ``lag_s``. Arrivals are computed
event by event from the first and last timestamps and the count (``Arrivals``), and waits and
end-to-end latencies are folded like the push latencies (``harness.bench.latencies``): a paced pass
holds O(chunk) of them. Its end-to-end percentiles are within 1% of the exact ones (``harness.bench.quantiles``).
Every pass reads and sleeps on a ``Clock``: the machine's by default, a test's own so that its verdict counts work
rather than racing the machine's load.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from engines.model.stream import NO_CHANGE
from harness.bench.latencies import CHUNK

if TYPE_CHECKING:
    from harness.bench.latencies import PassLatencies
    from harness.bench.quantiles import LatencySketch

_SPIN_NS = 200_000  # closer than this to an arrival, spin instead of sleeping (sleep overshoots by ~0.1 ms)


class Clock:
    """What a pass reads the time from (``now_ns``, monotonic) and waits on (``sleep``, seconds): here the machine's own.

    The attributes are the built-in functions themselves, so a timed loop that reads ``clock.now_ns`` once costs
    what calling ``time.perf_counter_ns`` does."""

    now_ns = staticmethod(time.perf_counter_ns)
    sleep = staticmethod(time.sleep)


MACHINE_CLOCK = Clock()


class Arrivals:
    """Each event's arrival in ns after the first's, from its own timestamp and position: no array of the stream's arrivals."""

    def __init__(self, first_ts: int, last_ts: int, count: int, rate: float) -> None:
        self.first = float(first_ts)
        span = float(last_ts) - self.first
        self.even = span <= 0  # one timestamp for every event: they arrive evenly
        self.scale = 1e9 / rate if self.even else (count - 1) / rate * 1e9 / span
        self.none = count < 2

    def offset_ns(self, position: int, ts: int) -> int:
        if self.none:
            return 0
        return round(position * self.scale) if self.even else round((float(ts) - self.first) * self.scale)


def arrival_offsets_ns(timestamps: Sequence[int], rate: float) -> np.ndarray:
    """Each event's arrival, in ns after the first's, so that the stream plays at ``rate`` events per second."""
    if not len(timestamps):
        return np.zeros(0, dtype=np.int64)
    arrivals = Arrivals(timestamps[0], timestamps[-1], len(timestamps), rate)
    return np.fromiter((arrivals.offset_ns(position, ts) for position, ts in enumerate(timestamps)), dtype=np.int64,
                       count=len(timestamps))


def paced_loop(engine, events, arrivals: Arrivals, latencies: PassLatencies, clock: Clock = MACHINE_CLOCK,
               digest=None) -> tuple[int, int, int]:
    """Push every event at its arrival; appends push latency, wait and end-to-end latency (ns); returns (added,
    removed, the ns spent folding ``digest``, the answers' digest of ``harness.bench.answers``, when given).

    Every ``CHUNK`` events the latencies are folded: a millisecond's pause, which the next events' waits
    include (the stream goes on arriving)."""
    sleep, now_ns = clock.sleep, clock.now_ns
    added = removed = hashing = 0
    origin = now_ns()
    for position, event in enumerate(events):
        due = origin + arrivals.offset_ns(position, event.ts)
        now = now_ns()
        while now < due:
            if due - now > _SPIN_NS:
                sleep((due - now - _SPIN_NS) / 1e9)
            now = now_ns()
        before = now_ns()
        delta = engine.push(event)
        after = now_ns()
        latencies.chunk.append(after - before)
        latencies.wait_chunk.append(before - due)
        latencies.end_chunk.append(after - due)
        added += len(delta.added)
        removed += len(delta.removed)
        if digest is not None and delta is not NO_CHANGE and delta:
            digest.record(position, delta)
            spent = now_ns() - after
            hashing += spent
            origin += spent  # the stream's arrivals wait for the harness's hashing: no event is late because of it
        if len(latencies.chunk) >= CHUNK:
            latencies.fold()
    latencies.fold()
    return added, removed, hashing


def pacing_summary(longest_wait_ns: int | None, ends: LatencySketch, rate: float, lag_s: float) -> dict:
    """The row's rate-paced columns: end-to-end latency percentiles, the longest wait, and whether the engine kept up."""
    if not ends.count:
        return {"rate_eps": rate, "kept_up": None}
    percentiles = [value / 1e6 for value in ends.percentiles([50, 95, 99])]
    longest_wait = longest_wait_ns / 1e9
    return {
        "rate_eps": rate,
        "e2e_p50_ms": percentiles[0], "e2e_p95_ms": percentiles[1], "e2e_p99_ms": percentiles[2],
        "e2e_max_ms": ends.maximum / 1e6, "max_wait_s": longest_wait, "kept_up": bool(longest_wait <= lag_s),
    }
