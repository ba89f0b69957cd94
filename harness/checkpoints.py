"""Which instants verification checks is a rule applied to each event as the stream passes, never a list of instants.

With ``every=1`` every instant is checked. With ``every=K``: every K-th instant, each instant at which
the window drops events (named windows: at which any window's range drops an event of any stream, a
superset of where each drops its own), every instant of an ``event`` window, each event that deletes
(``unbounded``), and the last: a fault that shows only when answers leave is never skipped
(``harness.verify``). The rule holds, per window, the distinct timestamps still in its range and
the updates they carry: O(window), as an engine does.

The same walk of the stream's timeline (``timeline_chunks``: the integer columns, a batch at a time,
no term decoded) gives the Spark oracle the checked instants before the engine runs, and
``harness.oracle_choice`` the cost of re-evaluating them: the window's updates at each one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from engines.model.stream import ContinuousQuery, Window
from harness.streams.event_index import facts_of, timeline_chunks


class WindowSpan:
    """A sliding window's range as timestamps pass: the distinct timestamps in it, each with its updates."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.held: deque[list[int]] = deque()  # [ts, updates] per distinct timestamp still in the range
        self.updates = 0

    def enter(self, ts: int, size: int) -> None:
        if self.held and self.held[-1][0] == ts:
            self.held[-1][1] += size
        else:
            self.held.append([ts, size])
        self.updates += size

    def move(self, now: int) -> bool:
        """Move the range to instant time ``now``; whether an event left it."""
        start = ((now - self.window.range_ms) // self.window.slide_ms + 1) * self.window.slide_ms
        dropped = False
        while self.held and self.held[0][0] < start:
            self.updates -= self.held.popleft()[1]
            dropped = True
        return dropped

    def step(self, ts: int, size: int) -> bool:
        """An event of ``size`` updates at ``ts`` enters and the range moves to it; whether an earlier event left."""
        self.enter(ts, size)
        return self.move(ts)


class CheckpointRule:
    """``checks(index, ts, size, deletes)``, called for every event in order, says whether its instant is checked."""

    def __init__(self, query: ContinuousQuery, every: int, events: int) -> None:
        self.every, self.last = every, events - 1
        self.kind = "sliding" if query.named_windows else query.window.kind
        windows = [named.window for named in query.named_windows] or [query.window]
        self.spans = [WindowSpan(window) for window in windows] if self.kind == "sliding" else []
        self.seen = 0  # updates so far: an unbounded window's
        self.window_updates = 0  # in the window at the last instant stepped (named windows: every stream's, summed)

    def checks(self, index: int, ts: int, size: int, deletes: bool) -> bool:
        self.seen += size
        drops = False
        if self.kind == "sliding":
            for span in self.spans:
                drops = span.step(ts, size) or drops
            self.window_updates = sum(span.updates for span in self.spans)
        else:
            self.window_updates = size if self.kind == "event" else self.seen
            drops = self.kind == "event" or deletes
        return self.every <= 1 or index % self.every == 0 or index == self.last or drops


def describe_checkpoints(every: int) -> str:
    if every <= 1:
        return "every instant"
    return f"every {every}th instant, every instant where the window drops events, and the last"


def timeline_events(stream) -> Iterator[tuple[int, int, int, bool]]:
    """``(index, ts, size, deletes)`` per event, from the stream's timeline read a piece at a time."""
    index = 0
    for piece in timeline_chunks(stream):
        for ts, size, deletes in zip(piece.ts.tolist(), piece.sizes.tolist(), piece.deletes.tolist(), strict=True):
            yield index, ts, size, deletes
            index += 1


def checked_instants(query: ContinuousQuery, stream, every: int) -> Iterator[int]:
    """The instants ``every`` checks, in order, computed as the timeline passes."""
    rule = CheckpointRule(query, every, facts_of(stream).events)
    for index, ts, size, deletes in timeline_events(stream):
        if rule.checks(index, ts, size, deletes):
            yield index


def with_previous(instants: Iterable[int]) -> Iterator[int]:
    """Each instant and the one before it (an istream engine's Δ⁺ is checked against M(τ) − M(τ_prev)), in order, once each."""
    last = -1
    for instant in instants:
        for wanted in (instant - 1, instant):
            if wanted > last:
                yield wanted
                last = wanted
