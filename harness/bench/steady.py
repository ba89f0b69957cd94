"""Steady state begins at the first instant whose window no longer holds the stream's first event; its rate counts only the events from there on.

A sliding window fills for its first ``range`` of stream time: while it fills, every event only
adds, and a cell's throughput over the whole loop mixes that cheap start with the sliding tail the
paper measures. The steady-state rate is the events (or triples) from the first full instant on,
divided by the time their pushes took (the sum of their per-event latencies). An ``event`` window
is full from its first event; an ``unbounded`` window never is (no steady state: None).

Over named windows (several streams merged, DESIGN.md section 2) the instants are the merged events:
steady state begins when every window is full, at the latest of the instants at which each window no
longer holds its own stream's first event; the window triples are each window's at the last instant,
summed (each window is a graph of its own).

A cell finds the fill point before its passes, by a scan of the timestamps that stops there
(``fill_point``, which counts the rows before it on the way: the triples of the steady tail are the
stream's less those), and its passes add up the latencies from there on as they go
(``harness.bench.latencies``): no per-event array of the stream is kept.

These functions are what the cell records (``steady_*`` columns), which the paper claims are judged
from (``harness.claims``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from engines.model.stream import Window


@dataclass(frozen=True)
class FillPoint:
    """The first instant of steady state (``event``, its number) and the rows (updates) of the events before it."""

    event: int
    rows_before: int


def fill_index(timestamps: Sequence[int], window: Window, first: int | None = None) -> int | None:
    """The index of the first event whose window no longer holds the first event's timestamp (or ``first``); None when no event is."""
    if window.kind == "event":
        return 0 if len(timestamps) else None
    if window.kind != "sliding" or not len(timestamps):
        return None
    first = timestamps[0] if first is None else first
    stamps = np.asarray(timestamps, dtype=np.int64)
    starts = ((stamps - window.range_ms) // window.slide_ms + 1) * window.slide_ms
    beyond = np.flatnonzero(starts > first)
    return int(beyond[0]) if len(beyond) else None


def fill_point(stream, window: Window, first: int | None = None) -> FillPoint | None:
    """``fill_index`` of the stream's timestamps and the rows before it, from one scan that stops there (O(batch))."""
    from harness.streams.event_index import facts_of, first_event_where

    facts = facts_of(stream)
    if window.kind == "event":
        return FillPoint(0, 0) if facts.events else None
    if window.kind != "sliding" or not facts.events:
        return None
    first = facts.first_ts if first is None else first
    found = first_event_where(stream, lambda stamps: ((stamps - window.range_ms) // window.slide_ms + 1) * window.slide_ms > first)
    return None if found is None else FillPoint(*found)


def steady_columns(tails: list[tuple[int, int]], triples_after_fill: int, passes: int) -> dict:
    """``steady_events`` (a pass's), ``steady_events_per_s`` and ``steady_triples_per_s`` of the passes' tails.

    ``tails`` has, per pass, its events from the fill point on and the sum of their latencies (ns);
    each complete pass's tail holds ``triples_after_fill`` triples. The rates are over the passes
    whose tail took time, and None when none did (no full instant, or nothing timed after it)."""
    timed = [latency_ns for _, latency_ns in tails if latency_ns > 0]
    seconds = sum(latency_ns / 1e9 for latency_ns in timed)
    steady_events = sum(events for events, _ in tails)
    return {"steady_events": steady_events // passes,
            "steady_events_per_s": steady_events / seconds if seconds > 0 else None,
            "steady_triples_per_s": triples_after_fill * len(timed) / seconds if seconds > 0 else None}


def query_fill_point(stream, query) -> FillPoint | None:
    """The first instant of steady state of ``query`` over ``stream`` (a ``MergedStream`` for named windows), rows before it too."""
    from harness.streams.event_index import facts_of

    if not query.named_windows:
        return fill_point(stream, query.window)
    sources, counts = dict(stream.sources), stream.source_counts()
    fills = []
    for named in query.named_windows:
        if not counts[named.stream]:
            continue  # a window over a stream with no event in the merge is never anything but full
        fill = fill_point(stream, named.window, first=facts_of(sources[named.stream]).first_ts)
        if fill is None:
            return None
        fills.append(fill)
    return max(fills, key=lambda fill: fill.event, default=FillPoint(0, 0) if facts_of(stream).events else None)


def window_triples(stream, query) -> int:
    """``retained_triples`` of the query's window; over named windows, the sum of each window's at the last merged instant."""
    from harness.streams.event_index import facts_of

    if not query.named_windows:
        return retained_triples(stream, query.window)
    facts = facts_of(stream)
    if not facts.events:
        return 0
    sources, counts = dict(stream.sources), stream.source_counts()
    return sum(retained_triples(sources[named.stream].limited(counts[named.stream]), named.window, at=facts.last_ts)
               for named in query.named_windows if counts[named.stream])


def retained_triples(stream, window: Window, at: int | None = None) -> int:
    """Distinct triples in the window at the last instant (or at time ``at``): what an engine must keep, the denominator of bytes per triple.

    ``stream`` is a ``Stream`` or a ``OpenStream``. Unbounded windows hold every triple present after
    the last update (a pass over the events); sliding and event windows the triples of the events from
    the window's first to the last, which a ``OpenStream`` counts from those rows alone (from the
    last event's first row, or from the window's start time), in O(window)."""
    from harness.streams.event_index import facts_of, timeline_of

    facts = facts_of(stream)
    if not facts.events:
        return 0
    count_from = getattr(stream, "distinct_triples_from", None)
    if window.kind == "unbounded" and count_from is not None and not stream.has_deletions:
        return count_from(0)  # insert-only: every distinct row, counted by Arrow (a set of 2*10^7 tuples is 3 GB)
    if window.kind == "unbounded":
        present: set = set()
        for event in stream.events:
            for update in event.updates:
                (present.add if update.op > 0 else present.discard)(update.triple)
        return len(present)
    start = None if window.kind == "event" else window.start(facts.last_ts if at is None else at)
    if count_from is not None:
        return count_from(facts.triples - facts.last_size) if start is None else count_from(0, since_ts=start)
    first = facts.events - 1 if start is None else int(np.searchsorted(timeline_of(stream).ts, start, side="left"))
    return len({update.triple for event in stream.events[first:] for update in event.updates})
