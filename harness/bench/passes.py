"""A timed cell is one or more whole passes over its stream, each with a fresh engine, until the timed loop lasts at least ``min_time_s``.

A cell of a few milliseconds measures the machine's noise (a scheduler tick, a cache miss) more
than the engine, so, as ``timeit`` does, its pass is repeated inside the process until the timed
loops add up to ``min_time_s`` (at most ``MAX_PASSES`` passes, and at most twice ``min_time_s``
of elapsed time with the engines' builds; a cell that still falls short is flagged ``short``). The row's ``wall_s`` and ``cpu_s`` are per pass (the total over the passes
divided by their number), throughputs are over all the passes, latency percentiles are over every
push of every pass (from a sketch, within 1% of the exact ones: ``harness.bench.quantiles``), and
the steady-state rates over every pass's events after its window filled, added up as the passes go
(``harness.bench.latencies``). The run stores the latencies of the first passes, up to
``STORED_LATENCIES`` (of a longer first pass, its first ``STORED_LATENCIES``): a cell holds O(1)
latencies, never O(stream).
A rate-paced cell (``rate`` > 0) runs one paced pass: the pace fixes its length.
The first pass also folds its answers into a digest (``harness.bench.answers``): the row's ``answers_added``,
``answers_removed`` and ``answer_digest``, which a claim compares across the engines it puts side by side.
Every reading of the time, in the loop and for the minimum, is from one ``Clock`` (``harness.bench.pacing``): the
machine's, unless a test gives its own.
"""

from __future__ import annotations

import time
from itertools import islice

import numpy as np

from engines.model.stream import NO_CHANGE
from harness.bench.answers import AnswerDigest
from harness.bench.latencies import CHUNK, STORED_LATENCIES, PassLatencies
from harness.bench.pacing import MACHINE_CLOCK, Arrivals, Clock, paced_loop, pacing_summary
from harness.bench.quantiles import RELATIVE_ERROR, LatencySketch
from harness.bench.steady import steady_columns
from harness.streams.event_index import facts_of

MAX_PASSES = 10_000
MATERIALISE_TRIPLES = 200_000  # a stream this small is held in memory for a short cell's repeated passes
LATENCY_PERCENTILES = {"latency_p50_ms": 50, "latency_p95_ms": 95, "latency_p99_ms": 99}


