"""The query conductor over a query set: one view per distinct triple pattern (``engines.pattern_classes``) and window, each equal to the rows of that pattern's triples in the window and the static graph.

``conductor.QueryConductor`` does this for one query; over a query set, GraphSummary runs once per
triple against the set's pattern classes, a kept triple is encoded once into one dictionary, and each
distinct window keeps one timelist. A view is read by every query with a pattern of its class over
its window (``readers``); a class that occurs twice in one query gets a second view, holding the same
rows, for the second occurrence, so a query's patterns lie on distinct views (S-Inc's pattern-by-pattern
passes need it: ``query_set``). ``advance`` returns the rows new to the window and the rows that leave
it, by view number, not applied to the views, as ``QueryConductor.advance`` does by pattern.

Queries register one by one before the first event (``register``: the views are empty, so a view a later
reader probes elsewhere gains that index in place); ``finish`` builds GraphSummary over the classes and the
windows' presence tests at the first event, when every query is known.

The ids of evicted triples stay decodable until the next event's first eviction recycles them: every
window's triples are encoded before any window evicts, so nothing is encoded between an eviction and
the decoding of the matches that expire with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from common.errors import EngineError, StreamError
from engines.model.stream import INSERT, ContinuousQuery, Event, Triple, Window, split_filters
from engines.pattern_classes import pattern_class_key
from engines.spectra.dictionary import TermDictionary
from engines.spectra.joins import probed_positions
from engines.spectra.summary import GraphSummary, PatternShape, row_getter, shape_patterns
from engines.spectra.timelist import Timelist
from engines.spectra.views import View

Routes = tuple[int, ...]


class SharedWindow:
    """One distinct window: its timelist, and per class of its queries the views (first occurrence first)."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.timelist = Timelist()
        self.sliding = window.kind == "sliding"
        self.pushes = 0
        self.views_of: dict[int, list[int]] = {}  # class -> view numbers
        self.in_window: dict[int, object] = {}  # class -> whether a triple's row is in its first view

    def stamp_and_cutoff(self, ts: int) -> tuple[int, int]:
        if self.sliding:
            stamp, cutoff = ts, self.window.start(ts)
        else:
            stamp = cutoff = self.pushes  # the event window: the previous event's entries expire
        self.pushes += 1
        return stamp, cutoff


