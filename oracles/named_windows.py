"""The named windows' graphs D_k(τ_i) after every merged event, computed from DESIGN.md section 2 (Several streams) as the merge passes once.

At instant i (just after the i-th event of the merge, timestamp τ_i) window k over stream s_k holds the
events j <= i with ``events[j].stream == s_k`` and ``τ_b^k(τ_i) <= τ_j <= τ_i``. Each window is a
``oracles.window.PassingWindow`` that lets in its own stream's events only; every event moves every
window's time, so an event of one stream can empty another's window.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from common.errors import StreamError, WindowError
from engines.model.stream import DELETE, Event, NamedWindow, Triple
from oracles.window import PassingWindow


def check_merged_event(event: Event, previous_ts: int | None) -> None:
    """Raise StreamError for a timestamp below the previous one in the merge, or a deletion (named windows are insert-only)."""
    if previous_ts is not None and event.ts < previous_ts:
        raise StreamError(f"merged event {event.index} has timestamp {event.ts} < previous timestamp {previous_ts}")
    if any(update.op == DELETE for update in event.updates):
        raise StreamError(f"event {event.index} deletes a triple; named windows take insert-only streams")


def check_merged(events: Iterable[Event]) -> None:
    """Raise StreamError for the first merged event ``check_merged_event`` refuses."""
    previous_ts = None
    for event in events:
        check_merged_event(event, previous_ts)
        previous_ts = event.ts


class PassingNamedWindows:
    """Every named window of a query as the merged events are pushed in order."""

    def __init__(self, windows: Sequence[NamedWindow]) -> None:
        self.windows = [PassingWindow(named.window, stream=named.stream) for named in windows]
        self.previous_ts: int | None = None

    def push(self, event: Event) -> None:
        check_merged_event(event, self.previous_ts)
        self.previous_ts = event.ts
        for window in self.windows:
            window.push(event)

    def contents(self) -> tuple[frozenset[Triple], ...]:
        return tuple(window.content() for window in self.windows)


def named_window_contents(
    events: Iterable[Event], windows: Sequence[NamedWindow], positions: Iterable[int] | None = None
) -> Iterator[tuple[int, tuple[frozenset[Triple], ...]]]:
    """``(position, (D_0, D_1, ...))`` after the event at each position (every position, or the given ones), in one pass."""
    wanted = None if positions is None else iter(sorted(set(positions)))
    target = None if wanted is None else next(wanted, None)
    state = PassingNamedWindows(windows)
    pushed = 0
    for position, event in enumerate(events):
        if wanted is not None and target is None:
            return
        state.push(event)
        pushed += 1
        if wanted is None or position == target:
            yield position, state.contents()
            target = None if wanted is None else next(wanted, None)
    if target is not None:
        raise WindowError(f"instant positions must lie in 0..{pushed - 1}")
