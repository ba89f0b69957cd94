"""TP-Join over named windows: each window keeps its own encoded window, and a triple enters only its window's patterns' views.

DESIGN.md section 2 (Several streams). A triple of stream s is routed (Algorithm 1, once) to every pattern
it fits, then each window over s keeps the routes to its own patterns: views are never shared between
windows, nor with the static graph, whose rows enter only the views of patterns outside every block. So
the views, the automaton and the semi-naive passes of ``incremental`` run unchanged over several streams;
only the bookkeeping of what enters and leaves is per window, and every window moves to each instant's
timestamp (a window over another stream only expires, as every window does at an event of a stream the
query does not read: several queries registered together see the merge of all their streams).
"""

from __future__ import annotations

from collections.abc import Sequence

from common.errors import StreamError
from engines.model.stream import DELETE, ContinuousQuery, Event
from engines.named_windows import check_merged_event
from engines.tpjoin.window import EncodedWindow

Routes = tuple[int, ...]


class NamedWindows:
    """The query's named windows over the engine's views, and each window's share of a triple's routes."""

    def __init__(self, query: ContinuousQuery, views: Sequence) -> None:
        self.windows = [EncodedWindow(named.window, views) for named in query.named_windows]
        self.streams = [named.stream for named in query.named_windows]
        self.pattern_windows = query.pattern_windows
        self._own: dict[tuple[int | None, Routes], Routes] = {}

    def __len__(self) -> int:
        return sum(len(window) for window in self.windows)

    def own(self, window: int | None, routes: Routes) -> Routes:
        """The routes to the patterns of ``window`` (None: the static patterns), memoised: routes are few."""
        key = (window, routes)
        found = self._own.get(key)
        if found is None:
            found = self._own[key] = tuple(j for j in routes if self.pattern_windows[j] == window)
        return found

    def advance(self, event: Event, route, predicates) -> tuple[dict[int, list], list, dict[int, list], list]:
        """Every window moved to the event's instant: (rows added by pattern, triples added, rows removed, triples removed)."""
        check_merged_event(event, self.streams)
        reading = [k for k, stream in enumerate(self.streams) if stream == event.stream]
        kept: dict[int, list] = {k: [] for k in reading}
        if reading:
            own = self.own
            for op, s, p, o in event.updates:
                if op == DELETE:
                    raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, "
                                      "and named windows are sliding")
                if predicates is not None and p not in predicates:
                    continue
                routed = route(s, p, o)
                if routed is None:
                    continue
                for k in reading:
                    routes = own(k, routed[1])
                    if routes:
                        kept[k].append((1, routed[0], routes))
        added_rows: dict[int, list] = {}
        removed_rows: dict[int, list] = {}
        added_triples: list = []
        removed_triples: list = []
        for k, window in enumerate(self.windows):
            added, removed = window.advance(event.index, event.ts, kept.get(k, []))
            for changes, rows, triples in ((added, added_rows, added_triples), (removed, removed_rows, removed_triples)):
                for triple, routes in changes.items():
                    triples.append(triple)
                    for j in routes:
                        rows.setdefault(j, []).append(triple)
        return added_rows, added_triples, removed_rows, removed_triples
