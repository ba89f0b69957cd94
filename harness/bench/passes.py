"""A timed cell is one or more whole passes over its stream, each with a fresh engine, until the timed loop lasts at least ``min_time_s``.

A cell of a few milliseconds measures the machine's noise (a scheduler tick, a cache miss) more
than the engine, so, as ``timeit`` does, its pass is repeated inside the process until the timed
loops add up to ``min_time_s`` (at most ``MAX_PASSES`` passes, and at most twice ``min_time_s``
of elapsed time with the engines' builds; a cell that still falls short is flagged ``short``). The row's ``wall_s`` and ``cpu_s`` are per pass (the total over the passes
divided by their number), throughputs are over all the passes, latency percentiles are over every
push of every pass, and the steady-state rates over every pass's events after its window filled.
The run stores the latencies of the first passes, up to ``STORED_LATENCIES``.
A rate-paced cell (``rate`` > 0) runs one paced pass: the pace fixes its length.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import MutableSequence

import numpy as np

from harness.bench.pacing import arrival_offsets_ns, paced_loop, pacing_summary
from harness.bench.steady import steady_rates
from harness.streams.event_index import timeline_of

MAX_PASSES = 10_000
MATERIALISE_TRIPLES = 200_000  # a stream this small is held in memory for a short cell's repeated passes
STORED_LATENCIES = 1_000_000  # whole passes are stored up to this many latencies (at least the first pass)
LATENCY_PERCENTILES = {"latency_p50_ms": 50, "latency_p95_ms": 95, "latency_p99_ms": 99}


def timed_pass(engine_cls, query, stream, latencies: MutableSequence[int], pacing: dict | None = None,
               options: dict | None = None) -> tuple[object, dict]:
    """Build an engine and feed it every event, appending each push's latency; returns the engine and the loop's totals.

    An engine that takes events in batches (``feed``: external engines, unpaced) has as latency the
    time between two consecutive answers, so the latencies still add up to the loop's wall time.
    ``options`` go to the engine's constructor (an external engine's ``stderr_path``)."""
    from harness.engines_setup import close_engine, engine_deltas

    build_started = time.perf_counter_ns()
    engine = engine_cls(query, static=stream.static, schema=stream.schema, **(options or {}))
    built = time.perf_counter_ns()
    added = removed = 0
    clock = time.perf_counter_ns
    append = latencies.append
    events = iter(stream.events)  # a stream read batch by batch counts its reading time (``decode_ns``)
    cpu_started = time.process_time_ns()
    loop_started = clock()
    try:
        if pacing is not None:
            added, removed = paced_loop(engine, events, pacing["arrivals_ns"], latencies, pacing["waits"],
                                        pacing["ends"])
        elif hasattr(engine, "feed"):
            before = loop_started
            for delta in engine_deltas(engine, events):
                now = clock()
                append(now - before)
                before = now
                added += len(delta.added)
                removed += len(delta.removed)
        else:
            for event in events:
                before = clock()
                delta = engine.push(event)
                append(clock() - before)
                added += len(delta.added)
                removed += len(delta.removed)
    except BaseException:
        close_engine(engine)  # an external engine's child must not outlive a failed or stopped pass
        raise
    loop_ended = clock()
    cpu_ended = time.process_time_ns()
    # reading and decoding batches is the harness's work: out of the loop's wall time, and out of its CPU time
    # (decoding is single-threaded Python and Arrow work, so its wall time is its CPU time)
    decode_ns = getattr(events, "decode_ns", 0)
    return engine, {
        "build_s": (built - build_started) / 1e9, "wall_s": (loop_ended - loop_started - decode_ns) / 1e9,
        "cpu_s": max(0, cpu_ended - cpu_started - decode_ns) / 1e9, "decode_s": decode_ns / 1e9,
        "added": added, "removed": removed, "loop_start_ns": loop_started, "loop_end_ns": loop_ended,
    }


def latency_summary(latencies: np.ndarray) -> dict:
    if len(latencies) == 0:
        return {name: None for name in [*LATENCY_PERCENTILES, "latency_max_ms", "latency_mean_ms"]}
    values = np.percentile(latencies, list(LATENCY_PERCENTILES.values())) / 1e6
    summary = dict(zip(LATENCY_PERCENTILES, (float(v) for v in values)))
    summary["latency_max_ms"] = float(latencies.max() / 1e6)
    summary["latency_mean_ms"] = float(latencies.mean() / 1e6)
    return summary


class Passes:
    """The passes of one timed cell: run them, then fold them into the row's columns."""

    def __init__(self, engine_cls, query, stream, *, min_time_s: float, rate: float = 0.0, rate_lag_s: float = 1.0,
                 options: dict | None = None):
        self.engine_cls, self.query, self.stream, self.options = engine_cls, query, stream, options
        self.min_time_s, self.rate, self.rate_lag_s = min_time_s, rate, rate_lag_s
        # the first pass's latencies: what the progress bar and RSS-by-events read. An array of 8-byte integers, not a
        # list of int objects (36 bytes an event): a 10^8-triple stream has millions of events, inside the cell's RSS
        self.first = array("q")
        self.others: list[np.ndarray] = []  # later passes, as arrays: a list of ints would inflate the cell's RSS
        self.totals: list[dict] = []
        self.engine = None
        self.pacing = None
        if rate > 0:
            stamps = timeline_of(stream).ts.tolist()
            self.pacing = {"arrivals_ns": arrival_offsets_ns(stamps, rate), "waits": [], "ends": []}

    def fed(self) -> int:
        return len(self.first)

    def run(self, after_first=None) -> None:
        """Pass after pass until ``min_time_s`` of timed loop (one pass when paced); ``after_first()`` runs after pass 1."""
        from harness.engines_setup import close_engine

        started = time.perf_counter()
        self.engine, totals = timed_pass(self.engine_cls, self.query, self.stream, self.first, self.pacing, self.options)
        self.totals.append(totals)
        if after_first is not None:
            after_first(totals)
        stream = self.stream
        if self._repeats() and timeline_of(stream).triples <= MATERIALISE_TRIPLES:
            # a short cell's later passes re-read a small stream from memory; the first pass, whose memory the row
            # reports, read it batch by batch like every other cell
            stream = getattr(stream, "materialise", lambda: stream)()
        # a pass whose engine takes longer to build than to run stops on elapsed time: twice the minimum, builds included
        # (reading the stream is not counted: a large stream's later passes read it again)
        while self._repeats() and time.perf_counter() - started - self._decoded_s() < 2 * self.min_time_s:
            close_engine(self.engine)
            self.engine = None  # the previous pass's engine is freed before the next one is built
            latencies = array("q")
            self.engine, totals = timed_pass(self.engine_cls, self.query, stream, latencies, options=self.options)
            self.others.append(np.asarray(latencies, dtype=np.int64))
            self.totals.append(totals)

    def _repeats(self) -> bool:
        return self.pacing is None and self._looped_s() < self.min_time_s and len(self.totals) < MAX_PASSES

    def _decoded_s(self) -> float:
        return sum(totals["decode_s"] for totals in self.totals)

    def _looped_s(self) -> float:
        return sum(totals["wall_s"] for totals in self.totals)

    def latencies(self) -> np.ndarray:
        """Every push of every pass, pass after pass."""
        return np.concatenate([np.asarray(self.first, dtype=np.int64), *self.others])

    def stored_latencies(self) -> np.ndarray:
        """The whole passes that fit in ``STORED_LATENCIES`` (always the first): what the run keeps on disk."""
        events = max(1, len(self.stream.events))
        keep = max(1, STORED_LATENCIES // events)
        return np.concatenate([np.asarray(self.first, dtype=np.int64), *self.others[: keep - 1]])

    def row(self, fill: int | None, triples_per_event: np.ndarray, triples: int) -> dict:
        """The columns of a finished cell."""
        count = len(self.totals)
        looped = self._looped_s()
        first = self.totals[0]
        row = {
            "inner_passes": count, "loop_total_s": looped, "short": bool(self.pacing is None and looped < self.min_time_s),
            "wall_s": looped / count, "cpu_s": sum(t["cpu_s"] for t in self.totals) / count,
            "build_s": sum(t["build_s"] for t in self.totals) / count, "added": first["added"], "removed": first["removed"],
            "decode_s": sum(t["decode_s"] for t in self.totals) / count,
        }
        wall = max(looped, 1e-12)
        row["triples_per_s"] = triples * count / wall
        row["events_per_s"] = len(self.stream.events) * count / wall
        everything = self.latencies()
        events = len(self.stream.events)
        tails = [steady_rates(everything[k * events:(k + 1) * events], triples_per_event, fill) for k in range(count)]
        steady_events = sum(tail["steady_events"] for tail in tails)
        seconds = sum(tail["steady_events"] / tail["steady_events_per_s"] for tail in tails if tail["steady_events_per_s"])
        steady_triples = sum(tail["steady_triples_per_s"] * tail["steady_events"] / tail["steady_events_per_s"]
                             for tail in tails if tail["steady_events_per_s"])
        row["steady_events"] = steady_events // count
        row["steady_events_per_s"] = steady_events / seconds if seconds > 0 else None
        row["steady_triples_per_s"] = steady_triples / seconds if seconds > 0 else None
        if self.pacing is not None:
            row.update(pacing_summary(np.asarray(self.pacing["waits"]), np.asarray(self.pacing["ends"]),
                                      self.rate, self.rate_lag_s))
        return row

    def e2e_ns(self) -> np.ndarray | None:
        return None if self.pacing is None else np.asarray(self.pacing["ends"], dtype=np.int64)
