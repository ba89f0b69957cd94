"""Algorithm 1 over a query set for E-CGPM: each event's triples go to the queries whose patterns they can instantiate, and no other query is touched.

TP-Join partitions the stream by the query (Gillani, Picard, Laforest, DEBS 2016, section 4.1:
pass 1 keeps the triples whose predicate is a query predicate, pass 2 those whose constants fit a
pattern). With many queries, pass 1 and the constant tests of pass 2 run once per triple against
the whole query set: an index keyed on a pattern's constant predicate, subject and object finds
the queries a triple can reach in a few hash look-ups, whatever the number of queries. Each query
keeps its own views, window and automaton (an instance of the engine), and is pushed only at the
instants where something reaches it or something of its own leaves. The event engines use it; the
incremental ones share their views across the query set instead (``shared_query_set``).

- a sliding window: when a triple routed to it earlier falls before the window's start (an
  expiry heap per window, keyed on the routed events' timestamps);
- the event window: the event after one that reached it (its content leaves);
- every query at the first event (static answers appear there).

Exact: without entailment a triple that instantiates none of a query's patterns is in none of its
matches, so the query's answers at an instant it is not pushed are those of its last push, and its
instance sees, in order, every triple that can matter to it. The instances still run their own
pass 2 (atomic FILTERs, repeated variables) on what reaches them.
"""

from __future__ import annotations

import heapq
from collections import Counter

from common.errors import EngineError, StreamError
from engines.model.stream import DELETE, NO_CHANGE, ContinuousQuery, Event, Mapping, Triple, Update, is_variable
from engines.protocol import MultiDelta
from engines.query_set import QuerySet

SHARES = "partitioning by the query set (Algorithm 1 once per triple for every query)"

RouteKey = tuple[str | None, str | None, str | None]


def route_key(pattern) -> RouteKey:
    """A pattern's constant subject, predicate and object (None for a variable)."""
    return tuple(None if is_variable(term) else term for term in pattern)


class RoutedQuerySet(QuerySet):
    """One engine instance per query, each pushed only the updates that can instantiate its patterns."""

    def __init__(self, first) -> None:
        super().__init__(first)
        self.routes: dict[RouteKey, set[int]] = {}  # constants of a pattern -> the queries with such a pattern
        self.route_shapes: list[tuple[bool, bool, bool]] = []  # which positions some pattern fixes
        self.queries: list[ContinuousQuery] = []
        self.windows = []  # per query
        self.expiry: dict = {}  # sliding window -> heap of (timestamp routed, query id)
        self.reached_last_event: list[int] = []  # event-window queries the previous event reached
        self.last_ts: int | None = None
        self.first_event = True

    def register(self, query_id: int, query: ContinuousQuery) -> None:
        if query.entailment != "none":
            raise EngineError("routing by the query set needs queries without entailment")
        self.queries.append(query)
        self.windows.append(query.window)
        if query.window.kind == "sliding":
            self.expiry.setdefault(query.window, [])
        for pattern in query.patterns:
            key = route_key(pattern)
            self.routes.setdefault(key, set()).add(query_id)
            shape = tuple(term is not None for term in key)
            if shape not in self.route_shapes:
                self.route_shapes.append(shape)

    def keys_of(self, triple: Triple) -> list[RouteKey]:
        """The route keys (patterns' constants) ``triple`` fits: pass 1 and pass 2's constant tests, a look-up per shape."""
        routes = self.routes
        keys = []
        for shape in self.route_shapes:
            key = tuple(term if fixed else None for term, fixed in zip(triple, shape, strict=True))
            if key in routes:
                keys.append(key)
        return keys

    def push(self, event: Event) -> MultiDelta:
        self._check_order(event)
        self.started = True
        pushes, routes = self.pushes, self.routes
        updates_for: dict[int, list[Update]] = {}
        for update in event.updates:
            keys = self.keys_of(update.triple)
            reached = set().union(*(routes[key] for key in keys)) if len(keys) != 1 else routes[keys[0]]
            for query_id in reached:
                updates_for.setdefault(query_id, []).append(update)
        deltas = [NO_CHANGE] * len(self.holders)
        for query_id in self._due(event, updates_for):
            updates = updates_for.get(query_id, ())
            deltas[query_id] = pushes[query_id](Event(event.index, event.ts, tuple(updates)))
        return MultiDelta(deltas)

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        return self.answer_functions[query_id]()

    def _check_order(self, event: Event) -> None:
        """The errors each instance would raise, raised whether or not anything reaches it."""
        if self.last_ts is not None and event.ts < self.last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self.last_ts}")
        self.last_ts = event.ts
        if any(update.op == DELETE for update in event.updates):
            for window in self.windows:
                if window.kind != "unbounded":
                    raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, "
                                      f"not {window.kind}")

    def _due(self, event: Event, updates_for: dict[int, list]) -> set[int]:
        """The queries to push at this event: reached now, or losing window content now, or all at the first."""
        windows = self.windows
        if self.first_event:
            self.first_event = False
            due = set(range(len(self.holders)))
        else:
            due = set(updates_for)
            due.update(self.reached_last_event)
        for window, heap in self.expiry.items():
            window_start = window.start(event.ts)
            while heap and heap[0][0] < window_start:
                due.add(heapq.heappop(heap)[1])
        self.reached_last_event = [query_id for query_id in updates_for if windows[query_id].kind == "event"]
        for query_id in updates_for:
            window = windows[query_id]
            if window.kind == "sliding":
                heapq.heappush(self.expiry[window], (event.ts, query_id))
        return due


class QuerySetPartitioning:
    """For TP-Join engines: ``add_query`` makes the instance query 0 of a ``RoutedQuerySet``; later queries get instances of their own."""

    def add_query(self, query: ContinuousQuery) -> int:
        if self.compiled.query.named_windows or query.named_windows:
            raise EngineError("a query over named windows runs alone in its instance: register it in an engine of its own")
        query_set = self.__dict__.get("query_set")
        if query_set is None:
            query_set = self.query_set = RoutedQuerySet.around(self)
            query_set.register(0, self.compiled.query)
        query_set.check_open()
        instance = type(self)(query, static=self.compiled.static)
        query_id = query_set.add_instance(instance)
        query_set.register(query_id, query)
        return query_id
