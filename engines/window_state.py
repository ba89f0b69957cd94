"""The dynamic graph D(τ) of one window, maintained event by event, with the triples each event adds and removes.

For engines that keep their window as a set of triples (the re-evaluation baseline, the
windowed-to-updates adapter). Semantics are DESIGN.md section 2: a sliding window holds every
event with ``τ_b(τ) <= ts <= τ``, a triple seen twice is there once and leaves only with its last
occurrence; ``event`` holds the current event; ``unbounded`` applies inserts and deletes in order.
"""

from __future__ import annotations

from collections import deque

from common.errors import StreamError
from engines.model.stream import DELETE, Event, Triple, Window


class WindowState:
    """``advance(event)`` moves the window to the event's instant and returns ``(added, removed)`` triple sets."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.content: set[Triple] = set()
        # sliding windows: (ts, triple) in arrival order, and how many of them each triple has
        self._arrivals: deque[tuple[int, Triple]] = deque()
        self._occurrences: dict[Triple, int] = {}
        self._last_ts: int | None = None

    def __len__(self) -> int:
        return len(self.content)

    def advance(self, event: Event) -> tuple[set[Triple], set[Triple]]:
        if self._last_ts is not None and event.ts < self._last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self._last_ts}")
        self._last_ts = event.ts
        kind = self.window.kind
        if kind == "unbounded":
            return self._apply_updates(event)
        if any(update.op == DELETE for update in event.updates):
            raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, not {kind}")
        if kind == "event":
            new_content = {update.triple for update in event.updates}
            added, removed = new_content - self.content, self.content - new_content
            self.content = new_content
            return added, removed
        return self._slide(event)

    def _apply_updates(self, event: Event) -> tuple[set[Triple], set[Triple]]:
        before_present: dict[Triple, bool] = {}
        content = self.content
        for update in event.updates:
            triple = update.triple
            if triple not in before_present:
                before_present[triple] = triple in content
            if update.op == DELETE:
                content.discard(triple)
            else:
                content.add(triple)
        added = {t for t, was in before_present.items() if not was and t in content}
        removed = {t for t, was in before_present.items() if was and t not in content}
        return added, removed

    def _slide(self, event: Event) -> tuple[set[Triple], set[Triple]]:
        occurrences = self._occurrences
        added: set[Triple] = set()
        for update in event.updates:
            triple = update.triple
            self._arrivals.append((event.ts, triple))
            count = occurrences.get(triple, 0)
            occurrences[triple] = count + 1
            if count == 0:
                added.add(triple)
        window_start = self.window.start(event.ts)
        removed: set[Triple] = set()
        arrivals = self._arrivals
        while arrivals and arrivals[0][0] < window_start:
            _, triple = arrivals.popleft()
            count = occurrences[triple] - 1
            if count:
                occurrences[triple] = count
            else:
                del occurrences[triple]
                removed.add(triple)
        # a triple that arrived and expired within this one step was never in D(τ)
        both = added & removed
        added -= both
        removed -= both
        self.content |= added
        self.content -= removed
        return added, removed
