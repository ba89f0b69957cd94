"""Many queries over one re-evaluation store per window: each query's answers are recomputed from scratch whenever a triple it could match changes.

Queries with the same window and entailment read one window store (the window's content, its RDFS
closure and its predicate index), maintained once per event however many queries read it. At an
instant, a query is evaluated afresh (``engines.bgp``) when its store gained or lost a triple whose
constants fit one of its patterns (a hash look-up per changed triple, on the patterns' constant
subject, predicate and object), and at the first event; otherwise its answers are the previous
instant's, as a one-query ``reeval`` keeps them when its window does not change. Exact: a triple
whose constants fit none of a query's patterns is in none of its matches.
"""

from __future__ import annotations

from collections import Counter

from common.errors import EngineError
from engines.bgp import TripleIndex, evaluate_bgp
from engines.model.filters import compile_filters
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple, is_variable
from engines.protocol import MultiDelta, check_supported
from engines.rdfs import ClosureCounter, Schema
from engines.window_state import WindowState


class WindowStore:
    """One window's content, closure and index, and the queries that read it, found by the constants of their patterns."""

    def __init__(self, window: WindowState, index: TripleIndex, closure: ClosureCounter | None) -> None:
        self.window, self.index, self.closure = window, index, closure
        self.readers: dict[tuple, set[int]] = {}  # a pattern's constants (None for a variable) -> query ids
        self.reader_shapes: list[tuple[bool, bool, bool]] = []
        self.query_ids: list[int] = []

    def read_by(self, query_id: int, query: ContinuousQuery) -> None:
        self.query_ids.append(query_id)
        for pattern in query.patterns:
            key = tuple(None if is_variable(term) else term for term in pattern)
            self.readers.setdefault(key, set()).add(query_id)
            shape = tuple(term is not None for term in key)
            if shape not in self.reader_shapes:
                self.reader_shapes.append(shape)

    def advance(self, event: Event) -> set[Triple]:
        """Move the window to the event; the index's triples that entered or left."""
        added, removed = self.window.advance(event)
        if not (added or removed):
            return set()
        closure, index = self.closure, self.index
        left = closure.remove(removed) if closure else removed
        index.remove(left)
        entered = closure.add(added) if closure else added
        index.add(entered)
        return left | entered

    def affected(self, changed: set[Triple]) -> set[int]:
        """The queries with a pattern whose constants one of ``changed`` has."""
        readers, shapes = self.readers, self.reader_shapes
        found: set[int] = set()
        for triple in changed:
            for shape in shapes:
                ids = readers.get(tuple(term if fixed else None for term, fixed in zip(triple, shape, strict=True)))
                if ids:
                    found |= ids
        return found


class SharedWindowStores:
    """The queries of one ``ReevalEngine``, grouped by window store; ``push`` returns a MultiDelta."""

    def __init__(self, first) -> None:
        self.engine = first
        self.stores: dict[tuple, WindowStore] = {}
        self.queries: list[ContinuousQuery] = []
        self.store_of: list[WindowStore] = []
        self.accepts: list = []
        self.current: list[set[Mapping]] = []
        self.started = False
        self.evaluations = 0
        store = WindowStore(first.window, first.index, first.closure)
        self.stores[(first.query.window, first.query.entailment)] = store
        self._register(first.query, store)

    @classmethod
    def around(cls, engine) -> SharedWindowStores:
        """The engine's query and store become query 0 and its first store; its push and answers become the set's."""
        if not engine._first:
            raise EngineError("queries are registered before the first event")
        shared = cls(engine)
        engine.push = shared.push
        engine.answers = shared.answers
        engine.stats = shared.stats
        return shared

    def _register(self, query: ContinuousQuery, store: WindowStore) -> int:
        query_id = len(self.queries)
        self.queries.append(query)
        self.store_of.append(store)
        self.accepts.append(compile_filters(query.filters, query.variables))
        self.current.append(set())
        store.read_by(query_id, query)
        return query_id

    def add(self, query: ContinuousQuery) -> int:
        if self.started:
            raise EngineError("queries are registered before the first event")
        check_supported(type(self.engine), query)
        key = (query.window, query.entailment)
        store = self.stores.get(key)
        if store is None:
            engine = self.engine
            closure = ClosureCounter(Schema(engine.schema)) if query.entailment == "rdfs" else None
            store = self.stores[key] = WindowStore(WindowState(query.window), TripleIndex(), closure)
            static = set(engine.static)
            store.index.add(closure.add(static) if closure else static)
        return self._register(query, store)

    def push(self, event: Event) -> MultiDelta:
        first = not self.started
        self.started = True
        deltas: list[Delta] = [NO_CHANGE] * len(self.queries)
        for store in self.stores.values():
            changed = store.advance(event)
            due = store.query_ids if first else store.affected(changed) if changed else ()
            for query_id in due:
                query = self.queries[query_id]
                answers = evaluate_bgp(query.patterns, query.variables, store.index, self.accepts[query_id])
                self.evaluations += 1
                delta = Delta.between(self.current[query_id], answers)
                self.current[query_id] = answers
                if delta:
                    deltas[query_id] = delta
        return MultiDelta(deltas)

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        return Counter(self.current[query_id])

    def stats(self) -> dict[str, int]:
        return {
            "window_stores": len(self.stores),
            "window_triples": sum(len(store.window) for store in self.stores.values()),
            "indexed_triples": sum(len(store.index) for store in self.stores.values()),
            "answers": sum(len(current) for current in self.current),
            "evaluations": self.evaluations,
            "queries": len(self.queries),
        }
