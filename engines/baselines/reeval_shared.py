"""Many queries over one re-evaluation store per window: each query's answers are recomputed from scratch whenever a triple it could match changes.

Queries with the same window and entailment read one window store (the window's content, its RDFS
closure and its predicate index), maintained once per event however many queries read it. At an
instant, a query is evaluated afresh (``engines.bgp``) when its store gained or lost a triple whose
constants fit one of its patterns (a hash look-up per changed triple, on the patterns' constant
subject, predicate and object), and at the first event; otherwise its answers are the previous
instant's, as a one-query ``reeval`` keeps them when its window does not change. Exact: a triple
whose constants fit none of a query's patterns is in none of its matches.

Queries over named windows (DESIGN.md section 2, Several streams) share one store per stream, window
and entailment, which holds that window's content only, and one store per entailment for the static
graph, which never moves; each of a query's patterns reads the store of its own window (or the static
one), and the query is due when any of them changed a triple fitting one of the patterns reading it.
Every windowed store moves to every instant: the one over the event's stream takes it, the others only
expire, so each query sees the merge of every registered query's streams as instants.
"""

from __future__ import annotations

from collections import Counter

from common.errors import EngineError
from engines.bgp import TripleIndex, evaluate_bgp
from engines.model.filters import compile_filters
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple, TriplePattern, is_variable
from engines.named_windows import StreamWindow, check_merged_event
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

    def read_by(self, query_id: int, patterns: tuple[TriplePattern, ...]) -> None:
        """Query ``query_id`` reads this store with ``patterns`` (all its patterns, or those of one of its named windows)."""
        if query_id not in self.query_ids:
            self.query_ids.append(query_id)
        for pattern in patterns:
            key = tuple(None if is_variable(term) else term for term in pattern)
            self.readers.setdefault(key, set()).add(query_id)
            shape = tuple(term is not None for term in key)
            if shape not in self.reader_shapes:
                self.reader_shapes.append(shape)

    def advance(self, event: Event) -> set[Triple]:
        """Move the window to the event; the index's triples that entered or left (none for the static graph's store)."""
        if self.window is None:
            return set()
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
        self.named = bool(first.query.named_windows)
        self.stores: dict[tuple, WindowStore] = {}
        self.queries: list[ContinuousQuery] = []
        self.indexes: list[tuple[TripleIndex, list[TripleIndex] | None]] = []  # the index, and each pattern's (named)
        self.accepts: list = []
        self.current: list[set[Mapping]] = []
        self.streams: tuple[str, ...] = ()
        self.started = False
        self.evaluations = 0
        if self.named:  # its stores are made as any named query's (the engine's own graphs are still empty)
            self._register_named(first.query)
        else:
            store = WindowStore(first.window, first.index, first.closure)
            self.stores[(first.query.window, first.query.entailment)] = store
            self._register(first.query, store.index, None)
            store.read_by(0, first.query.patterns)

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

    def _register(self, query: ContinuousQuery, index: TripleIndex, pattern_indexes: list[TripleIndex] | None) -> int:
        self.queries.append(query)
        self.indexes.append((index, pattern_indexes))
        self.accepts.append(compile_filters(query.filters, query.variables))
        self.current.append(set())
        return len(self.queries) - 1

    def _store(self, key: tuple, window, entailment: str, static: bool) -> WindowStore:
        """The store for ``key``, made on first use: ``window`` (None: the static graph's), holding the static data if asked."""
        store = self.stores.get(key)
        if store is None:
            engine = self.engine
            closure = ClosureCounter(Schema(engine.schema)) if entailment == "rdfs" else None
            store = self.stores[key] = WindowStore(window, TripleIndex(), closure)
            if static:
                triples = set(engine.static)
                store.index.add(closure.add(triples) if closure else triples)
        return store

    def _register_named(self, query: ContinuousQuery) -> int:
        """A query over named windows: each pattern reads its window's store (stream, window, entailment) or the static one."""
        entailment = query.entailment
        stores = [self._store(("static", entailment), None, entailment, True)]
        stores += [self._store((named.stream, named.window, entailment), StreamWindow(named), entailment, False)
                   for named in query.named_windows]
        pattern_stores = [stores[0 if k is None else k + 1] for k in query.pattern_windows]
        indexes = [store.index for store in pattern_stores]
        query_id = self._register(query, indexes[0], indexes)
        for store in dict.fromkeys(pattern_stores):
            store.read_by(query_id, tuple(pattern for pattern, reads in zip(query.patterns, pattern_stores, strict=True)
                                          if reads is store))
        self.streams = tuple(dict.fromkeys((*self.streams, *query.streams)))
        return query_id

    def add(self, query: ContinuousQuery) -> int:
        if self.started:
            raise EngineError("queries are registered before the first event")
        check_supported(type(self.engine), query)
        if bool(query.named_windows) != self.named:
            raise EngineError(f"query {query.name}: a query over named windows shares an engine only with queries "
                              "over named windows")
        if self.named:
            return self._register_named(query)
        store = self._store((query.window, query.entailment), WindowState(query.window), query.entailment, True)
        query_id = self._register(query, store.index, None)
        store.read_by(query_id, query.patterns)
        return query_id

    def push(self, event: Event) -> MultiDelta:
        first = not self.started
        self.started = True
        if self.named:
            check_merged_event(event, self.streams)
        due: set[int] = set(range(len(self.queries))) if first else set()
        for store in self.stores.values():
            changed = store.advance(event)
            if changed and not first:
                due |= store.affected(changed)
        deltas: list[Delta] = [NO_CHANGE] * len(self.queries)
        for query_id in sorted(due):
            query = self.queries[query_id]
            index, pattern_indexes = self.indexes[query_id]
            answers = evaluate_bgp(query.patterns, query.variables, index, self.accepts[query_id], pattern_indexes)
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
            "window_stores": sum(store.window is not None for store in self.stores.values()),
            "window_triples": sum(len(store.window) for store in self.stores.values() if store.window is not None),
            "indexed_triples": sum(len(store.index) for store in self.stores.values()),
            "answers": sum(len(current) for current in self.current),
            "evaluations": self.evaluations,
            "queries": len(self.queries),
        }
