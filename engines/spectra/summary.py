"""GraphSummary (Alg. 2): a triple is kept for a pattern exactly when it can instantiate that pattern.

For each triple pattern the summary keeps the triples whose predicate, constants, repeated
variables (``?x :p ?x`` needs s = o) and atomic FILTERs (one variable against constants) agree
with the pattern; everything else is pruned before it is dictionary-encoded. A pattern with a
variable predicate keeps every triple that passes its other tests.

Pruning by an atomic FILTER is sound because the query's FILTERs are a conjunction over full
mappings of the basic graph pattern: a triple whose value for ``?x`` fails a FILTER on ``?x`` alone
can take part in no answer.

A kept triple becomes one *row* per pattern it matches: the values of the pattern's distinct
variables, in order of first occurrence. Arity 0 rows are ``()``, arity 1 rows are the bare value,
wider rows are tuples. Because the pattern's constants are fixed, a row determines its triple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from engines.model.filters import term_test
from engines.model.stream import ContinuousQuery, Expr, TriplePattern, is_variable

ValueTest = Callable[[str], bool]


def row_getter(positions: Sequence[int]) -> Callable:
    """Picks a row out of a sequence: ``()`` for none, the bare value for one, a tuple for more."""
    if not positions:
        return lambda _sequence: ()
    return itemgetter(*positions)


@dataclass(frozen=True)
class PatternShape:
    """What GraphSummary needs to know about one triple pattern."""

    index: int
    pattern: TriplePattern
    predicate: str | None  # the constant predicate, or None when the predicate is a variable
    constants: tuple[tuple[int, str], ...]  # (triple position, term) for constant subject/object
    equalities: tuple[tuple[int, int], ...]  # triple positions that hold the same variable
    row_positions: tuple[int, ...]  # one triple position per distinct variable, first occurrence
    row_variables: tuple[int, ...]  # index of each of those variables in query.variables
    value_tests: tuple[tuple[int, ValueTest], ...]  # atomic FILTERs, by triple position

    @property
    def arity(self) -> int:
        return len(self.row_positions)

    def accepts(self, triple: Sequence[str]) -> bool:
        for position, term in self.constants:
            if triple[position] != term:
                return False
        for first, second in self.equalities:
            if triple[first] != triple[second]:
                return False
        for position, test in self.value_tests:
            if not test(triple[position]):
                return False
        return True

    @property
    def trivial(self) -> bool:
        """True when the predicate alone decides membership."""
        return not (self.constants or self.equalities or self.value_tests)


def shape_patterns(query: ContinuousQuery, atomic: dict[str, list[Expr]]) -> tuple[PatternShape, ...]:
    tests: dict[str, ValueTest] = {}
    if atomic:
        for name, expressions in atomic.items():
            tests[name] = term_test(expressions, name)
    variable_index = {name: i for i, name in enumerate(query.variables)}
    shapes = []
    for index, pattern in enumerate(query.patterns):
        first_position: dict[str, int] = {}
        constants, equalities, value_tests = [], [], []
        for position, item in enumerate(pattern):
            if not is_variable(item):
                if position != 1:
                    constants.append((position, item))
            elif item in first_position:
                equalities.append((first_position[item], position))
            else:
                first_position[item] = position
                if item in tests:
                    value_tests.append((position, tests[item]))
        predicate = None if is_variable(pattern[1]) else pattern[1]
        shapes.append(
            PatternShape(
                index=index,
                pattern=pattern,
                predicate=predicate,
                constants=tuple(constants),
                equalities=tuple(equalities),
                row_positions=tuple(first_position.values()),
                row_variables=tuple(variable_index[name] for name in first_position),
                value_tests=tuple(value_tests),
            )
        )
    return tuple(shapes)


class GraphSummary:
    """Routes a triple to the patterns it can instantiate, by predicate first (Alg. 2, lines 5-6).

    Per predicate, the patterns that need no test beyond it, and those whose only other test is a
    constant object (``?x rdf:type :C``, the commonest kind), are answered by one or two dict
    lookups; only the rest are tested one by one.
    """

    def __init__(self, shapes: Sequence[PatternShape]) -> None:
        self.shapes = tuple(shapes)
        any_predicate = [s for s in shapes if s.predicate is None]
        by_predicate: dict[str, list[PatternShape]] = {}
        for shape in shapes:
            if shape.predicate is not None:
                by_predicate.setdefault(shape.predicate, []).append(shape)
        self._interned: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._routers = {p: self._router(ss + any_predicate) for p, ss in by_predicate.items()}
        self._any_router = self._router(any_predicate)
        self._has_any = bool(any_predicate)

    def _intern(self, indices) -> tuple[int, ...]:
        indices = tuple(sorted(indices))
        return self._interned.setdefault(indices, indices)

    def _router(self, shapes: list[PatternShape]):
        """(indices always taken, {constant object: indices taken with it} or None, shapes to test)."""
        always = [s.index for s in shapes if s.trivial]
        keyed = [s for s in shapes if [c[0] for c in s.constants] == [2] and not s.equalities and not s.value_tests]
        tested = tuple(s for s in shapes if not s.trivial and s not in keyed)
        by_object = None
        if keyed:
            grouped: dict[str, list[int]] = {}
            for shape in keyed:
                grouped.setdefault(shape.constants[0][1], list(always)).append(shape.index)
            by_object = {o: self._intern(indices) for o, indices in grouped.items()}
        return self._intern(always), by_object, tested

    def route(self, s: str, p: str, o: str) -> tuple[int, ...]:
        """Indices of the patterns the triple (s, p, o) can instantiate, sorted; empty when it is pruned."""
        router = self._routers.get(p)
        if router is None:
            if not self._has_any:
                return ()
            router = self._any_router
        always, by_object, tested = router
        routes = always if by_object is None else by_object.get(o, always)
        if tested:
            triple = (s, p, o)
            accepted = [shape.index for shape in tested if shape.accepts(triple)]
            if accepted:
                return self._intern(routes + tuple(accepted))
        return routes

    @property
    def predicates(self) -> frozenset[str] | None:
        """The predicates that can be kept, or None when a variable-predicate pattern keeps any."""
        return None if self._has_any else frozenset(self._routers)
