"""Algorithm 1: a ground subquery is true exactly when every bit of its triple match state is set.

The triple match state ``M_QG`` has one bit per ground pattern; bit ``i`` is set while pattern
``i`` (a data triple) is in the graph. Set semantics come for free: inserting a present triple
sets a set bit and deleting an absent one clears a clear bit, and neither changes the answer.
The only answer, when the state is complete, is the empty mapping ``()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.model.stream import INSERT, TriplePattern


class GroundEvaluator:
    variables: tuple[str, ...] = ()

    def __init__(self, patterns: Sequence[TriplePattern]) -> None:
        self.patterns = tuple(patterns)
        self.complete_state = (1 << len(self.patterns)) - 1
        self.state = 0

    @property
    def complete(self) -> bool:
        return self.state == self.complete_state

    def apply(self, op: int, matches: Sequence[tuple[int, tuple]]) -> tuple[list[tuple], list[tuple]]:
        was_complete = self.complete
        for index, _ in matches:
            if op == INSERT:
                self.state |= 1 << index
            else:
                self.state &= ~(1 << index)
        if self.complete and not was_complete:
            return [()], []
        if was_complete and not self.complete:
            return [], [()]
        return [], []

    def holds(self, matches: Sequence[tuple[int, tuple]]) -> bool:
        return bool(self.state >> matches[0][0] & 1)

    def answer_tuples(self) -> Iterable[tuple]:
        return [()] if self.complete else []

    def has_answers(self) -> bool:
        return self.complete

    def stats(self) -> dict[str, int]:
        return {"ground_patterns": len(self.patterns), "ground_bits_set": bin(self.state).count("1")}
