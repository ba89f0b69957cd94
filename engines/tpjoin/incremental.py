"""I-CGPM (Algorithm 3): after each event the deltas reported so far add up to M(τ) over the window, kept by joining only the new rows and by retracting exactly the matches of triples that leave.

Per event:

1. Algorithm 1 partitions and encodes the event's updates; only the kept triples enter the window
   (``EncodedWindow`` over encoded triples: a triple's presence depends on its own occurrences only,
   so pruning first changes no presence).
2. Expiry and deletion: the triples that leave seed the automaton over the views before they leave
   them (``_retract``: the semi-naive passes of step 3 run backwards), which finds each match of f
   that uses one of them exactly once; those leave f and are reported removed; then the dictionary
   releases the triples' terms.
3. New matches: every match that is new at this instant uses a triple added now (a match of
   triples all present before was already in f). Pattern by pattern (in index order), the new rows
   are added to the view and seed the automaton over the other views: in pass j the views of
   patterns before j already hold their new rows and those after j do not, so a match whose new
   rows lie in patterns S is found once, in the pass of max(S).
   ``tpjoin-lazy`` (I-CGPM-L) runs the passes only when every view is non-empty after the event
   (lines 1-6: ``|A| = |Tp|``); otherwise no match can exist and the rows are only stored. The test
   costs O(views the event changed), not O(patterns): ``empty_views`` names the empty views.
   ``tpjoin-eager`` (I-CGPM-NL) runs them on every event and relies on the automaton's early
   termination at the first empty join.

f itself is not stored, only its size: steps 2 and 3 find its matches from the triples that change,
and ``answers()`` runs the automaton over the whole views. The state is then the views, the window's
arrivals and the dictionary: integers, a few per window triple (the paper's Table II windows of 25M
triples need a compact layout; issue 22 and docs/tpjoin-results.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from common.errors import StreamError
from engines.model.stream import DELETE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, check_supported
from engines.tpjoin.common import CompiledQuery, reject_options
from engines.tpjoin.named import NamedWindows
from engines.tpjoin.shared_query_set import SHARES, SharedViewPartitioning
from engines.tpjoin.window import EncodedWindow

INCREMENTAL_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "unbounded", "event"}),
    deletions=True,
    entailment=frozenset({"none"}),
    static=True,
    filters=True,
    output="delta",
    shares=SHARES,
    streams=64,  # named windows: per-window routing (engines.tpjoin.named); no limit of its design
    # every [o,c) profile: engines.profiled drives the exact views with shifted times and clock events
    profiles=frozenset({"[o,c)"}),
)


class TPJoinIncrementalEngine(SharedViewPartitioning):
    """I-CGPM over sliding, tumbling, event and unbounded windows; ``lazy`` decides Algorithm 3's lines 1-6."""

    name: ClassVar[str] = "tpjoin-lazy"
    capabilities: ClassVar[Capabilities] = INCREMENTAL_CAPABILITIES
    lazy: ClassVar[bool] = True

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        reject_options(self.name, options)
        check_supported(type(self), query)
        self.query = query
        self.compiled = compiled = CompiledQuery(query, static)
        self.dictionary = compiled.dictionary
        self.window = EncodedWindow(query.window, compiled.views)
        self.static: set[tuple[int, int, int]] = set()
        self._pending_static: dict[int, list] = {}  # static rows enter the views (and seed joins) at the first event
        self.named = NamedWindows(query, compiled.views) if query.named_windows else None
        for triple in compiled.static:
            routed = compiled.route(*triple)
            if routed is not None and routed[0] not in self.static:
                encoded, routes = routed
                if self.named is not None:  # static rows enter only the patterns outside every WINDOW block
                    routes = self.named.own(None, routes)
                self.static.add(encoded)
                for j in routes:
                    self._pending_static.setdefault(j, []).append(encoded)
        self.match_count = 0  # |f|: f itself is not stored (its matches are found again when they leave)
        self.seed_of = [compiled.seed_getter(j) for j in range(len(compiled.shapes))]
        self.joins = 0
        self.retractions = 0
        self._first = True
        # lazy's precondition in O(changed views): the indexes of the views that hold no row now. Invariant:
        # j is in it exactly when len(views[j]) == 0; views change only in _retract (rows leave) and _extend
        # (rows enter), which keep it so. All views start empty (static rows enter at the first event).
        self.empty_views: set[int] = set(range(len(compiled.shapes)))
        if self.named is not None:
            self.window = self.named
            self.push = self._push_named  # an instance attribute: the one-window push stays as it was

    def push(self, event: Event) -> Delta:
        # Hot path (Table II's cost is here, not in the joins: profile with benchmarks/diagnostics/tpjoin_phases.py).
        # Invariants it relies on: a triple pass 1 or 2 drops is never encoded (``Partitioner.route``), so
        # the dictionary only holds kept triples' terms; each kept triple is routed once per event and its
        # routes are a shared, memoised tuple; the views hold exactly the window's kept triples.
        kind = self.query.window.kind
        route, predicates, static = self.compiled.route, self.compiled.predicates, self.static
        kept = []
        for op, s, p, o in event.updates:
            if op == DELETE and kind != "unbounded":
                raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, not {kind}")
            if predicates is not None and p not in predicates:
                continue  # pass 1 of Algorithm 1, before anything is encoded
            routed = route(s, p, o)
            if routed is None:
                continue
            if routed[0] in static:
                continue  # in every instant's graph already; the stream cannot add or remove it
            kept.append((op, *routed))
        added, removed = self.window.advance(event.index, event.ts, kept)
        self.dictionary.hold_all(added)  # before any release: a term an added and a removed triple share stays
        decode = self._decoder()
        delta = Delta()
        if removed:
            delta.removed = [decode(m) for m in self._retract(self._rows_by_pattern(removed))]
            release = self.dictionary.release
            for triple in removed:
                release(triple)
        new_rows = self._pending_static if self._first else {}
        self._first = False
        if added:
            if new_rows is self._pending_static:
                new_rows = {j: list(rows) for j, rows in new_rows.items()}
            for triple, routes in added.items():
                for j in routes:
                    rows = new_rows.get(j)
                    if rows is None:
                        new_rows[j] = [triple]
                    else:
                        rows.append(triple)
        if new_rows:
            delta.added = [decode(m) for m in self._extend(new_rows)]
        self.match_count += len(delta.added) - len(delta.removed)
        self.dictionary.sweep()
        return delta

    def _push_named(self, event: Event) -> Delta:
        """``push`` over named windows (``engines.tpjoin.named``): the same retraction and passes, rows routed per window."""
        compiled = self.compiled
        added_rows, added, removed_rows, removed = self.named.advance(event, compiled.route, compiled.predicates)
        self.dictionary.hold_all(added)
        decode = self._decoder()
        delta = Delta()
        if removed:
            delta.removed = [decode(m) for m in self._retract(removed_rows)]
            release = self.dictionary.release
            for triple in removed:
                release(triple)
        if self._first:
            for j, rows in self._pending_static.items():
                added_rows.setdefault(j, []).extend(rows)
        self._first = False
        if added_rows:
            delta.added = [decode(m) for m in self._extend(added_rows)]
        self.match_count += len(delta.added) - len(delta.removed)
        self.dictionary.sweep()
        return delta

    def _decoder(self):
        terms = self.dictionary.terms
        return lambda m: tuple([terms[i] for i in m])

    def _rows_by_pattern(self, triples: dict) -> dict[int, list]:
        rows: dict[int, list] = {}
        for triple, routes in triples.items():
            for j in routes:
                held = rows.get(j)
                if held is None:
                    rows[j] = [triple]
                else:
                    held.append(triple)
        return rows

    def _retract(self, rows_by_pattern: dict[int, list]) -> list[tuple[int, ...]]:
        """Triples leave their views, and the matches that use them leave f (the paper defines no expiry).

        The semi-naive passes of ``_extend`` run backwards in time: pattern by pattern (in index order)
        the leaving rows seed the automaton over the views and only then leave their own view, so in
        pass j the views of patterns before j have lost their leaving rows and those from j on still
        hold them. A match of f whose leaving rows lie in patterns S is found once, in the pass of
        min(S); a match with no leaving row is found in no pass and stays. With lazy, an empty view
        before the event means f is empty, and once every match of f is found no pass can find more: then the
        rows just leave.
        """
        compiled = self.compiled
        views = compiled.views
        empty_views = self.empty_views if self.lazy else None
        joining = not (empty_views or self.match_count == 0)
        gone: list[tuple[int, ...]] = []
        for j, rows in sorted(rows_by_pattern.items()):
            if joining:
                automaton = compiled.automaton(seed=j)
                seed_of = self.seed_of[j]
                merged = automaton.run([seed_of(triple) for triple in rows])
                self.retractions += 1
                if merged:
                    gone.extend(automaton.mappings(merged))
                    joining = len(gone) < self.match_count  # every match of f found: no later pass can find one
            view = views[j]
            for triple in rows:
                view.remove(triple)
            if empty_views is not None and not view.size:
                empty_views.add(j)
        return gone

    def _extend(self, new_rows: dict[int, list]) -> list[tuple[int, ...]]:
        compiled = self.compiled
        views = compiled.views
        empty_views = self.empty_views
        if self.lazy and empty_views:
            waiting = not empty_views.issubset(new_rows)  # some view is empty after this event: no match can exist
            empty_views.difference_update(new_rows)
            if waiting:
                for j, rows in new_rows.items():  # the rows wait in their views
                    for triple in rows:
                        views[j].add(triple)
                return []
        found: list[tuple[int, ...]] = []
        for j in sorted(new_rows):
            rows = new_rows[j]
            view = views[j]
            for triple in rows:
                view.add(triple)
            automaton = compiled.automaton(seed=j)
            seed_of = self.seed_of[j]
            merged = automaton.run([seed_of(triple) for triple in rows])
            self.joins += 1
            if merged:
                found.extend(automaton.mappings(merged))
        return found

    def answers(self) -> Counter[Mapping]:
        """M(τ): the automaton over the whole views (f is not stored)."""
        views = self.compiled.views
        if not all(view.size for view in views):
            return Counter()
        automaton = self.compiled.automaton()
        decode = self._decoder()
        return Counter({decode(m): 1 for m in automaton.mappings(automaton.run([()]))})

    def stats(self) -> dict[str, int]:
        stats = self.compiled.stats()
        stats["window_triples"] = len(self.window)
        stats["matches"] = self.match_count
        stats["joins"] = self.joins
        stats["retractions"] = self.retractions
        return stats


class TPJoinEagerEngine(TPJoinIncrementalEngine):
    """I-CGPM-NL: the same passes on every event, without the lazy precondition."""

    name: ClassVar[str] = "tpjoin-eager"
    lazy: ClassVar[bool] = False