def timed_pass(engine_cls, query, stream, latencies: PassLatencies, arrivals: Arrivals | None = None,
               options: dict | None = None, clock: Clock = MACHINE_CLOCK,
               digest: AnswerDigest | None = None) -> tuple[object, dict]:
    """Build an engine and feed it every event, folding each push's latency into ``latencies``; returns the engine and the loop's totals.

    An engine that takes events in batches (``feed``: external engines, unpaced) has as latency the
    time between two consecutive answers, so the latencies still add up to the loop's wall time.
    The loop runs ``CHUNK`` events at a time and folds their latencies between two chunks; the
    folds, like the stream's reading, are the harness's work and are taken out of the wall and CPU time: their
    time on ``clock`` out of the wall time, their CPU time (``time.thread_time_ns``) out of the CPU time, since on a
    loaded machine a wall time also counts the waits for a core and would take the engine's CPU with it.
    ``options`` go to the engine's constructor (an external engine's ``stderr_path``). With ``digest``, each
    non-empty delta is folded into it (``harness.bench.answers``), timed apart and taken out like the folds."""
    from harness.engines_setup import close_engine, engine_deltas

    now_ns = clock.now_ns
    build_started = now_ns()
    engine = engine_cls(query, static=stream.static, schema=stream.schema, **(options or {}))
    built = now_ns()
    added = removed = folding = folding_cpu = 0
    cpu_now = time.thread_time_ns
    events = iter(stream.events)  # a stream read batch by batch counts its reading time (``decode_ns``)
    loop_cpu_started = time.process_time_ns()
    loop_started = now_ns()
    try:
        if arrivals is not None:
            added, removed, folding = paced_loop(engine, events, arrivals, latencies, clock, digest)
        else:
            batched = hasattr(engine, "feed")
            steps = engine_deltas(engine, events) if batched else events
            before = loop_started
            while True:
                append = latencies.chunk.append
                if batched:
                    for delta in islice(steps, CHUNK):
                        now = now_ns()
                        append(now - before)
                        before = now
                        added += len(delta.added)
                        removed += len(delta.removed)
                        # NO_CHANGE first: most events of a selective query return it, and an identity test is the
                        # cheapest check the untimed part of the loop can make
                        if digest is not None and delta is not NO_CHANGE and delta:
                            # the instant is the event's position: the latencies appended so far, less this one
                            cpu_started = cpu_now()
                            digest.record(latencies.folded + len(latencies.chunk) - 1, delta)
                            folding_cpu += cpu_now() - cpu_started
                            before = now_ns()
                            folding += before - now
                else:
                    for event in islice(steps, CHUNK):
                        before = now_ns()
                        delta = engine.push(event)
                        after = now_ns()
                        append(after - before)
                        added += len(delta.added)
                        removed += len(delta.removed)
                        if digest is not None and delta is not NO_CHANGE and delta:
                            cpu_started = cpu_now()
                            digest.record(latencies.folded + len(latencies.chunk) - 1, delta)
                            folding_cpu += cpu_now() - cpu_started
                            folding += now_ns() - after
                taken = len(latencies.chunk)
                fold_started, cpu_started = now_ns(), cpu_now()
                latencies.fold()
                folding_cpu += cpu_now() - cpu_started
                before = now_ns()
                folding += before - fold_started
                if taken < CHUNK:
                    break
    except BaseException:
        close_engine(engine)  # an external engine's child must not outlive a failed or stopped pass
        raise
    loop_ended = now_ns()
    cpu_ended = time.process_time_ns()
    # reading and decoding batches is the harness's work: its wall time out of the loop's, its CPU time out of the
    # loop's CPU time (a paced loop's folds are timed on the clock only: there, as before, their time)
    decode_ns = getattr(events, "decode_ns", 0)
    harness_cpu = getattr(events, "decode_cpu_ns", decode_ns) + (folding if arrivals is not None else folding_cpu)
    return engine, {
        "build_s": (built - build_started) / 1e9, "wall_s": (loop_ended - loop_started - decode_ns - folding) / 1e9,
        "cpu_s": max(0, cpu_ended - loop_cpu_started - harness_cpu) / 1e9, "decode_s": decode_ns / 1e9,
        "fold_s": folding / 1e9, "added": added, "removed": removed, "loop_start_ns": loop_started,
        "loop_end_ns": loop_ended,
    }


def latency_summary(sketch: LatencySketch) -> dict:
    """The row's latency columns: percentiles within ``RELATIVE_ERROR`` of the exact ones, exact maximum and mean."""
    if not sketch.count:
        return {name: None for name in [*LATENCY_PERCENTILES, "latency_max_ms", "latency_mean_ms"]}
    values = sketch.percentiles(list(LATENCY_PERCENTILES.values()))
    summary = {name: value / 1e6 for name, value in zip(LATENCY_PERCENTILES, values)}
    summary["latency_max_ms"] = sketch.maximum / 1e6
    summary["latency_mean_ms"] = sketch.mean() / 1e6
    summary["latency_relative_error"] = RELATIVE_ERROR
    return summary


