"""The re-evaluation baseline: exact for every capability, because it recomputes M(τ) from scratch at each instant.

The window content and its RDFS closure are maintained incrementally (that is bookkeeping, not
matching); the query is evaluated afresh after every event by ``engines.bgp`` and the delta is
the difference with the previous instant's answers. Several queries (``add_query``) share one
window store per window and entailment (``engines.baselines.reeval_shared``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.bgp import TripleIndex, evaluate_bgp
from engines.model.filters import compile_filters
from engines.model.stream import ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities
from engines.rdfs import ClosureCounter, Schema
from engines.window_state import WindowState

ALL_WINDOWS = frozenset({"sliding", "event", "unbounded"})


class ReevalEngine:
    name = "reeval"
    capabilities = Capabilities(
        windows=ALL_WINDOWS, deletions=True, entailment=frozenset({"none", "rdfs"}), static=True, filters=True,
        shares="the window store and its index, one per window and entailment, every query evaluated over it",
    )

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        self.query = query
        # kept (not copied) for the window stores of queries added later
        self.static = static if isinstance(static, (tuple, list, set, frozenset)) else tuple(static)
        self.schema = tuple(schema)
        self.window = WindowState(query.window)
        self.index = TripleIndex()
        self.accept = compile_filters(query.filters, query.variables)
        self.closure = ClosureCounter(Schema(self.schema)) if query.entailment == "rdfs" else None
        self._add(set(self.static))  # static data is in every instant's graph and never leaves
        self.current: set[Mapping] = set()
        self._first = True
        self.evaluations = 0

    def _add(self, triples: set[Triple]) -> set[Triple]:
        """Add window triples; the triples that entered the index (their closure's new triples)."""
        entered = self.closure.add(triples) if self.closure else triples
        self.index.add(entered)
        return entered

    def _remove(self, triples: set[Triple]) -> set[Triple]:
        left = self.closure.remove(triples) if self.closure else triples
        self.index.remove(left)
        return left

    def push(self, event: Event) -> Delta:
        added, removed = self.window.advance(event)
        if not (added or removed or self._first):
            return Delta()
        self._first = False  # before the first event M is empty, so static-only answers appear at the first
        self._remove(removed)
        self._add(added)
        answers = evaluate_bgp(self.query.patterns, self.query.variables, self.index, self.accept)
        self.evaluations += 1
        delta = Delta.between(self.current, answers)
        self.current = answers
        return delta

    def add_query(self, query: ContinuousQuery) -> int:
        """Register a further query: it reads this instance's window store when it has the same window and entailment."""
        from engines.baselines.reeval_shared import SharedWindowStores

        shared = self.__dict__.get("shared")
        if shared is None:
            shared = self.shared = SharedWindowStores.around(self)
        return shared.add(query)

    def answers(self) -> Counter[Mapping]:
        return Counter(self.current)

    def stats(self) -> dict[str, int]:
        return {
            "window_triples": len(self.window),
            "indexed_triples": len(self.index),
            "answers": len(self.current),
            "evaluations": self.evaluations,
        }