class SharedConductor:
    """The query set's classes, summary, dictionary, windows and views; ``query_views[q][j]``: query q's pattern j's view."""

    def __init__(self, static: Sequence[Triple], engine_name: str) -> None:
        self.engine_name = engine_name
        self.static_triples = tuple(static)
        self.class_of: dict[tuple, int] = {}
        self.class_shapes: list[PatternShape] = []
        self.view_of: dict[tuple[Window, int, int], int] = {}
        self.views: list[View] = []
        self.shapes: list[tuple[PatternShape, ...]] = []
        self.query_views: list[list[int]] = []
        self.readers: list[list[tuple[int, int]]] = []  # view -> (query id, pattern index)
        self.windows: dict[Window, SharedWindow] = {}
        self.dictionary = TermDictionary()
        self.decode = self.dictionary.decoder()
        self.last_ts = -(1 << 63)
        self.static: set[tuple[int, int, int]] = set()  # encoded static triples, from ``finish`` on

    def register(self, query: ContinuousQuery) -> list[int]:
        """Query ``len(query_views)``: its patterns' views (made, or shared and indexed where it probes them)."""
        if query.window.kind not in ("sliding", "event"):
            raise EngineError(f"engine {self.engine_name!r} does not support {query.window.kind} windows")
        query_id = len(self.query_views)
        atomic, _ = split_filters(query)
        shapes = shape_patterns(query, atomic)
        self.shapes.append(shapes)
        window = self.windows.setdefault(query.window, SharedWindow(query.window))
        occurrences: Counter[int] = Counter()
        own = []
        for shape in shapes:
            key = pattern_class_key(shape.pattern, atomic)
            number = self.class_of.get(key)
            if number is None:
                number = self.class_of[key] = len(self.class_shapes)
                self.class_shapes.append(replace(shape, index=number))
            view_key = (query.window, number, occurrences[number])
            occurrences[number] += 1
            probed = probed_positions(shapes, shape.index)
            view = self.view_of.get(view_key)
            if view is None:
                view = self.view_of[view_key] = len(self.views)
                self.views.append(View(shape.arity, probed))
                self.readers.append([])
                window.views_of.setdefault(number, []).append(view)
            else:
                self.views[view].index_also(probed)
            self.readers[view].append((query_id, shape.index))
            own.append(view)
        self.query_views.append(own)
        return own

    def finish(self) -> None:
        """GraphSummary over the classes, each window's presence tests, the static rows: every query is registered."""
        class_shapes = self.class_shapes
        self.summary = GraphSummary(class_shapes)
        self.row_of_triple = [row_getter(shape.row_positions) for shape in class_shapes]
        for window in self.windows.values():
            for number, views in window.views_of.items():
                window.in_window[number] = self.views[views[0]].holds_triple(class_shapes[number].row_positions)
        self._own: dict[tuple[Window, Routes], Routes] = {}
        self.pending_static: dict[int, list] = {}  # view -> static rows, entering at the first event
        for s, p, o in self.static_triples:
            routes = self.summary.route(s, p, o)
            if routes:
                triple = self.dictionary.encode_triple(s, p, o)
                if triple not in self.static:
                    self.static.add(triple)
                    self.dictionary.hold(triple)
                    self._file(self.pending_static, triple, routes)

    def own(self, window: SharedWindow, routes: Routes) -> Routes:
        """The classes of ``routes`` that ``window``'s queries have (memoised: routes are few)."""
        key = (window.window, routes)
        found = self._own.get(key)
        if found is None:
            found = self._own[key] = tuple(number for number in routes if number in window.views_of)
        return found

    def _file(self, rows_by_view: dict[int, list], triple, routes: Routes) -> None:
        """``triple``'s row of each class in ``routes``, under every view of that class, in every window having it."""
        for window in self.windows.values():
            for number in self.own(window, routes):
                row = self.row_of_triple[number](triple)
                for view in window.views_of[number]:
                    held = rows_by_view.get(view)
                    if held is None:
                        rows_by_view[view] = [row]
                    else:
                        held.append(row)

    def advance(self, event: Event) -> tuple[dict[int, list], dict[int, list]]:
        """Every window moved to the event: (new rows by view, evicted rows by view), neither applied to the views."""
        ts = event.ts
        if ts < self.last_ts:
            raise StreamError(f"event {event.index} has timestamp {ts}, before the previous event's {self.last_ts}")
        self.last_ts = ts
        windows = [(window, *window.stamp_and_cutoff(ts)) for window in self.windows.values()]
        new_rows: dict[int, list] = {}
        if self.pending_static:
            new_rows, self.pending_static = self.pending_static, {}
        predicates, route, encode_triple = self.summary.predicates, self.summary.route, self.dictionary.encode_triple
        hold, row_of_triple, static = self.dictionary.hold, self.row_of_triple, self.static
        fresh: set = set()  # (window, triple) new to a window in this event, not in its views yet
        for op, s, p, o in event.updates:
            if op != INSERT:
                raise EngineError(
                    f"engine {self.engine_name!r} does not support deletions (event {event.index} deletes a triple)")
            if predicates is not None and p not in predicates:
                continue
            routes = route(s, p, o)
            if not routes:
                continue
            triple = encode_triple(s, p, o)
            if static and triple in static:
                continue  # static: never stamped, never evicted
            for window, stamp, _ in windows:
                own = self.own(window, routes)
                if not own:
                    continue
                if window.in_window[own[0]](triple) or (window, triple) in fresh:
                    window.timelist.restamp(triple, stamp)  # already in the window: no new row
                    continue
                window.timelist.add(triple, stamp)
                hold(triple)
                fresh.add((window, triple))
                for number in own:
                    row = row_of_triple[number](triple)
                    for view in window.views_of[number]:
                        held = new_rows.get(view)
                        if held is None:
                            new_rows[view] = [row]
                        else:
                            held.append(row)
        evicted: dict[int, list] = {}
        for window, _, cutoff in windows:
            if window.timelist.oldest < cutoff:
                self._evict(window, cutoff, evicted)
        return new_rows, evicted

    def _evict(self, window: SharedWindow, cutoff: int, evicted: dict[int, list]) -> None:
        """The window's triples stamped before ``cutoff`` leave it and the dictionary; their rows into ``evicted``."""
        self.dictionary.recycle()  # the previous event's expired matches were decoded: their ids may be reused
        route, terms, release = self.summary.route, self.decode, self.dictionary.release
        row_of_triple = self.row_of_triple
        for triple in window.timelist.evict_before(cutoff):
            for number in self.own(window, route(*terms(triple))):
                row = row_of_triple[number](triple)
                for view in window.views_of[number]:
                    held = evicted.get(view)
                    if held is None:
                        evicted[view] = [row]
                    else:
                        held.append(row)
            release(triple)

    def stats(self) -> dict[str, int]:
        return {
            "views": len(self.views),
            "pattern_classes": len(self.class_shapes),
            "window_triples": sum(len(window.timelist) for window in self.windows.values()),
            "static_triples": len(self.static),
            "timelist_entries": sum(window.timelist.entries for window in self.windows.values()),
            "view_rows": sum(view.size for view in self.views),
            "view_cells": sum(view.cells() for view in self.views),
            "dictionary_terms": len(self.dictionary),
        }
