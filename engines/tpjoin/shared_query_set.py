"""I-CGPM over a query set on shared views: after each event every query's deltas add up to its M(τ), each window triple being routed, encoded and stored once for the whole set.

The views are ``shared_views``'s, one per distinct pattern and window. Each query keeps what is its own:
its compiled automata (reading the shared views), the size of its f, and its counters. Per event,
Algorithm 1 runs once per triple against the set's pattern classes, each window advances once, and then
``incremental``'s two steps run over the views in one global order (the views' numbers):

1. Retraction: view by view, every query reading the view whose f is not empty seeds its automaton with
   the leaving rows, before they leave the view; then they leave it, once for all readers.
2. New matches: view by view, the new rows enter the view, once, and every reader that can match seeds
   its automaton with them.

Exact for every query: its patterns lie on distinct views (a repeated class reads a copy), so the global
order is, restricted to one query, a fixed order of its patterns, and the semi-naive argument of
``incremental`` (a match whose changed rows lie in patterns S is found once, in the pass of the last, or
for retraction the first, of S in that order) holds query by query. Lazy (I-CGPM-L, Algorithm 3 lines
1-6) is decided per query: a query joins at an event only when every view it reads holds a row after
the event; otherwise its rows are only stored, as in one instance, but stored once for the whole set.
A view is filled whatever its readers' state: the dormant queries of the former router (no views at all
while their most selective pattern had nothing in the window) are subsumed, since the views they would
fill are the ones shared with the awake queries, and the lazy test costs a look at its views' sizes.

Queries over named windows share a set with each other only (``shared_views``: a view's window is then a
stream and window, or the static graph); the set's instants are the merge of every stream its queries read.
"""

from __future__ import annotations

from collections import Counter

from common.errors import EngineError, StreamError
from engines.model.stream import DELETE, NO_CHANGE, ContinuousQuery, Delta, Event, Mapping
from engines.named_windows import check_merged_event
from engines.protocol import MultiDelta, check_supported
from engines.query_set import TakesOverEngine
from engines.tpjoin.common import CompiledQuery
from engines.tpjoin.shared_views import SharedViews

SHARES = "one view per distinct triple pattern and window across the query set (Algorithm 1 once per triple)"


