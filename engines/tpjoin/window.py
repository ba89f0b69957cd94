"""I-CGPM's window over encoded kept triples: ``advance`` returns exactly the triples that enter and leave D(τ) at each instant (DESIGN.md section 2), keeping a few integers per arrival.

The views already hold every kept triple of the window once (a triple's routes are a function of
the triple, so it is in all its views or in none), so the window keeps no set of its own: a triple
is present when the view of its first route holds it. What only the window knows is kept compact:

- sliding and tumbling windows: the arrivals in order, as flat arrays (three ids of 4 bytes and a
  route code per arrival, a timestamp and a count per event), read from a head that moves on as events expire;
  a triple arriving while present adds to ``_repeats`` (its occurrences beyond the first), so it
  leaves with its last occurrence; most triples arrive once and cost no entry there;
- the event window: the previous event's triples (a triple of both events stays);
- unbounded: nothing; inserts and deletes are applied in order and only the net change is returned.

A triple that arrives and expires in one step was never in D(τ); that cannot happen here, since
an event is never before its own instant's window start.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from common.errors import StreamError
from engines.model.stream import DELETE, Window

EncodedTriple = tuple[int, int, int]
Routes = tuple[int, ...]
Kept = list[tuple[int, EncodedTriple, Routes]]  # (op, triple, routes) of the event's kept updates, in order
Changes = dict[EncodedTriple, Routes]

_COMPACT_AT = 1 << 12  # arrivals expired before the arrays are shifted (and then only past a quarter of them)


class EncodedWindow:
    """``advance(index, ts, kept)`` moves the window to ``ts``: (triples added, triples removed), each with its routes."""

    def __init__(self, window: Window, views: Sequence) -> None:
        self.window = window
        self.views = views  # a triple is present when the view of its first route holds it
        self.kind = window.kind
        self._last_ts: int | None = None
        self._size = 0  # distinct triples in the window
        # sliding: arrivals from the head on; ids holds three per arrival
        self._ids = array("i")  # 4 bytes an id, widened to 8 by the first id past 2^31 - 1 (``_append_ids``)
        # a route code per arrival: the routes are subsets of the patterns, so a byte holds them up to 8 patterns
        self._codes = array("B" if len(views) <= 8 else "H" if len(views) <= 16 else "L")
        self._event_ts = array("q")
        self._event_sizes = array("q")
        self._arrival_head = 0
        self._event_head = 0
        self._repeats: dict[EncodedTriple, int] = {}
        self._routes: list[Routes] = []  # route code -> routes
        self._code_of: dict[Routes, int] = {}
        self._previous: Changes = {}  # the event window's current event

    def __len__(self) -> int:
        return self._size

    def advance(self, index: int, ts: int, kept: Kept) -> tuple[Changes, Changes]:
        if self._last_ts is not None and ts < self._last_ts:
            raise StreamError(f"event {index}: timestamp {ts} is before the previous {self._last_ts}")
        self._last_ts = ts
        if self.kind == "unbounded":
            added, removed = self._apply_updates(kept)
        elif self.kind == "event":
            added, removed = self._replace(kept)
        else:
            added, removed = self._slide(ts, kept)
        self._size += len(added) - len(removed)
        return added, removed

    def _apply_updates(self, kept: Kept) -> tuple[Changes, Changes]:
        views = self.views
        before: dict[EncodedTriple, bool] = {}
        after: dict[EncodedTriple, bool] = {}
        routes_of: Changes = {}
        for op, triple, routes in kept:
            if triple not in before:
                before[triple] = triple in views[routes[0]]
                routes_of[triple] = routes
            after[triple] = op != DELETE
        added = {t: routes_of[t] for t, now in after.items() if now and not before[t]}
        removed = {t: routes_of[t] for t, now in after.items() if before[t] and not now}
        return added, removed

    def _replace(self, kept: Kept) -> tuple[Changes, Changes]:
        current = {triple: routes for _, triple, routes in kept}
        previous = self._previous
        added = {t: r for t, r in current.items() if t not in previous}
        removed = {t: r for t, r in previous.items() if t not in current}
        self._previous = current
        return added, removed

    def _slide(self, ts: int, kept: Kept) -> tuple[Changes, Changes]:
        views, repeats, code_of = self.views, self._repeats, self._code_of
        added: Changes = {}
        if kept:
            self._append_ids([term_id for _, triple, _ in kept for term_id in triple])
            codes = self._codes
            for _, triple, routes in kept:
                code = code_of.get(routes)
                if code is None:
                    code = code_of[routes] = len(self._routes)
                    self._routes.append(routes)
                codes.append(code)
                if triple in added or triple in views[routes[0]]:
                    repeats[triple] = repeats.get(triple, 0) + 1
                else:
                    added[triple] = routes
            self._event_ts.append(ts)
            self._event_sizes.append(len(kept))
        return added, self._expire(self.window.start(ts))

    def _append_ids(self, term_ids: list[int]) -> None:
        start = len(self._ids)
        try:
            self._ids.extend(term_ids)
        except OverflowError:  # an id needs more than 32 bits: widen the arrivals, keep their order
            del self._ids[start:]
            self._ids = array("q", self._ids)
            self._ids.extend(term_ids)

    def _expire(self, window_start: int) -> Changes:
        """The triples whose last arrival is before ``window_start``; their arrivals leave the arrays."""
        event_ts, event_sizes = self._event_ts, self._event_sizes
        head, end = self._event_head, self._event_head
        while end < len(event_ts) and event_ts[end] < window_start:
            end += 1
        if end == head:
            return {}
        first = self._arrival_head
        last = first + sum(event_sizes[head:end])
        flat = self._ids[3 * first:3 * last]
        routes, repeats = self._routes, self._repeats
        removed: Changes = {}
        for triple, code in zip(zip(flat[0::3], flat[1::3], flat[2::3]), self._codes[first:last]):
            count = repeats.get(triple)
            if count is None:
                removed[triple] = routes[code]
            elif count == 1:
                del repeats[triple]
            else:
                repeats[triple] = count - 1
        self._event_head, self._arrival_head = end, last
        if last >= _COMPACT_AT and 4 * last >= len(self._codes):
            del self._ids[:3 * last]
            del self._codes[:last]
            del event_ts[:end]
            del event_sizes[:end]
            self._event_head = self._arrival_head = 0
        return removed
