"""The re-evaluation baseline: exact for every capability, because it recomputes M(τ) from scratch at each instant.

The window content and its RDFS closure are maintained incrementally (that is bookkeeping, not
matching); the query is evaluated afresh after every event by ``engines.bgp`` and the delta is
the difference with the previous instant's answers. A query over named windows keeps one indexed
graph per window (each closed on its own) and one for the static graph, and matches each pattern
against its own (DESIGN.md section 2, Several streams). Several queries (``add_query``) share one window
store per window and entailment, or for queries over named windows per stream, window and entailment
(``engines.baselines.reeval_shared``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.bgp import TripleIndex, evaluate_bgp
from engines.model.filters import compile_filters
from engines.model.stream import ContinuousQuery, Delta, Event, Mapping, Triple
from engines.named_windows import NamedWindowsState
from engines.protocol import Capabilities
from engines.rdfs import ClosureCounter, Schema
from engines.window_state import WindowState

ALL_WINDOWS = frozenset({"sliding", "event", "unbounded"})
# no limit of its design: the number of named windows a query may have is bounded only to say something testable
MANY_STREAMS = 64


class _Graph:
    """An indexed graph fed by one window, with its RDFS closure when the query asks for one."""

    def __init__(self, schema: Schema | None) -> None:
        self.index = TripleIndex()
        self.closure = ClosureCounter(schema) if schema is not None else None

    def change(self, added: set[Triple], removed: set[Triple]) -> None:
        closure = self.closure
        self.index.remove(closure.remove(removed) if closure else removed)
        self.index.add(closure.add(added) if closure else added)


class ReevalEngine:
    name = "reeval"
    capabilities = Capabilities(
        windows=ALL_WINDOWS, deletions=True, entailment=frozenset({"none", "rdfs"}), static=True, filters=True,
        streams=MANY_STREAMS, profiles=frozenset({"[o,c)"}),
        shares="the window store and its index, one per window (per stream and window for named windows) and "
        "entailment, every query evaluated over it",
    )

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        self.query = query
        # kept (not copied) for the window stores of queries added later
        self.static = static if isinstance(static, (tuple, list, set, frozenset)) else tuple(static)
        self.schema = tuple(schema)
        self.accept = compile_filters(query.filters, query.variables)
        closed_with = Schema(self.schema) if query.entailment == "rdfs" else None
        static_graph = _Graph(closed_with)
        static_graph.change(set(self.static), set())  # static data is in every instant's graph and never leaves
        if query.named_windows:
            self.window = NamedWindowsState(query.named_windows)
            self.graphs = [_Graph(closed_with) for _ in query.named_windows]
            self.pattern_indexes = [static_graph.index if k is None else self.graphs[k].index for k in query.pattern_windows]
        else:  # one window: its graph and the static graph are one
            self.window = WindowState(query.window)
            self.graphs = [static_graph]
            self.pattern_indexes = None
        self.index = self.graphs[0].index
        self.closure = self.graphs[0].closure  # one window: the store that queries added later share
        self.current: set[Mapping] = set()
        self._first = True
        self.evaluations = 0

    def push(self, event: Event) -> Delta:
        changes = self.window.advance(event) if self.pattern_indexes is not None else [self.window.advance(event)]
        if not (self._first or any(added or removed for added, removed in changes)):
            return Delta()
        self._first = False  # before the first event M is empty, so static-only answers appear at the first
        for graph, (added, removed) in zip(self.graphs, changes):
            graph.change(added, removed)
        answers = evaluate_bgp(self.query.patterns, self.query.variables, self.index, self.accept, self.pattern_indexes)
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
            "indexed_triples": sum(len(graph.index) for graph in self.graphs),
            "answers": len(self.current),
            "evaluations": self.evaluations,
        }
