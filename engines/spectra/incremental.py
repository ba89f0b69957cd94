"""S-Inc: the answers are kept equal to M(τ) by joining only what an event adds and invalidating only what eviction touches.

New matches (QueryProc, Alg. 3, and IncQueryProc, Alg. 4). The event's new rows are added to the
views one pattern at a time; right after pattern j's rows are added, they seed a join with the
other views. A match whose new rows lie in patterns S is found exactly once, in the pass of the
pattern of S processed last: earlier passes cannot see that pattern's new row, later passes do
not seed from S. Joining
the event's own partial matches with the window's views this way is IncQueryProc; when the
event alone completes a match it is QueryProc; one code path does both.

Expired matches (``refresh``). Every match is indexed under each of its rows (the paper's sibling
lists: a match is an ordinal number and its rows are siblings of each other). When a row
leaves, exactly the matches filed under it are invalidated and unfiled from their other
rows; nothing is re-evaluated. A full mapping determines its row in every pattern, so this
index is exact under set semantics.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, check_supported
from engines.spectra.conductor import QueryConductor, reject_options
from engines.spectra.joins import seed_partials
from engines.spectra.summary import row_getter
from engines.spectra.views import size_of

SPECTRA_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "event"}),
    deletions=False,
    entailment=frozenset({"none"}),
    static=True,
    filters=True,
    output="delta",
)


class SpectraEngine:
    """SPECTRA S-Inc: incremental matching over sliding and event windows."""

    name: ClassVar[str] = "spectra"
    capabilities: ClassVar[Capabilities] = SPECTRA_CAPABILITIES

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        reject_options(self.name, options)
        check_supported(type(self), query, has_static=False)
        self.query = query
        self.conductor = QueryConductor(query, static, self.name)
        shapes = self.conductor.shapes
        self.matches: set[tuple[int, ...]] = set()
        # siblings[j][row]: the matches whose row in pattern j is ``row``.
        self.siblings: list[dict] = [{} for _ in shapes]
        self.row_of_match = [row_getter(shape.row_variables) for shape in shapes]
        # for a row leaving pattern j: the other patterns to unfile its matches from
        self._other_rows = [
            [(other, self.row_of_match[other]) for other in range(len(shapes)) if other != j] for j in range(len(shapes))
        ]

    def push(self, event: Event) -> Delta:
        new_rows, evicted = self.conductor.advance(event)
        if not (new_rows or evicted):
            return NO_CHANGE
        removed = self._invalidate(evicted) if evicted else []
        added = self._extend(new_rows) if new_rows else []
        if not (added or removed):
            return NO_CHANGE
        decode = self.conductor.decode
        return Delta(added=[decode(m) for m in added], removed=[decode(m) for m in removed])

    def _invalidate(self, evicted: list) -> list[tuple[int, ...]]:
        removed = []
        siblings, matches, others = self.siblings, self.matches, self._other_rows
        for j, row in evicted:
            affected = siblings[j].pop(row, None)
            if not affected:
                continue
            for match in affected:
                matches.remove(match)
                removed.append(match)
                for other, row_of in others[j]:
                    index = siblings[other]
                    key = row_of(match)
                    filed = index[key]
                    filed.discard(match)
                    if not filed:
                        del index[key]
        return removed

    def _extend(self, new_rows: dict[int, list]) -> list[tuple[int, ...]]:
        conductor = self.conductor
        views, planner, shapes = conductor.views, conductor.planner, conductor.shapes
        added = []
        # join-ahead pruning: a view still empty after this event means no full match at all
        complete = all(map(size_of, views)) or all(view.size or j in new_rows for j, view in enumerate(views))
        for j, rows in new_rows.items():
            view = views[j]
            for row in rows:
                view.add(row)
            if not complete:
                continue
            found = planner.extend(planner.order(j), seed_partials(shapes[j], rows))
            if conductor.post_filter is not None:
                found = [m for m in found if conductor.keeps(m)]
            if found:
                self._file(found)
                added.extend(found)
        return added

    def _file(self, found: list[tuple[int, ...]]) -> None:
        self.matches.update(found)
        for index, row_of in zip(self.siblings, self.row_of_match):
            for match in found:
                key = row_of(match)
                filed = index.get(key)
                if filed is None:
                    index[key] = {match}
                else:
                    filed.add(match)

    def answers(self) -> Counter[Mapping]:
        decode = self.conductor.decode
        return Counter({decode(m): 1 for m in self.matches})

    def stats(self) -> dict[str, int]:
        stats = self.conductor.stats()
        stats["matches"] = len(self.matches)
        stats["sibling_keys"] = sum(len(index) for index in self.siblings)
        stats["sibling_entries"] = len(self.matches) * len(self.siblings)
        return stats
