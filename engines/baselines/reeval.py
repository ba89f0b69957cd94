"""The re-evaluation baseline: exact for every capability, because it recomputes M(τ) from scratch at each instant.

The window content and its RDFS closure are maintained incrementally (that is bookkeeping, not
matching); the query is evaluated afresh after every event by ``engines.bgp`` and the delta is
the difference with the previous instant's answers.
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
        windows=ALL_WINDOWS, deletions=True, entailment=frozenset({"none", "rdfs"}), static=True, filters=True
    )

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        self.query = query
        self.window = WindowState(query.window)
        self.index = TripleIndex()
        self.accept = compile_filters(query.filters, query.variables)
        self.closure = ClosureCounter(Schema(schema)) if query.entailment == "rdfs" else None
        self._add(set(static))  # static data is in every instant's graph and never leaves
        self.current: set[Mapping] = set()
        self._first = True
        self.evaluations = 0

    def _add(self, triples: set[Triple]) -> None:
        self.index.add(self.closure.add(triples) if self.closure else triples)

    def _remove(self, triples: set[Triple]) -> None:
        self.index.remove(self.closure.remove(triples) if self.closure else triples)

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

    def answers(self) -> Counter[Mapping]:
        return Counter(self.current)

    def stats(self) -> dict[str, int]:
        return {
            "window_triples": len(self.window),
            "indexed_triples": len(self.index),
            "answers": len(self.current),
            "evaluations": self.evaluations,
        }
