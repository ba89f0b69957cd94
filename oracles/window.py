"""The dynamic graph D(τ_i) after every event, computed from the definition in DESIGN.md section 2 and nothing else.

At instant i (just after event i is processed) the window holds:

- ``sliding(ω, x)``: the events j <= i with ``τ_b(τ_i) <= τ_j <= τ_i``, where
  ``τ_b(τ) = (⌊(τ − ω) / x⌋ + 1) · x``. Events after i are not processed yet, even with the same
  timestamp, so they are not in the window at instant i;
- ``event``: event i alone;
- ``unbounded``: every event j <= i.

D is obtained by applying the updates of those events in stream order to the empty set (inserting a
present triple and deleting an absent one change nothing). Deletions are legal only with
``unbounded``; timestamps must not decrease.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from common.errors import StreamError, WindowError
from engines.model.stream import DELETE, INSERT, Event, Triple, Window


def window_start(window: Window, ts: int) -> int | None:
    """τ_b(ts) for a sliding window: the start of the oldest window instance that still contains ts."""
    if window.kind != "sliding":
        return None
    return ((ts - window.range_ms) // window.slide_ms + 1) * window.slide_ms


def check_stream(events: Sequence[Event], window: Window) -> None:
    """Raise StreamError for decreasing timestamps, unknown operations, or deletions outside ``unbounded``."""
    previous_ts = None
    for position, event in enumerate(events):
        if previous_ts is not None and event.ts < previous_ts:
            raise StreamError(
                f"event {event.index} (position {position}) has timestamp {event.ts} < previous timestamp {previous_ts}"
            )
        previous_ts = event.ts
        for update in event.updates:
            if update.op == DELETE:
                if window.kind != "unbounded":
                    raise StreamError(
                        f"event {event.index} deletes a triple, but deletions are only allowed with an unbounded window "
                        f"(the query's window is {window.spec()})"
                    )
            elif update.op != INSERT:
                raise StreamError(f"event {event.index} has an update with op {update.op!r}; expected +1 or -1")


def apply_updates(content: set[Triple], events: Iterable[Event]) -> set[Triple]:
    """Apply the events' updates in order to ``content`` (in place) and return it."""
    for event in events:
        for update in event.updates:
            if update.op == INSERT:
                content.add(update.triple)
            else:
                content.discard(update.triple)
    return content


def _window_first_position(events: Sequence[Event], window: Window, position: int, first: int) -> int:
    """The first position in the window at instant ``position``, searching forward from ``first`` (windows only advance)."""
    if window.kind == "event":
        return position
    if window.kind == "unbounded":
        return 0
    start = window_start(window, events[position].ts)
    while events[first].ts < start:
        first += 1
    return first


def window_contents(
    events: Sequence[Event], window: Window, positions: Iterable[int] | None = None
) -> Iterator[tuple[int, frozenset[Triple]]]:
    """``(position, D)`` after the event at each position (every position, or the given sorted ones)."""
    events = tuple(events)
    check_stream(events, window)
    wanted = range(len(events)) if positions is None else sorted(set(positions))
    if wanted and (wanted[0] < 0 or wanted[-1] >= len(events)):
        raise WindowError(f"instant positions must lie in 0..{len(events) - 1}")
    if window.kind == "unbounded":
        # Deletions make D depend on all history: maintain it forward instead of replaying from 0 each time.
        content: set[Triple] = set()
        applied = 0
        for position in wanted:
            apply_updates(content, events[applied : position + 1])
            applied = position + 1
            yield position, frozenset(content)
        return
    first = 0
    for position in wanted:
        first = _window_first_position(events, window, position, first)
        # Insert-only: D is the set of inserted triples, rebuilt from scratch each instant on purpose.
        yield position, frozenset(apply_updates(set(), events[first : position + 1]))


def dynamic_graph(events: Sequence[Event], window: Window, position: int) -> frozenset[Triple]:
    """D after the event at ``position``."""
    for _, content in window_contents(events, window, [position]):
        return content
    raise WindowError("empty stream has no instant")
