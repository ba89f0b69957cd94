"""E-CGPM (Problem 1): after each event the answers are exactly the matches of the event graph (with the static graph), found by one automaton run over its views.

Per event: Algorithm 1 partitions and encodes the event into the views (static rows stay in them),
the automaton of the views' SortAndCombine order runs only when every view is non-empty
(Algorithm 2's precondition; an empty view means no match), the matches are decoded, and then
the event's rows leave the views and the adaptive dictionary is cleared. The delta is the set
difference with the previous event's matches. ``tpjoin-event-nopart`` (E-CGPM*) skips Algorithm 1
(partitioning and view materialisation): the event is kept unindexed and every join scans all of
it (``wholegraph``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import ClassVar

from common.errors import StreamError
from engines.model.stream import DELETE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, check_supported
from engines.tpjoin.common import CompiledQuery, reject_options
from engines.tpjoin.query_set import SHARES, QuerySetPartitioning

EVENT_CAPABILITIES = Capabilities(
    windows=frozenset({"event"}),
    deletions=False,
    entailment=frozenset({"none"}),
    static=True,
    filters=True,
    output="delta",
    shares=SHARES,
)


class TPJoinEventEngine(QuerySetPartitioning):
    """E-CGPM with query-based partitioned views."""

    name: ClassVar[str] = "tpjoin-event"
    capabilities: ClassVar[Capabilities] = EVENT_CAPABILITIES
    partitioned: ClassVar[bool] = True

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        reject_options(self.name, options)
        check_supported(type(self), query)
        self.compiled = CompiledQuery(query, static, partitioned=self.partitioned)
        compiled = self.compiled
        for triple in compiled.static:  # background knowledge: rows that every event joins with
            routed = compiled.route(*triple)
            if routed is not None:
                encoded, routes = routed
                for j in routes:
                    compiled.views[j].add(encoded)
        self.has_static_rows = any(compiled.views)
        self.current: set[Mapping] = set()
        self.last_ts: int | None = None
        self.runs = 0

    def push(self, event: Event) -> Delta:
        if self.last_ts is not None and event.ts < self.last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self.last_ts}")
        self.last_ts = event.ts
        compiled = self.compiled
        views, route, predicates = compiled.views, compiled.route, compiled.predicates
        keep_rows = self.has_static_rows
        entered: list[tuple[object, tuple[int, int, int]]] = []  # the event's rows, to leave after matching
        for op, s, p, o in event.updates:
            if op == DELETE:
                raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, not event")
            if predicates is not None and p not in predicates:
                continue  # pass 1 of Algorithm 1, before anything is encoded
            routed = route(s, p, o)
            if routed is None:
                continue
            triple, routes = routed
            for j in routes:
                view = views[j]
                if view.add(triple) and keep_rows:
                    entered.append((view, triple))
        answers: set[Mapping] = set()
        if all(views):
            automaton = compiled.automaton()
            merged = automaton.run([()])
            self.runs += 1
            if merged:
                terms = compiled.dictionary.terms
                answers = {tuple([terms[i] for i in m]) for m in automaton.mappings(merged)}
        if keep_rows:
            for view, triple in entered:
                view.remove(triple)
        else:
            for view in views:  # the views held the event alone: clear them whole
                view.clear()
        compiled.dictionary.clear_adaptive()
        if not answers and not self.current:
            return Delta()
        delta = Delta.between(self.current, answers)
        self.current = answers
        return delta

    def answers(self) -> Counter[Mapping]:
        return Counter(self.current)

    def stats(self) -> dict[str, int]:
        stats = self.compiled.stats()
        stats["answers"] = len(self.current)
        stats["automaton_runs"] = self.runs
        return stats


class TPJoinEventNoPartitionEngine(TPJoinEventEngine):
    """E-CGPM*: the same automaton with every pattern joining over the whole event (no Algorithm 1)."""

    name: ClassVar[str] = "tpjoin-event-nopart"
    capabilities: ClassVar[Capabilities] = replace(EVENT_CAPABILITIES, shares="")  # no partitioning to share
    partitioned: ClassVar[bool] = False
