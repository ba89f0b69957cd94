"""The named windows' graphs D_k(τ_i) after every merged event, computed from DESIGN.md section 2 (Several streams) alone.

At instant i (just after the i-th event of the merge, timestamp τ_i) window k over stream s_k holds the
events j <= i with ``events[j].stream == s_k`` and ``τ_b^k(τ_i) <= τ_j <= τ_i``. Named windows are
sliding and insert-only, so each D_k is rebuilt from its events at every instant, on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from common.errors import StreamError, WindowError
from engines.model.stream import DELETE, Event, NamedWindow, Triple
from oracles.window import window_start


def check_merged(events: Sequence[Event]) -> None:
    """Raise StreamError for decreasing timestamps in the merge, or a deletion (named windows are insert-only)."""
    for position in range(1, len(events)):
        if events[position].ts < events[position - 1].ts:
            raise StreamError(f"merged event {events[position].index} has timestamp {events[position].ts} "
                              f"< previous timestamp {events[position - 1].ts}")
    for event in events:
        if any(update.op == DELETE for update in event.updates):
            raise StreamError(f"event {event.index} deletes a triple; named windows take insert-only streams")


def named_window_contents(
    events: Sequence[Event], windows: Sequence[NamedWindow], positions: Iterable[int] | None = None
) -> Iterator[tuple[int, tuple[frozenset[Triple], ...]]]:
    """``(position, (D_0, D_1, ...))`` after the event at each position (every position, or the given ones)."""
    events = tuple(events)
    check_merged(events)
    wanted = range(len(events)) if positions is None else sorted(set(positions))
    if wanted and (wanted[0] < 0 or wanted[-1] >= len(events)):
        raise WindowError(f"instant positions must lie in 0..{len(events) - 1}")
    first = [0] * len(windows)  # per window, the first position still in it (windows only advance)
    for position in wanted:
        now = events[position].ts
        contents = []
        for k, named in enumerate(windows):
            start = window_start(named.window, now)
            while events[first[k]].ts < start:
                first[k] += 1
            contents.append(frozenset(
                update.triple
                for event in events[first[k] : position + 1]
                if event.stream == named.stream
                for update in event.updates
            ))
        yield position, tuple(contents)
