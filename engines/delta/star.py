"""Algorithm 2: a simple var-centric star's answers are the central instances whose ground instance is complete.

The list ``L`` of ground var-centric instances is a hash map from an instance ``x`` of the central
variable to the triple match state of the star with ``x`` substituted (a bit per pattern, as an
int). A record whose bits are all cleared is removed (Algorithm 2, line 35), so the memory held is
one small int per central instance with at least one matching triple (Prop. 2). ``complete`` is
``T_S`` of Algorithm 3: the instances whose state is complete and which pass the star's own
FILTER conjuncts. Setting a set bit or clearing a clear bit changes nothing, which gives set
semantics for repeated inserts and deletes of absent triples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.delta.filtering import Check
from engines.model.stream import INSERT, TriplePattern


class SimpleStarEvaluator:
    def __init__(self, central: str, patterns: Sequence[TriplePattern], accept: Check | None = None) -> None:
        self.variables = (central,)
        self.patterns = tuple(patterns)
        self.complete_state = (1 << len(self.patterns)) - 1
        self.records: dict[str, int] = {}
        self.complete: set[str] = set()
        self.accept = accept

    def apply(self, op: int, matches: Sequence[tuple[int, tuple[str]]]) -> tuple[list[tuple], list[tuple]]:
        added: list[tuple] = []
        removed: list[tuple] = []
        records = self.records
        for index, (center,) in matches:  # one triple may instantiate several patterns, even at two centers
            state = records.get(center, 0)
            new_state = state | (1 << index) if op == INSERT else state & ~(1 << index)
            if new_state == state:
                continue
            if new_state:
                records[center] = new_state
            else:
                del records[center]
            if new_state == self.complete_state:
                if self.accept is None or self.accept((center,)):
                    self.complete.add(center)
                    added.append((center,))
            elif state == self.complete_state and center in self.complete:
                self.complete.discard(center)
                removed.append((center,))
        return added, removed

    def holds(self, matches: Sequence[tuple[int, tuple]]) -> bool:
        """Whether the triple of ``matches`` is in the graph: its first pattern's bit at its centre."""
        index, (center,) = matches[0]
        return bool(self.records.get(center, 0) >> index & 1)

    def answer_tuples(self) -> Iterable[tuple]:
        return ((center,) for center in self.complete)

    def has_answers(self) -> bool:
        return bool(self.complete)

    def stats(self) -> dict[str, int]:
        return {"star_records": len(self.records), "star_complete": len(self.complete)}