class SharedViewQuerySet(TakesOverEngine):
    """Query id -> its automata over the set's shared views; each query compiled as it registers, the router and windows at the first event."""

    def __init__(self, first) -> None:
        self.lazy = first.lazy
        self.shared = SharedViews(first.compiled.static)
        self.queries: list[ContinuousQuery] = []
        self.compiled: list[CompiledQuery] = []
        self.seed_of: list = []  # view -> encoded triple -> seed merged mapping (one per class: same positions)
        self.match_count: list[int] = []
        self.started = False
        self.joins = self.retractions = 0
        self.last_ts: int | None = None
        self._register(first.query)

    def __len__(self) -> int:
        return len(self.queries)

    def add(self, query: ContinuousQuery) -> int:
        if self.started:
            raise EngineError("queries are registered before the first event")
        if bool(query.named_windows) != self.shared.named:
            raise EngineError(f"query {query.name}: a query over named windows shares an engine only with queries "
                              "over named windows")
        return self._register(query)

    def _register(self, query: ContinuousQuery) -> int:
        """The query's views in the set (made or shared) and its automata over them: its id."""
        shared = self.shared
        own = shared.register(query)
        views = shared.views
        self.compiled.append(CompiledQuery(query, (), dictionary=shared.dictionary, views=[views[v] for v in own]))
        self.seed_of.extend([None] * (len(views) - len(self.seed_of)))
        for index, view in enumerate(own):
            if self.seed_of[view] is None:
                self.seed_of[view] = self.compiled[-1].seed_getter(index)
        self.queries.append(query)
        self.match_count.append(0)
        return len(self.queries) - 1

    def push(self, event: Event) -> MultiDelta:
        self._check_order(event)
        if not self.started:
            self.started = True
            self.shared.finish()
        shared = self.shared
        route, predicates = shared.route, shared.predicates
        # one window: a stream triple equal to a static one is in every instant's graph already; over named windows
        # the static rows are in the static patterns' views only, so a window's patterns still need it
        static = () if shared.named else shared.static_encoded
        kept = []
        for op, s, p, o in event.updates:
            if predicates is not None and p not in predicates:
                continue  # pass 1 of Algorithm 1, for every query at once
            routed = route(s, p, o)
            if routed is None or routed[0] in static:
                continue
            kept.append((op, *routed))
        added_rows, removed_rows, added, removed = shared.advance(event, kept)
        dictionary = shared.dictionary
        for triples in added:
            dictionary.hold_all(triples)  # before any release: a term an added and a removed triple share stays
        gone = self._retract(removed_rows) if removed_rows else {}
        for triples in removed:
            for triple in triples:
                dictionary.release(triple)
        if shared.pending_static:
            for view, rows in shared.pending_static.items():
                added_rows.setdefault(view, []).extend(rows)
            shared.pending_static = {}
        found = self._extend(added_rows) if added_rows else {}
        deltas = [NO_CHANGE] * len(self.queries)
        if gone or found:
            terms = dictionary.terms
            for query_id in gone.keys() | found.keys():
                delta = Delta(added=[tuple([terms[i] for i in m]) for m in found.get(query_id, ())],
                              removed=[tuple([terms[i] for i in m]) for m in gone.get(query_id, ())])
                self.match_count[query_id] += len(delta.added) - len(delta.removed)
                deltas[query_id] = delta
        dictionary.sweep()
        return MultiDelta(deltas)

    def _retract(self, removed_rows: dict[int, list]) -> dict[int, list]:
        """``incremental._retract`` for every reader of each view, in view order: rows seed, then leave the view once."""
        shared, compiled, match_count = self.shared, self.compiled, self.match_count
        gone: dict[int, list] = {}
        for view in sorted(removed_rows):
            rows = removed_rows[view]
            seeds = None
            for query_id, index in shared.readers[view]:
                count = match_count[query_id]
                if not count:
                    continue  # f is empty: no match to retract
                found = gone.get(query_id)
                if found is not None and len(found) >= count:
                    continue  # every match of f found: no later pass can find one
                if seeds is None:
                    seed_of = self.seed_of[view]
                    seeds = [seed_of(triple) for triple in rows]
                automaton = compiled[query_id].automaton(seed=index)
                merged = automaton.run(seeds)
                self.retractions += 1
                if merged:
                    gone.setdefault(query_id, []).extend(automaton.mappings(merged))
            remove = shared.views[view].remove
            for triple in rows:
                remove(triple)
        return gone

    def _extend(self, added_rows: dict[int, list]) -> dict[int, list]:
        """``incremental._extend`` for every reader of each view, in view order: rows enter the view once, then seed."""
        shared, compiled, views = self.shared, self.compiled, self.shared.views
        query_views, lazy = shared.query_views, self.lazy
        joining: dict[int, bool] = {}  # lazy: the query's every view holds a row after this event
        found: dict[int, list] = {}
        for view in sorted(added_rows):
            rows = added_rows[view]
            add = views[view].add
            for triple in rows:
                add(triple)
            seeds = None
            for query_id, index in shared.readers[view]:
                if lazy:
                    ready = joining.get(query_id)
                    if ready is None:
                        ready = joining[query_id] = all(
                            views[other].size or other in added_rows for other in query_views[query_id])
                    if not ready:
                        continue
                if seeds is None:
                    seed_of = self.seed_of[view]
                    seeds = [seed_of(triple) for triple in rows]
                automaton = compiled[query_id].automaton(seed=index)
                merged = automaton.run(seeds)
                self.joins += 1
                if merged:
                    found.setdefault(query_id, []).extend(automaton.mappings(merged))
        return found

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        """M(τ) of one query: its automaton over the whole shared views."""
        compiled = self.compiled[query_id]
        if not all(view.size for view in compiled.views):
            return Counter()
        automaton = compiled.automaton()
        terms = self.shared.dictionary.terms
        return Counter({tuple([terms[i] for i in m]): 1 for m in automaton.mappings(automaton.run([()]))})

    def stats(self) -> dict[str, int]:
        stats = self.shared.stats() if self.started else {}
        return {**stats, "queries": len(self.queries), "matches": sum(self.match_count), "joins": self.joins,
                "retractions": self.retractions, "automata": sum(len(c._automata) for c in self.compiled)}

    def _check_order(self, event: Event) -> None:
        """The errors one instance would raise, before anything changes."""
        if self.shared.named and not event.stream:  # the streams are listed only for the refusal's message
            check_merged_event(event, [iri for query in self.queries for iri in query.streams])
        if self.last_ts is not None and event.ts < self.last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self.last_ts}")
        self.last_ts = event.ts
        if any(update.op == DELETE for update in event.updates):
            for query in self.queries:
                if query.window.kind != "unbounded":
                    raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, "
                                      f"not {query.window.kind}")


class SharedViewPartitioning:
    """For I-CGPM engines: ``add_query`` makes the instance's query query 0 of a ``SharedViewQuerySet``."""

    def add_query(self, query: ContinuousQuery) -> int:
        check_supported(type(self), query)
        query_set = self.__dict__.get("query_set")
        if query_set is None:
            query_set = self.query_set = SharedViewQuerySet.around(self)
        return query_set.add(query)
