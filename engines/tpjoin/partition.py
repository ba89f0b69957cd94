"""Query-based graph partitioning (Algorithm 1): a triple enters pattern j's view exactly when it can instantiate pattern j.

Pass 1 (lines 5-8) keeps the triples whose predicate is one of the query's. Pass 2 (lines 9-14)
drops, pattern by pattern, the triples whose subject or object differs from the pattern's constant,
whose repeated variable (``?x :p ?x``) takes two values, or whose value fails an atomic FILTER (one
variable against constants). A pattern with a variable predicate takes every triple in pass 1.
Departure (speed, same result): the paper encodes in pass 1 and compares ids in pass 2; here pass 2
compares the raw terms (equal exactly when their ids are) and only the kept triples are encoded.

FILTERs are split as the paper's Definition 3.2 does: a conjunct over one variable is atomic and
pruned here (sound: the FILTERs are a conjunction over full mappings, so a triple whose value
fails a FILTER on that variable alone is in no answer); a conjunct over two or more variables is
complex and kept for the join (``automaton``). Unlike the paper's code, which compares dictionary
ids and parses integers, atomic FILTERs are evaluated with SPARQL value semantics by the shared
``engines.model.filters`` on the decoded term (``"1"^^xsd:integer = "1.0"^^xsd:decimal``, type
errors false), with the verdict cached per term.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.model.filters import term_test
from engines.model.stream import (
    ContinuousQuery,
    Expr,
    TriplePattern,
    is_variable,
    split_filters,
)


@dataclass(frozen=True)
class PatternShape:
    """One triple pattern as the partitioner and the joins see it."""

    index: int
    pattern: TriplePattern
    predicate: str | None  # None when the predicate is a variable
    constants: tuple[tuple[int, str], ...]  # (position, term) for every constant, predicate included
    equalities: tuple[tuple[int, int], ...]  # positions holding the same variable
    value_tests: tuple[tuple[int, Callable[[str], bool]], ...]  # atomic FILTERs by position

    @property
    def subject_variable(self) -> str | None:
        return self.pattern[0] if is_variable(self.pattern[0]) else None

    @property
    def object_variable(self) -> str | None:
        return self.pattern[2] if is_variable(self.pattern[2]) else None

    def variables(self) -> list[str]:
        """Distinct variables in position order."""
        return list(dict.fromkeys(item for item in self.pattern if is_variable(item)))


def shape_patterns(query: ContinuousQuery) -> tuple[tuple[PatternShape, ...], list[Expr]]:
    """The patterns' shapes with their atomic FILTERs, and the complex FILTERs left for the join."""
    atomic, complex_filters = split_filters(query)
    tests = {name: term_test(expressions, name) for name, expressions in atomic.items()}
    shapes = []
    for index, pattern in enumerate(query.patterns):
        first: dict[str, int] = {}
        constants, equalities, value_tests = [], [], []
        for position, item in enumerate(pattern):
            if not is_variable(item):
                constants.append((position, item))
            elif item in first:
                equalities.append((first[item], position))
            else:
                first[item] = position
                if item in tests:
                    value_tests.append((position, tests[item]))
        predicate = None if is_variable(pattern[1]) else pattern[1]
        shapes.append(PatternShape(index, pattern, predicate, tuple(constants), tuple(equalities), tuple(value_tests)))
    return tuple(shapes), complex_filters


