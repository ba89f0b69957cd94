"""One view per distinct triple pattern (up to variable renaming) and window across a query set: a window triple is routed, encoded and stored once, whatever the number of queries whose pattern it fits.

TP-Join partitions the stream by the query (Algorithm 1); over a query set the partitioning is by the
set's *distinct* patterns, up to variable renaming and atomic FILTERs included (``engines.pattern_classes``:
``?x a :Student`` and ``?y a :Student`` are one class, ``?x :p ?x`` and ``?x :p ?y`` two). The set keeps

- one dictionary, whose persistent part holds every query's constants and the static graph;
- one ``ClassRouter`` over the classes (pass 1 and pass 2 once per triple for the whole set, by hash look-ups);
- one ``EncodedWindow`` per distinct window, over the classes its queries use;
- per (window, class) one ``View``, read by every query of that window with a pattern of that class.

Over named windows (DESIGN.md section 2, Several streams; every query of the set is then over named
windows) the window of a view is a *source*: a ``(stream IRI, window)`` pair for the patterns of a
``WINDOW`` block, or ``STATIC`` for the patterns outside every block, whose views hold the static rows
only and never move. A source's window takes the rows of its own stream's events and only expires at
the others', so the set's instants are the merge of all its queries' streams, and the static rows enter
the ``STATIC`` views only (``engines.tpjoin.named`` keeps them so for one query).

A query whose pattern class occurs twice in it (``?x :p ?y . ?y :p ?z``) reads a second copy for the
second occurrence, holding the same triples: the semi-naive passes need each pattern of a query on a
view of its own (``shared_query_set``). Views are numbered; a query's patterns lie on distinct views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from engines.model.stream import ContinuousQuery, Event, Triple, Window, split_filters
from engines.pattern_classes import pattern_class_key
from engines.tpjoin.class_router import ClassRouter
from engines.tpjoin.common import probed_by_value
from engines.tpjoin.dictionary import SynchronisedDictionary
from engines.tpjoin.partition import PatternShape, shape_patterns
from engines.tpjoin.views import View
from engines.tpjoin.window import EncodedWindow

Routes = tuple[int, ...]
STATIC = "static"  # the source of a named-window query's patterns outside every WINDOW block
Source = Window | tuple[str, Window] | str  # a one-window query's window, (stream, window), or STATIC


def pattern_sources(query: ContinuousQuery) -> list[Source]:
    """Each pattern's source: the query's window, or over named windows its window's (stream, window) or STATIC."""
    if not query.named_windows:
        return [query.window] * len(query.patterns)
    named = query.named_windows
    return [STATIC if k is None else (named[k].stream, named[k].window) for k in query.pattern_windows]


