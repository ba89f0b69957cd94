"""A triple of term ids is unified with the query's patterns through one index by predicate id, exactly as with terms.

The query's constants are pinned in the dictionary, so a constant compares as its id. A triple is
looked up with ``ids.get``, which gives None for a term the dictionary does not hold: None differs
from every constant id, so such a triple unifies with a pattern only where the unknown term sits in
a variable position, and then it is not held (every term of a held triple has an id). Two Nones
compare equal, so a pattern repeating a variable (``?x :p ?x``) could seem to unify with two
different unknown terms; ``taken_matches`` unifies again once the terms have ids in that case.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engines.delta.decompose import compile_matcher, pattern_variables
from engines.delta.terms import TermDictionary

Matches = dict[int, list]  # component number -> the (pattern index, binding) pairs a triple unifies with


def binding_positions(pattern) -> tuple[int, ...]:
    """The triple positions a match of ``pattern`` binds, in ``pattern_variables`` order (first occurrences)."""
    return tuple(pattern.index(name) for name in pattern_variables(pattern))


class PatternIndex:
    """Each component's patterns by constant predicate id; a constant predicate's list ends with the variable-predicate ones."""

    __slots__ = ("by_predicate", "any_predicate", "positions", "repeats_a_variable")

    def __init__(self, pattern_lists: Sequence[Sequence[tuple]], dictionary: TermDictionary) -> None:
        pin = dictionary.acquire
        by_predicate: dict[int, list] = defaultdict(list)
        self.any_predicate: list = []
        self.repeats_a_variable = False
        for number, patterns in enumerate(pattern_lists):
            for j, pattern in enumerate(patterns):
                entry = (number, j, compile_matcher(pattern, pin))
                names = [term for term in pattern if term[0] == "?"]
                self.repeats_a_variable |= len(set(names)) < len(names)
                if pattern[1][0] == "?":
                    self.any_predicate.append(entry)
                else:
                    by_predicate[pin(pattern[1])].append(entry)
        for entries in by_predicate.values():
            entries.extend(self.any_predicate)
        self.by_predicate = dict(by_predicate)
        self.positions = [[binding_positions(p) for p in patterns] for patterns in pattern_lists]

    def matches(self, key: tuple) -> Matches:
        """The pairs the triple of ids ``key`` (None for an unknown term) unifies with, by component."""
        found: Matches = {}
        for number, j, match in self.by_predicate.get(key[1], self.any_predicate):
            binding = match(key)
            if binding is not None:
                found.setdefault(number, []).append((j, binding))
        return found

    def taken_matches(self, key: tuple, matches: Matches) -> Matches:
        """``matches`` of a triple whose unknown terms were just given ids (``key``): the same pairs, bound to the ids."""
        if self.repeats_a_variable:
            return self.matches(key)  # the Nones may have matched each other
        positions = self.positions
        return {
            number: [(j, tuple([key[i] for i in positions[number][j]])) for j, _ in found]
            for number, found in matches.items()
        }
