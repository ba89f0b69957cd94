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

These functions are what the cell records (``steady_*`` columns), which the paper claims are judged
from (``harness.claims``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from engines.model.stream import Window


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


def steady_rates(latencies_ns: np.ndarray, triples_per_event: np.ndarray, fill: int | None) -> dict:
    """``steady_events``, ``steady_events_per_s`` and ``steady_triples_per_s`` over the events from ``fill`` on.

    The rates are None when there is no steady state (no full instant, or nothing timed after it)."""
    latencies_ns = np.asarray(latencies_ns, dtype=np.int64)
    if fill is None or fill >= len(latencies_ns):
        return {"steady_events": 0, "steady_events_per_s": None, "steady_triples_per_s": None}
    tail = latencies_ns[fill:]
    seconds = tail.sum() / 1e9
    if seconds <= 0:
        return {"steady_events": len(tail), "steady_events_per_s": None, "steady_triples_per_s": None}
    triples = float(np.asarray(triples_per_event[fill: fill + len(tail)]).sum())
    return {"steady_events": int(len(tail)), "steady_events_per_s": len(tail) / seconds,
            "steady_triples_per_s": triples / seconds}


def query_fill_index(stream, query) -> int | None:
    """The first instant of steady state of ``query`` over ``stream`` (a ``MergedStream`` for named windows)."""
    from harness.streams.event_index import timeline_of

    timeline = timeline_of(stream)
    if not query.named_windows:
        return fill_index(timeline.ts, query.window)
    sources, counts = dict(stream.sources), stream.source_counts()
    fills = []
    for named in query.named_windows:
        if not counts[named.stream]:
            continue  # a window over a stream with no event in the merge is never anything but full
        fill = fill_index(timeline.ts, named.window, first=int(timeline_of(sources[named.stream]).ts[0]))
        if fill is None:
            return None
        fills.append(fill)
    return max(fills, default=0 if timeline.events else None)


def window_triples(stream, query) -> int:
    """``retained_triples`` of the query's window; over named windows, the sum of each window's at the last merged instant."""
    from harness.streams.event_index import timeline_of

    if not query.named_windows:
        return retained_triples(stream, query.window)
    timeline = timeline_of(stream)
    if not timeline.events:
        return 0
    sources, counts = dict(stream.sources), stream.source_counts()
    return sum(retained_triples(sources[named.stream].limited(counts[named.stream]), named.window, at=int(timeline.ts[-1]))
               for named in query.named_windows if counts[named.stream])


def retained_triples(stream, window: Window, at: int | None = None) -> int:
    """Distinct triples in the window at the last instant (or at time ``at``): what an engine must keep, the denominator of bytes per triple.

    ``stream`` is a ``Stream`` or a ``OpenStream``. Unbounded windows hold every triple present after
    the last update (a pass over the events); sliding and event windows the triples of the events from
    the window's first to the last, which a ``OpenStream`` counts from those rows alone."""
    from harness.streams.event_index import timeline_of

    timeline = timeline_of(stream)
    if not timeline.events:
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
    if window.kind == "event":
        first = timeline.events - 1
    else:
        first = int(np.searchsorted(timeline.ts, window.start(int(timeline.ts[-1]) if at is None else at), side="left"))
    if count_from is not None:
        return count_from(first)
    return len({update.triple for event in stream.events[first:] for update in event.updates})
