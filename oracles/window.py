"""The dynamic graph D(τ_i) after every event, computed from the definition in DESIGN.md section 2 as the stream passes once.

At instant i (just after event i is processed) the window holds:

- ``sliding(ω, x)``: the events j <= i with ``τ_b(τ_i) <= τ_j <= τ_i``, where
  ``τ_b(τ) = (⌊(τ − ω) / x⌋ + 1) · x``. Events after i are not processed yet, even with the same
  timestamp, so they are not in the window at instant i;
- ``event``: event i alone;
- ``unbounded``: every event j <= i.

D is obtained by applying the updates of those events in stream order to the empty set (inserting a
present triple and deleting an absent one change nothing). Deletions are legal only with
``unbounded``; timestamps must not decrease.

``PassingWindow`` holds exactly that: the events still in the window and, per triple, how many of their
updates insert it (a triple seen twice is there once and leaves with its last occurrence), never an
event that has left, so a pass over a stream of any length holds the window, as an engine does. It
notes which triples crossed in or out since it was last asked (``changes``), so an oracle's graph
is updated by difference at the instants it is evaluated.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from common.errors import StreamError, WindowError
from engines.model.stream import DELETE, INSERT, Event, Triple, Window


def window_start(window: Window, ts: int) -> int | None:
    """τ_b(ts) for a sliding window: the start of the oldest window instance that still contains ts."""
    if window.kind != "sliding":
        return None
    return ((ts - window.range_ms) // window.slide_ms + 1) * window.slide_ms


def check_event(event: Event, window: Window, position: int, previous_ts: int | None) -> None:
    """Raise StreamError for a timestamp below the previous one, an unknown operation, or a deletion outside ``unbounded``."""
    if previous_ts is not None and event.ts < previous_ts:
        raise StreamError(
            f"event {event.index} (position {position}) has timestamp {event.ts} < previous timestamp {previous_ts}"
        )
    for update in event.updates:
        if update.op == DELETE:
            if window.kind != "unbounded":
                raise StreamError(
                    f"event {event.index} deletes a triple, but deletions are only allowed with an unbounded window "
                    f"(the query's window is {window.spec()})"
                )
        elif update.op != INSERT:
            raise StreamError(f"event {event.index} has an update with op {update.op!r}; expected +1 or -1")


def check_stream(events: Iterable[Event], window: Window) -> None:
    """Raise StreamError for the first event ``check_event`` refuses (the Spark oracle checks a stream it holds)."""
    previous_ts = None
    for position, event in enumerate(events):
        check_event(event, window, position, previous_ts)
        previous_ts = event.ts


class PassingWindow:
    """D(τ) of one window as events are pushed in stream order: the window's events and a count per triple.

    ``stream`` (named windows) keeps out the events of other streams: they only move the window's time."""

    def __init__(self, window: Window, stream: str | None = None) -> None:
        self.window, self.stream = window, stream
        self.held: deque[tuple[int, tuple[Triple, ...]]] = deque()  # sliding: (ts, inserted triples) per event in it
        self.count: dict[Triple, int] = {}
        self.crossed: dict[Triple, bool] = {}  # triples whose presence may have changed: were they present before
        self.pushed = 0
        self.previous_ts: int | None = None

    def push(self, event: Event) -> None:
        """Process ``event``: D becomes D(τ) just after it."""
        if self.stream is None:
            check_event(event, self.window, self.pushed, self.previous_ts)
        self.pushed += 1
        self.previous_ts = event.ts
        kind = self.window.kind
        entering = self.stream is None or event.stream == self.stream
        if kind == "unbounded":
            for update in event.updates:
                self._set(update.triple, 1 if update.op == INSERT else 0)
            return
        triples = tuple(update.triple for update in event.updates) if entering else ()
        if kind == "event":
            while self.held:
                self._leave(self.held.popleft()[1])
        else:
            start = window_start(self.window, event.ts)
            while self.held and self.held[0][0] < start:
                self._leave(self.held.popleft()[1])
        if triples:
            self.held.append((event.ts, triples))
            for triple in triples:
                self._add(triple, 1)

    def _leave(self, triples: tuple[Triple, ...]) -> None:
        for triple in triples:
            self._add(triple, -1)

    def _add(self, triple: Triple, step: int) -> None:
        before = self.count.get(triple, 0)
        self._set(triple, before + step)

    def _set(self, triple: Triple, value: int) -> None:
        before = self.count.get(triple, 0)
        if (before > 0) != (value > 0):
            self.crossed.setdefault(triple, before > 0)
        if value > 0:
            self.count[triple] = value
        elif before:
            del self.count[triple]

    def content(self) -> frozenset[Triple]:
        return frozenset(self.count)

    def changes(self) -> tuple[list[Triple], list[Triple]]:
        """(entered, left): the triples that are in D now and were not when last asked, and the reverse."""
        entered, left = [], []
        for triple, was in self.crossed.items():
            now = triple in self.count
            if now and not was:
                entered.append(triple)
            elif was and not now:
                left.append(triple)
        self.crossed.clear()
        return entered, left


def _wanted(positions: Iterable[int] | None) -> Iterator[int] | None:
    return None if positions is None else iter(sorted(set(positions)))


def window_contents(
    events: Iterable[Event], window: Window, positions: Iterable[int] | None = None
) -> Iterator[tuple[int, frozenset[Triple]]]:
    """``(position, D)`` after the event at each position (every position, or the given ones), in one pass."""
    wanted = _wanted(positions)
    target = None if wanted is None else next(wanted, None)
    if target is not None and target < 0:
        raise WindowError("instant positions must lie in 0.. the last event's position")
    state = PassingWindow(window)
    for position, event in enumerate(events):
        if wanted is not None and target is None:
            return
        state.push(event)
        if wanted is None or position == target:
            yield position, state.content()
            target = None if wanted is None else next(wanted, None)
    if target is not None:
        raise WindowError(f"instant positions must lie in 0..{state.pushed - 1}")


def dynamic_graph(events: Iterable[Event], window: Window, position: int) -> frozenset[Triple]:
    """D after the event at ``position``."""
    for _, content in window_contents(events, window, [position]):
        return content
    raise WindowError("empty stream has no instant")
