"""S-Inc over a query set on shared views: after each event every query's deltas add up to its M(τ), each window triple being summarised, encoded, stamped and stored once for the whole set.

The views are ``shared_views``'s, one per distinct pattern and window. Each query keeps what is its
own: a join planner over the shared views, its matched-value counts (``siblings``), its complex
FILTERs and its match count. Per event the conductor advances once, then ``incremental``'s two steps
run over the views in one global order (the views' numbers):

1. Eviction: view by view, every reader with a current match seeds its joins with the evicted rows its
   counts cannot rule out, before the rows leave the view; then they leave it, once for all readers.
2. New matches: view by view, the new rows enter the view, once, and every reader whose every view holds
   a row after the event (S-Inc's join-ahead pruning, per query) seeds its joins with them.

Exact for every query: its patterns lie on distinct views, so the global order is, restricted to one
query, a fixed order of its patterns, and S-Inc's argument (a match whose new rows lie in patterns S is
found once, in the pass of the last of S; an expiring one in the pass of the first) holds query by query.
"""

from __future__ import annotations

from collections import Counter

from common.errors import EngineError
from engines.model.filters import compile_filters
from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, split_filters
from engines.protocol import MultiDelta, check_supported
from engines.query_set import TakesOverEngine
from engines.spectra.joins import JoinPlanner, seed_partials
from engines.spectra.shared_views import SharedConductor
from engines.spectra.siblings import MatchedValues

SHARES = "one view per distinct triple pattern and window across the query set (GraphSummary once per triple)"


class SpectraQuerySet(TakesOverEngine):
    """Query id -> its planner over the set's shared views; each query planned as it registers, GraphSummary at the first event."""

    def __init__(self, first) -> None:
        self.conductor = SharedConductor(first.static, first.name)
        self.queries: list[ContinuousQuery] = []
        self.planners: list[JoinPlanner] = []
        self.matched: list[MatchedValues] = []
        self.post_filters: list = []
        self.match_count: list[int] = []
        self.started = False
        self._register(first.query)

    def add(self, query: ContinuousQuery) -> int:
        if self.started:
            raise EngineError("queries are registered before the first event")
        return self._register(query)

    def _register(self, query: ContinuousQuery) -> int:
        """The query's views in the set (made or shared), its planner over them, counts and FILTERs: its id."""
        conductor = self.conductor
        own = conductor.register(query)
        shapes = conductor.shapes[-1]
        self.planners.append(JoinPlanner(shapes, [conductor.views[v] for v in own], len(query.variables)))
        self.matched.append(MatchedValues(shapes))
        _, rest = split_filters(query)
        self.post_filters.append(compile_filters(rest, query.variables) if rest else None)
        self.queries.append(query)
        self.match_count.append(0)
        return len(self.queries) - 1

    def push(self, event: Event) -> MultiDelta:
        if not self.started:
            self.started = True
            self.conductor.finish()
        new_rows, evicted = self.conductor.advance(event)
        deltas = [NO_CHANGE] * len(self.queries)
        if not (new_rows or evicted):
            return MultiDelta(deltas)
        removed = self._retract(evicted) if evicted else {}
        added = self._extend(new_rows) if new_rows else {}
        decode = self.conductor.decode
        for query_id in removed.keys() | added.keys():
            entered, left = added.get(query_id, []), removed.get(query_id, [])
            if entered:
                self.matched[query_id].enter(entered)
            self.match_count[query_id] += len(entered) - len(left)
            deltas[query_id] = Delta(added=[decode(m) for m in entered], removed=[decode(m) for m in left])
        return MultiDelta(deltas)

    def _kept(self, query_id: int, found: list) -> list:
        post_filter = self.post_filters[query_id]
        if post_filter is None:
            return found
        decode = self.conductor.decode
        return [m for m in found if post_filter(decode(m))]

    def _retract(self, evicted: dict[int, list]) -> dict[int, list]:
        conductor = self.conductor
        removed: dict[int, list] = {}
        for view in sorted(evicted):
            rows = evicted[view]
            for query_id, index in conductor.readers[view]:
                if not self.match_count[query_id] - len(removed.get(query_id, ())):
                    continue  # no match left to lose
                matched = self.matched[query_id]
                seeds = matched.candidates(index, rows)
                if not seeds:
                    continue
                planner = self.planners[query_id]
                found = self._kept(query_id, planner.extend(planner.order(index),
                                                            seed_partials(conductor.shapes[query_id][index], seeds)))
                if found:
                    matched.leave(found)  # at once: the next view's rows are tested against the matches still standing
                    removed.setdefault(query_id, []).extend(found)
            remove = conductor.views[view].remove
            for row in rows:
                remove(row)
        return removed

    def _extend(self, new_rows: dict[int, list]) -> dict[int, list]:
        conductor = self.conductor
        views, query_views = conductor.views, conductor.query_views
        complete: dict[int, bool] = {}  # join-ahead pruning: no view of the query empty after this event
        added: dict[int, list] = {}
        for view in sorted(new_rows):
            rows = new_rows[view]
            add = views[view].add
            for row in rows:
                add(row)
            seeds = None  # the rows as partials: the same for every reader (a class's rows have one layout)
            for query_id, index in conductor.readers[view]:
                ready = complete.get(query_id)
                if ready is None:
                    ready = complete[query_id] = all(views[v].size or v in new_rows for v in query_views[query_id])
                if not ready:
                    continue
                if seeds is None:
                    seeds = seed_partials(conductor.shapes[query_id][index], rows)
                planner = self.planners[query_id]
                found = self._kept(query_id, planner.extend(planner.order(index), seeds))
                if found:
                    added.setdefault(query_id, []).extend(found)
        return added

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        """M(τ) of one query, joined afresh over the shared views from its smallest one."""
        planner = self.planners[query_id]
        if not all(view.size for view in planner.views):
            return Counter()
        start = planner.smallest()
        rows = planner.views[start].rows()
        found = self._kept(query_id, planner.extend(planner.order(start),
                                                    seed_partials(self.conductor.shapes[query_id][start], rows)))
        decode = self.conductor.decode
        return Counter({decode(m): 1 for m in set(found)})

    def stats(self) -> dict[str, int]:
        return {**self.conductor.stats(), "queries": len(self.queries), "matches": sum(self.match_count),
                "matched_values": sum(values.values() for values in self.matched)}


class SharedViewQueries:
    """For S-Inc: ``add_query`` makes the instance's query query 0 of a ``SpectraQuerySet``."""

    def add_query(self, query: ContinuousQuery) -> int:
        check_supported(type(self), query, has_static=False)
        query_set = self.__dict__.get("query_set")
        if query_set is None:
            query_set = self.query_set = SpectraQuerySet.around(self)
        return query_set.add(query)
