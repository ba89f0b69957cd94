"""Algorithm 1 for a query set's distinct patterns: ``route(s, p, o)`` finds the patterns a triple instantiates in a few hash look-ups, whatever the number of patterns.

``partition.Partitioner`` tests a triple against each pattern of its predicate in turn, which suits one
query's few patterns; a hundred copies of a query that differ in one constant (``?x :takesCourse <C>``)
would cost a hundred tests per triple. Here the patterns are indexed by their constants: per *key
shape* (which of subject, predicate and object a pattern fixes) a dict from the constants to the
patterns, so pass 1 and pass 2's constant tests are one look-up per shape (a query set has a few
shapes). What a key cannot test, a variable repeated inside a pattern and atomic FILTERs, is tested
on the candidates only, on the raw terms as ``Partitioner`` does. Only a kept triple is encoded.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.tpjoin.partition import Partitioner, PatternShape

Routes = tuple[int, ...]


class ClassRouter:
    """The patterns (numbered by ``shape.index``) indexed by their constants; ``route`` as ``Partitioner.route``."""

    def __init__(self, shapes: Sequence[PatternShape], dictionary) -> None:
        self.shapes = tuple(shapes)
        self.dictionary = dictionary
        # key shape -> {constants at the fixed positions (None elsewhere) -> (untested patterns, tested ones)}
        indexes: dict[tuple[bool, bool, bool], dict[tuple, tuple[list[int], list]]] = {}
        for shape in shapes:
            fixed = {position: term for position, term in shape.constants}
            key_shape = tuple(position in fixed for position in range(3))
            key = tuple(fixed.get(position) for position in range(3))
            untested, tested = indexes.setdefault(key_shape, {}).setdefault(key, ([], []))
            if shape.equalities or shape.value_tests:
                tested.append((shape.index, shape.equalities, shape.value_tests))
            else:
                untested.append(shape.index)
        self._indexes = [(key_shape, {key: (tuple(untested), tuple(tested)) for key, (untested, tested) in index.items()})
                         for key_shape, index in indexes.items()]
        self._memo: dict[Routes, Routes] = {}  # found patterns -> their sorted tuple, shared
        self.predicates: frozenset[str] | None = (
            None if any(shape.predicate is None for shape in shapes)
            else frozenset(shape.predicate for shape in shapes)
        )
        """The predicates pass 1 keeps, or None when a variable-predicate pattern keeps every triple."""

    def route(self, s: str, p: str, o: str) -> tuple[tuple[int, int, int], Routes] | None:
        """The encoded triple and the patterns it enters, or None when it is pruned (and then it was not encoded)."""
        found: list[int] = []
        for (fixed_s, fixed_p, fixed_o), index in self._indexes:
            entry = index.get((s if fixed_s else None, p if fixed_p else None, o if fixed_o else None))
            if entry is None:
                continue
            untested, tested = entry
            found.extend(untested)
            if tested:
                raw = (s, p, o)
                accepts = Partitioner._accepts_raw
                found.extend([number for number, equalities, value_tests in tested
                              if accepts(raw, (), equalities, value_tests)])
        if not found:
            return None
        key = tuple(found)
        routes = self._memo.get(key)
        if routes is None:
            if len(self._memo) > 4096:
                self._memo.clear()
            routes = self._memo[key] = tuple(sorted(found))
        encode = self.dictionary.encode
        return (encode(s), encode(p), encode(o)), routes
