"""An obviously-correct reference for the delta engine's tests: current triple set, nested-loop join, filter.

``BruteForce`` applies updates with set semantics to a Python set (plus the static triples, which
never leave), and ``answers()`` tries every assignment of the patterns, in order, to the triples
of the graph, keeping the mappings whose terms agree and that pass the FILTERs.
"""

from __future__ import annotations

from engines.model.filters import compile_filters
from engines.model.stream import DELETE, ContinuousQuery, Event, Mapping, Triple, is_variable


class BruteForce:
    def __init__(self, query: ContinuousQuery, static=()) -> None:
        self.query = query
        self.static = set(static)
        self.dynamic: set[Triple] = set()
        self.accept = compile_filters(query.filters, query.variables)

    @property
    def graph(self) -> set[Triple]:
        return self.dynamic | self.static

    def push(self, event: Event) -> None:
        for update in event.updates:
            if update.op == DELETE:
                self.dynamic.discard(update.triple)
            else:
                self.dynamic.add(update.triple)

    def answers(self) -> set[Mapping]:
        graph = sorted(self.graph)
        found: set[Mapping] = set()

        def join(k: int, binding: dict[str, str]) -> None:
            if k == len(self.query.patterns):
                mapping = tuple(binding[v] for v in self.query.variables)
                if self.accept is None or self.accept(mapping):
                    found.add(mapping)
                return
            for triple in graph:
                extended = dict(binding)
                if all(_unify(position, term, extended) for position, term in zip(self.query.patterns[k], triple)):
                    join(k + 1, extended)

        join(0, {})
        return found


def _unify(position: str, term: str, binding: dict[str, str]) -> bool:
    if not is_variable(position):
        return position == term
    if binding.setdefault(position, term) != term:
        return False
    return True