class Passes:
    """The passes of one timed cell: run them, then fold them into the row's columns."""

    def __init__(self, engine_cls, query, stream, *, min_time_s: float, rate: float = 0.0, rate_lag_s: float = 1.0,
                 options: dict | None = None, fill: int | None = None, clock: Clock = MACHINE_CLOCK):
        self.engine_cls, self.query, self.stream, self.options, self.clock = engine_cls, query, stream, options, clock
        self.min_time_s, self.rate, self.rate_lag_s, self.fill = min_time_s, rate, rate_lag_s, fill
        facts = facts_of(stream)
        self.events, self.triples = facts.events, facts.triples
        self.sketch = LatencySketch()  # every push of every pass
        # whole passes are stored while they fit in STORED_LATENCIES; a longer first pass, its first ones
        self.stored_passes = max(1, STORED_LATENCIES // max(1, self.events))
        self.passes: list[PassLatencies] = []
        self.totals: list[dict] = []
        self.engine = None
        self.digest = AnswerDigest()  # the first pass's answers: the evidence two engines' figures are of one answer
        self.arrivals = Arrivals(facts.first_ts, facts.last_ts, facts.events, rate) if rate > 0 else None
        self.first = self._next_pass()  # what the progress line and the RSS series read

    def _next_pass(self) -> PassLatencies:
        keep = min(self.events, STORED_LATENCIES) if len(self.passes) < self.stored_passes else 0
        latencies = PassLatencies(self.sketch, steady_from=self.fill, keep=keep)
        self.passes.append(latencies)
        return latencies

    def fed(self) -> int:
        return len(self.first)

    def run(self, after_first=None) -> None:
        """Pass after pass until ``min_time_s`` of timed loop (one pass when paced); ``after_first()`` runs after pass 1."""
        from harness.engines_setup import close_engine

        started = self.clock.now_ns()
        self.engine, totals = timed_pass(self.engine_cls, self.query, self.stream, self.first, self.arrivals, self.options,
                                         self.clock, self.digest)
        self.totals.append(totals)
        if after_first is not None:
            after_first(totals)
        stream = self.stream
        if self._repeats() and self.triples <= MATERIALISE_TRIPLES:
            # a short cell's later passes re-read a small stream from memory; the first pass, whose memory the row
            # reports, read it batch by batch like every other cell
            stream = getattr(stream, "materialise", lambda: stream)()
        # a pass whose engine takes longer to build than to run stops on elapsed time: twice the minimum, builds and
        # folds included (reading the stream is not counted: a large stream's later passes read it again). A fold is
        # per pass as well as per chunk, so thousands of passes of a tiny stream would otherwise run past the time-out.
        while self._repeats() and (self.clock.now_ns() - started) / 1e9 - self._decoded_s() < 2 * self.min_time_s:
            close_engine(self.engine)
            self.engine = None  # the previous pass's engine is freed before the next one is built
            self.engine, totals = timed_pass(self.engine_cls, self.query, stream, self._next_pass(), options=self.options,
                                             clock=self.clock)
            self.totals.append(totals)

    def settle(self) -> None:
        """Fold what a pass stopped by a limit left unfolded: a timed-out cell's latencies are over the events it processed."""
        for latencies in self.passes:
            if len(latencies.chunk) or len(latencies.end_chunk):
                latencies.fold()

    def _repeats(self) -> bool:
        return self.arrivals is None and self._looped_s() < self.min_time_s and len(self.totals) < MAX_PASSES

    def _decoded_s(self) -> float:
        return sum(totals["decode_s"] for totals in self.totals)

    def _looped_s(self) -> float:
        return sum(totals["wall_s"] for totals in self.totals)

    def stored_latencies(self) -> np.ndarray:
        """What the run keeps on disk: the whole passes that fit in ``STORED_LATENCIES``, or the first pass's first ones."""
        return np.concatenate([latencies.stored() for latencies in self.passes[: self.stored_passes]])

    def row(self, triples_after_fill: int) -> dict:
        """The columns of a finished cell (every pass complete); ``triples_after_fill``: the triples of a pass's steady state."""
        count = len(self.totals)
        looped = self._looped_s()
        first = self.totals[0]
        row = {
            "inner_passes": count, "loop_total_s": looped, "short": bool(self.arrivals is None and looped < self.min_time_s),
            "wall_s": looped / count, "cpu_s": sum(t["cpu_s"] for t in self.totals) / count,
            "build_s": sum(t["build_s"] for t in self.totals) / count, "added": first["added"], "removed": first["removed"],
            "decode_s": sum(t["decode_s"] for t in self.totals) / count, **self.digest.columns(),
        }
        wall = max(looped, 1e-12)
        row["triples_per_s"] = self.triples * count / wall
        row["events_per_s"] = self.events * count / wall
        tails = [(latencies.steady_events, latencies.steady_ns) for latencies in self.passes]
        row.update(steady_columns(tails, triples_after_fill, count))
        if self.arrivals is not None:
            row.update(pacing_summary(self.first.longest_wait_ns, self.first.ends or LatencySketch(), self.rate, self.rate_lag_s))
        return row

    def e2e_ns(self) -> np.ndarray | None:
        return None if self.arrivals is None else self.first.ends_kept.values()