class Partitioner:
    """Both passes of Algorithm 1 for all the query's patterns at once: ``route(s, p, o)`` encodes a kept triple."""

    def __init__(self, shapes: Sequence[PatternShape], dictionary, partitioned: bool = True) -> None:
        self.shapes = tuple(shapes)
        self.dictionary = dictionary
        self.partitioned = partitioned
        any_predicate = [shape for shape in shapes if shape.predicate is None]
        by_predicate: dict[str, list[PatternShape]] = {}
        for shape in shapes:
            if shape.predicate is not None:
                by_predicate.setdefault(shape.predicate, []).append(shape)
        # pass 2's checks per pattern, on the raw terms: constants (subject/object only: pass 1 checked the
        # predicate), repeated variables, atomic FILTERs
        self._checks = {
            shape.index: (
                tuple((position, term) for position, term in shape.constants if position != 1),
                shape.equalities,
                shape.value_tests,
            )
            for shape in shapes
        }
        # every test of a pattern, predicate included: E-CGPM* makes them at join time (``selector``)
        self._full_checks = {
            shape.index: (
                tuple((position, dictionary.encode(term)) for position, term in shape.constants),
                shape.equalities,
                shape.value_tests,
            )
            for shape in shapes
        }
        by_predicate = {p: ss + any_predicate for p, ss in by_predicate.items()}
        # per predicate: (patterns that need no pass-2 test, (index, checks) of those that do)
        self._plans = {p: self._plan(ss) for p, ss in by_predicate.items()}
        self._any_plan = self._plan(any_predicate)
        self.predicates: frozenset[str] | None = None if any_predicate else frozenset(by_predicate)
        """The predicates pass 1 keeps, or None when a variable-predicate pattern keeps every triple."""

    def _plan(self, shapes: list[PatternShape]):
        """(patterns that need no pass-2 test, (index, checks) of those that do, routes memoised by the kept ones)."""
        if not shapes:
            return None
        untested = tuple(s.index for s in shapes if not any(self._checks[s.index]))
        tested = tuple((s.index, self._checks[s.index]) for s in shapes if any(self._checks[s.index]))
        return untested, tested, {}

    def route(self, s: str, p: str, o: str) -> tuple[tuple[int, int, int], tuple[int, ...]] | None:
        """The encoded triple and the patterns it enters, or None when it is pruned (and then it was not encoded).

        Hot path (once per stream triple). Pass 2 runs on the raw terms, before encoding: the dictionary
        is injective, so a raw term equals a constant exactly when their ids are equal, and a pruned
        triple costs no encoding (nor a dictionary entry to sweep). The routes are memoised per plan.
        """
        plan = self._plans.get(p, self._any_plan)
        if plan is None:
            return None
        untested, tested, memo = plan
        if tested:
            raw = (s, p, o)
            accepts = self._accepts_raw
            kept = tuple([index for index, checks in tested if accepts(raw, *checks)])
            if kept:
                routes = memo.get(kept)
                if routes is None:
                    routes = memo[kept] = tuple(sorted(untested + kept))
            elif untested:
                routes = untested
            else:
                return None
        else:
            routes = untested
        encode = self.dictionary.encode
        return (encode(s), encode(p), encode(o)), routes

    def accepts(self, index: int, triple: tuple[int, int, int]) -> bool:
        """Every test of one pattern (predicate included) on an encoded triple."""
        return self._accepts(triple, *self._full_checks[index])

    def selector(self, index: int):
        """E-CGPM*'s join-time scan for pattern ``index``: encoded triples -> those that instantiate the pattern."""
        constants, equalities, value_tests = self._full_checks[index]
        predicate = [term_id for position, term_id in constants if position == 1]
        rest = (tuple(c for c in constants if c[0] != 1), equalities, value_tests)
        accepts = self._accepts
        if predicate:
            p = predicate[0]
            if not any(rest):
                return lambda triples: [t for t in triples if t[1] == p]
            return lambda triples: [t for t in triples if t[1] == p and accepts(t, *rest)]
        if not any(rest):
            return list
        return lambda triples: [t for t in triples if accepts(t, *rest)]

    @staticmethod
    def _accepts_raw(triple, constants, equalities, value_tests) -> bool:
        """Pass 2 on a raw (string) triple."""
        for position, term in constants:
            if triple[position] != term:
                return False
        for first, second in equalities:
            if triple[first] != triple[second]:
                return False
        for position, test in value_tests:
            if not test(triple[position]):
                return False
        return True

    def _accepts(self, triple, constants, equalities, value_tests) -> bool:
        """Pass 2 on an encoded triple (value tests on the decoded term)."""
        for position, term_id in constants:
            if triple[position] != term_id:
                return False
        for first, second in equalities:
            if triple[first] != triple[second]:
                return False
        if value_tests:
            decode = self.dictionary.decode
            for position, test in value_tests:
                if not test(decode(triple[position])):
                    return False
        return True
