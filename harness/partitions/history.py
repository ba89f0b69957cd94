"""One partition's run: its engine fed its share of every instant, and the deltas of the mappings it owns, in instant order.

A partition reads the whole stream itself (each Spark task reads the stream directory, as a bench cell does)
and keeps its share of each event (``harness.partitions.routing``); its engine is built as for an unsplit run,
with the whole static graph and schema. Its history has a record only for the instants at which its owned
answers changed, ``(index, ts, added, removed)``, so a partition far from most of the stream writes little.
Its summary says what it cost: the updates routed to it (its size, the skew), its loop's time without reading
and decoding the stream (routing included: it is the split's price), and its engine's ``stats()``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field

from engines.model.stream import Mapping
from harness.engines_setup import build_engine, close_engine, engine_steps
from harness.partitions.plan import PartitionPlan
from harness.partitions.routing import Router

Record = tuple[int, int, list[Mapping], list[Mapping]]
"""One instant of a partition's history: (event index, ts, added, removed), owned mappings only."""


@dataclass
class PartitionSummary:
    partition: int
    events: int = 0
    updates: int = 0  # routed to this partition: its size
    added: int = 0
    removed: int = 0
    answers: int = 0  # owned answers held at the end
    wall_s: float = 0.0  # routing and the engine's pushes, without reading and decoding the stream
    steady_s: float | None = None  # the same from the steady state's first event on, when asked for
    decode_s: float = 0.0
    cpu_s: float = (
        0.0  # this process's CPU time over the pass, reading and decoding included (load does not inflate it)
    )
    loop_cpu_s: float = 0.0  # this thread's CPU time in routing and the engine's pushes alone (an external engine's
    # child is not counted)
    rss_peak_bytes: int | None = None  # the peak RSS of the process it ran in, when that process ran it alone
    engine: str = ""
    stats: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return asdict(self)


class PartitionRun:
    """Iterating it runs the partition and yields its history; ``summary`` is complete once the iteration ends."""

    def __init__(
        self,
        engine,
        plan: PartitionPlan,
        stream,
        partition: int,
        *,
        options: dict | None = None,
        steady_from: int | None = None,
        clock=time.perf_counter,
    ) -> None:
        """``steady_from``: the first event of the steady state (``harness.bench.steady``), whose loop time from
        there on is ``summary.steady_s``."""
        self.engine_ref, self.plan, self.stream, self.partition = engine, plan, stream, partition
        self.steady_from = steady_from
        self.options = options or {}
        self.clock = clock
        self.summary = PartitionSummary(partition)

    def __iter__(self) -> Iterator[Record]:
        plan, partition, summary = self.plan, self.partition, self.summary
        router = Router(plan, self.stream.schema)
        engine = build_engine(self.engine_ref, plan.query, self.stream, **self.options)
        summary.engine = engine.name
        owner = plan.owner
        alone = plan.partitions == 1  # owns every mapping: no test per mapping
        try:
            reading = iter(self.stream.events)
            clock = self.clock
            started, paused = clock(), 0.0  # paused: time spent in whoever reads the history between records
            cpu_started = time.process_time()
            cpu = {"start": time.thread_time(), "reading": 0.0, "paused": 0.0}  # this thread's CPU, apart likewise
            fill: list[float] = []  # busy time when the steady state's first event is read

            def busy() -> float:
                return clock() - started - paused - getattr(reading, "decode_ns", 0) / 1e9

            def shares():
                while True:
                    before = time.thread_time()
                    event = next(reading, None)
                    cpu["reading"] += time.thread_time() - before
                    if event is None:
                        return
                    if event.index == self.steady_from:
                        fill.append(busy())
                    share = router.share(event, partition)
                    summary.updates += len(share.updates)
                    yield share

            for event, delta in engine_steps(engine, shares()):
                summary.events += 1
                if not delta:
                    continue
                added = delta.added if alone else [m for m in delta.added if owner(m) == partition]
                removed = delta.removed if alone else [m for m in delta.removed if owner(m) == partition]
                if added or removed:
                    summary.added += len(added)
                    summary.removed += len(removed)
                    left, left_cpu = clock(), time.thread_time()
                    yield event.index, event.ts, list(added), list(removed)
                    paused += clock() - left
                    cpu["paused"] += time.thread_time() - left_cpu
            summary.decode_s = getattr(reading, "decode_ns", 0) / 1e9
            summary.wall_s = busy()
            summary.loop_cpu_s = time.thread_time() - cpu["start"] - cpu["reading"] - cpu["paused"]
            summary.cpu_s = time.process_time() - cpu_started
            summary.steady_s = summary.wall_s - fill[0] if fill else None
            held = engine.answers()
            summary.answers = sum(1 for mapping in held if alone or owner(mapping) == partition)
            summary.stats = engine.stats()
        finally:
            close_engine(engine)