class SharedViews:
    """The query set's classes, router, dictionary, windows and views; ``query_views[q][j]``: query q's pattern j's view.

    Queries are registered one by one (``register``, before the first event: the views are empty, and the
    dictionary holds no stream term yet, so each query's constants join its persistent part); ``finish``
    builds what needs every query, the router and the windows, at the first event.
    """

    def __init__(self, static: Sequence[Triple]) -> None:
        self.class_of: dict[tuple, int] = {}
        self.class_shapes: list[PatternShape] = []
        self.view_of: dict[tuple[Source, int, int], int] = {}  # (source, class, occurrence in a query) -> view number
        self.views: list[View] = []
        self.query_views: list[list[int]] = []
        self.readers: list[list[tuple[int, int]]] = []  # view number -> (query id, pattern index) reading it
        self.static = tuple(dict.fromkeys(tuple(triple) for triple in static))
        self.dictionary = SynchronisedDictionary(term for triple in self.static for term in triple)
        self.windows: dict[Source, EncodedWindow] = {}
        self.named = False  # the set's queries are over named windows (set by the first query registered)

    def register(self, query: ContinuousQuery) -> list[int]:
        """Query ``len(query_views)``: its patterns' views (made or shared), in pattern order."""
        query_id = len(self.query_views)
        shapes, _ = shape_patterns(query)
        atomic, _ = split_filters(query)
        self.dictionary.add_persistent([term for shape in shapes for _, term in shape.constants])
        if not self.query_views:
            self.named = bool(query.named_windows)
        occurrences: Counter[tuple] = Counter()
        own = []
        for shape, probed, source in zip(shapes, probed_by_value(query), pattern_sources(query), strict=True):
            key = pattern_class_key(shape.pattern, atomic)
            number = self.class_of.get(key)
            if number is None:
                number = self.class_of[key] = len(self.class_shapes)
                self.class_shapes.append(replace(shape, index=number))
            view_key = (source, number, occurrences[(source, number)])
            occurrences[(source, number)] += 1
            view = self.view_of.get(view_key)
            if view is None:
                view = self.view_of[view_key] = len(self.views)
                self.views.append(View(with_predicates=shape.predicate is None, with_keys=probed))
                self.readers.append([])
            elif probed:
                self.views[view].keep_value_table()  # a value table when any reader probes by object
            self.readers[view].append((query_id, shape.index))
            own.append(view)
        self.query_views.append(own)
        return own

    def finish(self) -> None:
        """The router over the classes, a window per distinct window, the static rows: every query is registered."""
        class_shapes = self.class_shapes
        self.router = ClassRouter(class_shapes, self.dictionary)
        self.route = self.router.route
        self.predicates = self.router.predicates
        # (source, class) -> its views, occurrence 0 first; each source's classes, and a view per class for presence
        self.copies: dict[tuple[Source, int], list[int]] = {}
        for (source, number, _), view in sorted(self.view_of.items(), key=lambda item: item[0][2]):
            self.copies.setdefault((source, number), []).append(view)
        self.window_classes: dict[Source, frozenset[int]] = {}
        for source, number in self.copies:
            self.window_classes[source] = self.window_classes.get(source, frozenset()) | {number}
        for source, numbers in self.window_classes.items():
            if source == STATIC:
                continue  # the static rows' views: no window moves them
            first_copies = [self.views[self.copies[(source, n)][0]] if n in numbers else None
                            for n in range(len(class_shapes))]
            self.windows[source] = EncodedWindow(source[1] if self.named else source, first_copies)
        self._own: dict[tuple[Source, Routes], Routes] = {}
        self.every_window_has_every_class = all(len(n) == len(class_shapes) for n in self.window_classes.values())
        self.static_encoded: set[tuple[int, int, int]] = set()
        self.pending_static: dict[int, list] = {}  # view -> static rows, entering at the first event
        for triple in self.static:
            routed = self.route(*triple)
            if routed is not None and routed[0] not in self.static_encoded:
                encoded, classes = routed
                self.static_encoded.add(encoded)
                # over named windows the static rows enter the STATIC views only, else every window's
                for source in ((STATIC,) if STATIC in self.window_classes else ()) if self.named else self.windows:
                    for view in self._views_of(source, self.own(source, classes)):
                        self.pending_static.setdefault(view, []).append(encoded)

    def own(self, window: Window, classes: Routes) -> Routes:
        """The classes of ``classes`` that ``window``'s queries use (memoised: routes are few)."""
        if self.every_window_has_every_class:
            return classes
        key = (window, classes)
        found = self._own.get(key)
        if found is None:
            numbers = self.window_classes[window]
            found = self._own[key] = tuple(number for number in classes if number in numbers)
        return found

    def _views_of(self, window: Window, classes: Routes) -> list[int]:
        copies = self.copies
        return [view for number in classes for view in copies[(window, number)]]

    def advance(self, event: Event, kept: list) -> tuple[dict[int, list], dict[int, list], list[dict], list[dict]]:
        """Every window moved to the event: (rows added by view, rows removed by view, triples added, removed, per window)."""
        added_rows: dict[int, list] = {}
        removed_rows: dict[int, list] = {}
        added_triples, removed_triples = [], []
        copies = self.copies
        named = self.named
        for window, encoded_window in self.windows.items():
            own = self.own
            if named and window[0] != event.stream:
                window_kept = []  # a window over another stream only expires to the event's instant
            else:
                window_kept = kept if self.every_window_has_every_class else [
                    (op, triple, routes) for op, triple, classes in kept if (routes := own(window, classes))]
            added, removed = encoded_window.advance(event.index, event.ts, window_kept)
            for changes, rows in ((added, added_rows), (removed, removed_rows)):
                for triple, classes in changes.items():
                    for number in classes:
                        for view in copies[(window, number)]:
                            held = rows.get(view)
                            if held is None:
                                rows[view] = [triple]
                            else:
                                held.append(triple)
            added_triples.append(added)
            removed_triples.append(removed)
        return added_rows, removed_rows, added_triples, removed_triples

    def stats(self) -> dict[str, int]:
        return {
            "views": len(self.views),
            "pattern_classes": len(self.class_shapes),
            "view_triples": sum(len(view) for view in self.views),
            "view_keys": sum(view.pairs.key_count() for view in self.views),
            "window_triples": sum(len(window) for window in self.windows.values()),
            "dictionary_terms": len(self.dictionary),
            "persistent_terms": self.dictionary.persistent_size,
        }
