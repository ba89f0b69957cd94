"""S-Inc: the answers are kept equal to M(τ) by joining only what an event adds and invalidating only what eviction touches.

New matches (QueryProc, Alg. 3, and IncQueryProc, Alg. 4). The event's new rows are added to the
views one pattern at a time; right after pattern j's rows are added, they seed a join with the
other views. A match whose new rows lie in patterns S is found exactly once, in the pass of the
pattern of S processed last: earlier passes cannot see that pattern's new row, later passes do
not seed from S. Joining
the event's own partial matches with the window's views this way is IncQueryProc; when the
event alone completes a match it is QueryProc; one code path does both.

Expired matches (``refresh``, Alg. 4). The paper finds the matches an evicted triple invalidates
by following its sibling relationships: siblings are the rows with the same values for the join
attributes, which is exactly how the views' multimaps file rows. So the evicted rows of pattern j
seed the same join as new rows do, through the multimaps, before they are removed from view j: what
it finds are exactly the matches that hold one of them, and nothing else is looked at (the window
is not re-evaluated). A match holding evicted rows of several patterns is found once, in the pass
of the first of them, since its row leaves view j right after that pass. Rows that are in no
current match (``siblings.MatchedValues``: the paper's ``sibling(q) = ∅``) seed nothing. No match
is stored: the state is the window's rows, once, and a count per matched anchor value (a stored
match, filed under each of its rows, cost more than the triples it joins).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, check_supported
from engines.spectra.conductor import QueryConductor, reject_options
from engines.spectra.joins import seed_partials
from engines.spectra.query_set import SHARES, SharedViewQueries
from engines.spectra.siblings import MatchedValues
from engines.spectra.views import size_of

SPECTRA_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "event"}),
    deletions=False,
    entailment=frozenset({"none"}),
    static=True,
    filters=True,
    output="delta",
    shares=SHARES,
    # every [o,c) profile: engines.profiled drives the exact views with shifted times and clock events
    profiles=frozenset({"[o,c)"}),
)


class SpectraEngine(SharedViewQueries):
    """SPECTRA S-Inc: incremental matching over sliding and event windows."""

    name: ClassVar[str] = "spectra"
    capabilities: ClassVar[Capabilities] = SPECTRA_CAPABILITIES

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        reject_options(self.name, options)
        check_supported(type(self), query, has_static=False)
        self.query = query
        self.static = tuple(static)  # for a query set's shared conductor (``query_set``)
        self.conductor = QueryConductor(query, self.static, self.name)
        self.match_count = 0  # |M(τ)|, for stats: the matches themselves are not kept
        self.matched = MatchedValues(self.conductor.shapes)

    def push(self, event: Event) -> Delta:
        new_rows, evicted = self.conductor.advance(event)
        if not (new_rows or evicted):
            return NO_CHANGE
        removed = self._retract(evicted) if evicted else []
        added = self._extend(new_rows) if new_rows else []
        if not (added or removed):
            return NO_CHANGE
        self.match_count += len(added) - len(removed)
        if added:
            self.matched.enter(added)
        decode = self.conductor.decode
        return Delta(added=[decode(m) for m in added], removed=[decode(m) for m in removed])

    def _retract(self, evicted: dict[int, list]) -> list[tuple[int, ...]]:
        conductor = self.conductor
        views, planner, shapes = conductor.views, conductor.planner, conductor.shapes
        removed = []
        matched = self.matched
        matching = self.match_count > 0  # no match, nothing to lose
        for j, rows in evicted.items():
            seeds = matched.candidates(j, rows) if matching else None
            if seeds:
                found = planner.extend(planner.order(j), seed_partials(shapes[j], seeds))
                if conductor.post_filter is not None:
                    found = [m for m in found if conductor.keeps(m)]
                if found:
                    # counted out at once: the next pattern's rows are tested against the matches still standing
                    matched.leave(found)
                    removed.extend(found)
            remove = views[j].remove
            for row in rows:
                remove(row)
        return removed

    def _extend(self, new_rows: dict[int, list]) -> list[tuple[int, ...]]:
        conductor = self.conductor
        views, planner, shapes = conductor.views, conductor.planner, conductor.shapes
        added = []
        # join-ahead pruning: a view still empty after this event means no full match at all
        complete = all(map(size_of, views)) or all(view.size or j in new_rows for j, view in enumerate(views))
        for j, rows in new_rows.items():
            add = views[j].add
            for row in rows:
                add(row)
            if not complete:
                continue
            found = planner.extend(planner.order(j), seed_partials(shapes[j], rows))
            if conductor.post_filter is not None:
                found = [m for m in found if conductor.keeps(m)]
            added.extend(found)
        return added

    def answers(self) -> Counter[Mapping]:
        """M(τ), joined afresh over the views: S-Inc keeps no matches, only their count."""
        decode = self.conductor.decode
        return Counter({decode(m): 1 for m in self.conductor.evaluate()})

    def stats(self) -> dict[str, int]:
        stats = self.conductor.stats()
        stats["matches"] = self.match_count
        stats["matched_values"] = self.matched.values()
        return stats
