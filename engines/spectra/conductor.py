"""The query conductor (Def. 8) keeps each pattern's view equal to the rows of the triples in the window and the static graph.

``advance`` takes one event: it prunes and encodes its triples (GraphSummary), stamps them in
the timelist (a triple already in the window is stamped again, which is how a duplicate stays
until its *last* occurrence leaves) and evicts what the window start has passed. It returns the
rows that are new to the window and the rows that leave it, by pattern, *without* applying either
to the views, so that S-Inc can apply them pattern by pattern while joining (see ``incremental``);
S-Rev applies both at once. Whether a triple is already in the window is read from the
views (its row in the first pattern it routes to), which hold exactly the window's rows once the
previous event was settled: the window is not held a second time as a set of triples.

Window instants follow DESIGN.md section 2: a sliding window at ``τ`` holds the events with
``τ_b(τ) <= ts <= τ`` (``Window.start``); an event window holds the current event alone, so its
stamp is the event's position rather than its timestamp (events may share a timestamp).
Static triples are rows that never expire; they enter the views at the first event, so the
first delta reports the answers that need no stream triple, like every later one.

Two invariants callers rely on. The ids of evicted triples are released to the dictionary but stay
decodable until the next eviction recycles them (``TermDictionary.recycle``), so the engine decodes the
matches that expire with them after ``advance`` returns, and gets the terms they had. The "no new rows"
and "no evicted rows" results of an event that changes nothing are shared, and immutable, so no caller can
corrupt them for the next event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from common.errors import ConfigError, EngineError, StreamError
from engines.model.filters import compile_filters
from engines.model.stream import INSERT, ContinuousQuery, Event, Triple, split_filters
from engines.spectra.dictionary import TermDictionary
from engines.spectra.joins import JoinPlanner, probed_positions, seed_partials
from engines.spectra.summary import GraphSummary, row_getter, shape_patterns
from engines.spectra.timelist import Timelist
from engines.spectra.views import View

# shared by every event that changes no view: read-only, so a caller cannot alter what the next one gets
_NO_ROWS: Mapping[int, list] = MappingProxyType({})
_NO_EVICTIONS: Mapping[int, list] = MappingProxyType({})


class QueryConductor:
    def __init__(self, query: ContinuousQuery, static: Iterable[Triple], engine_name: str) -> None:
        if query.window.kind not in ("sliding", "event"):
            raise EngineError(f"engine {engine_name!r} does not support {query.window.kind} windows")
        self.engine_name = engine_name
        atomic, rest = split_filters(query)
        self.shapes = shape_patterns(query, atomic)
        self.summary = GraphSummary(self.shapes)
        self.dictionary = TermDictionary()
        self.decode = self.dictionary.decoder()
        self.views = [View(shape.arity, probed_positions(self.shapes, j)) for j, shape in enumerate(self.shapes)]
        self.row_of_triple = [row_getter(shape.row_positions) for shape in self.shapes]
        # whether a triple is in the window, asked of the first pattern it routes to (routes are sorted)
        self._in_window = [view.holds_triple(shape.row_positions) for view, shape in zip(self.views, self.shapes)]
        self.planner = JoinPlanner(self.shapes, self.views, len(query.variables))
        self.post_filter = None
        if rest:
            self.post_filter = compile_filters(rest, query.variables)
        self.timelist = Timelist()
        self.sliding = query.window.kind == "sliding"
        self.static: set[tuple[int, int, int]] = set()
        self._pending_static: list[tuple[tuple[int, int, int], tuple[int, ...]]] = []
        for s, p, o in static:
            routes = self.summary.route(s, p, o)
            if routes:
                triple = self.dictionary.encode_triple(s, p, o)
                if triple not in self.static:
                    self.static.add(triple)
                    self.dictionary.hold(triple)
                    self._pending_static.append((triple, routes))
        self._range, self._slide = query.window.range_ms, query.window.slide_ms
        self._predicates = self.summary.predicates  # None when a variable predicate keeps any triple
        # bound once: advance runs per event
        self._route = self.summary.route
        self._encode_triple = self.dictionary.encode_triple
        self._hold = self.dictionary.hold
        self._add = self.timelist.add
        self._restamp = self.timelist.restamp
        self.pushes = 0
        self.last_ts = -(1 << 63)

    def advance(self, event: Event) -> tuple[Mapping[int, list], Mapping[int, list]]:
        """Apply one event to the window: (new rows by pattern, evicted rows by pattern), neither applied to the views.

        Both are empty (shared, read-only) when the event changes no view, the common case on
        selective queries, which therefore costs a few comparisons per triple. The caller applies
        both to the views before the next event. The ids in evicted rows decode until the next eviction.
        """
        ts = event.ts
        if ts < self.last_ts:
            raise StreamError(f"event {event.index} has timestamp {ts}, before the previous event's {self.last_ts}")
        self.last_ts = ts
        if self.sliding:
            stamp = ts
            slide = self._slide
            cutoff = ((ts - self._range) // slide + 1) * slide  # Window.start(ts), inlined: this runs per event
        else:
            stamp = cutoff = self.pushes
        self.pushes += 1
        new_rows = _NO_ROWS
        if self._pending_static:
            new_rows = self._take_static()
        predicates = self._predicates
        route = self._route
        row_of_triple, in_window = self.row_of_triple, self._in_window
        updates = event.updates
        # new to the window in this event, so not in the views yet: only an event of several triples can repeat one
        fresh: set[tuple[int, int, int]] | None = None if len(updates) == 1 else set()
        for op, s, p, o in updates:
            if op != INSERT:
                raise EngineError(
                    f"engine {self.engine_name!r} does not support deletions (event {event.index} deletes a triple)"
                )
            if predicates is not None and p not in predicates:
                continue
            # GraphSummary, then encoding and stamping, inlined: a third of LUBM's triples take this path on L4
            routes = route(s, p, o)
            if not routes:
                continue
            triple = self._encode_triple(s, p, o)
            if self.static and triple in self.static:
                continue  # static: never stamped, never evicted
            if in_window[routes[0]](triple) or (fresh and triple in fresh):
                self._restamp(triple, stamp)  # already in the window: no new row
                continue
            self._add(triple, stamp)
            self._hold(triple)
            if new_rows is _NO_ROWS:
                new_rows = {}
            if fresh is not None:
                fresh.add(triple)
            for j in routes:
                rows = new_rows.get(j)
                if rows is None:
                    new_rows[j] = [row_of_triple[j](triple)]
                else:
                    rows.append(row_of_triple[j](triple))
        if self.timelist.oldest >= cutoff:
            return new_rows, _NO_EVICTIONS
        return new_rows, self._evict(cutoff)

    def _take_static(self) -> dict[int, list]:
        new_rows: dict[int, list] = {}
        for triple, routes in self._pending_static:
            for j in routes:
                new_rows.setdefault(j, []).append(self.row_of_triple[j](triple))
        self._pending_static = []
        return new_rows

    def _evict(self, cutoff: int) -> dict[int, list]:
        """Remove the triples stamped before ``cutoff`` from the window and the dictionary; their rows by pattern."""
        # the previous eviction's matches were decoded when its event returned: its ids may be reused now
        self.dictionary.recycle()
        evicted: dict[int, list] = {}
        route, terms = self.summary.route, self.decode
        row_of_triple = self.row_of_triple
        release = self.dictionary.release
        for triple in self.timelist.evict_before(cutoff):
            for j in route(*terms(triple)):
                rows = evicted.get(j)
                if rows is None:
                    evicted[j] = [row_of_triple[j](triple)]
                else:
                    rows.append(row_of_triple[j](triple))
            release(triple)
        return evicted

    def evaluate(self) -> set[tuple[int, ...]]:
        """Every match over the views as they are: the full join, from the smallest view."""
        views, planner = self.views, self.planner
        if not all(view.size for view in views):
            return set()
        start = planner.smallest()
        found = planner.extend(planner.order(start), seed_partials(self.shapes[start], views[start].rows()))
        if self.post_filter is not None:
            return {m for m in found if self.keeps(m)}
        return set(found)

    def keeps(self, mapping: tuple[int, ...]) -> bool:
        """Whether a full mapping passes the FILTERs that could not be pushed into summarisation."""
        return self.post_filter is None or bool(self.post_filter(self.decode(mapping)))

    def stats(self) -> dict[str, int]:
        return {
            "window_triples": len(self.timelist),
            "static_triples": len(self.static),
            "timelist_entries": self.timelist.entries,
            "view_rows": sum(view.size for view in self.views),
            "view_cells": sum(view.cells() for view in self.views),
            "dictionary_terms": len(self.dictionary),
        }


def reject_options(engine_name: str, options: dict) -> None:
    if options:
        raise ConfigError(f"engine {engine_name!r} has no option {', '.join(sorted(options))}")
