"""Every term the delta engine holds is one small integer of one dictionary, alive exactly while a held triple uses it.

The evaluators store term ids, never term strings: an id is one shared int object, where a string
from the stream would be one copy per batch that decoded it. ``acquire`` is called for the three
terms of a triple when the triple enters the engine's graph and ``release`` when it leaves, so a
term's count is the number of held triples using it (plus one for each pinned use: the query's
constants and the static triples, which never leave). A term whose count falls to zero leaves the
dictionary and its id is reused, so the dictionary follows the graph (a sliding window's) and not
the whole stream. Every id an evaluator holds belongs to a held triple, so it is never stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.model.stream import Term


class TermDictionary:
    """Term <-> id, with a use count per id; ``ids`` and ``terms`` are read directly on the hot paths."""

    __slots__ = ("ids", "terms", "uses", "free")

    def __init__(self) -> None:
        self.ids: dict[Term, int] = {}
        self.terms: list[Term | None] = []
        self.uses: list[int] = []
        self.free: list[int] = []  # ids of released terms, reused before the lists grow

    def __len__(self) -> int:
        return len(self.ids)

    def acquire(self, term: Term) -> int:
        """The id of ``term``, adding it if new, with one more use."""
        number = self.ids.get(term)
        if number is not None:
            self.uses[number] += 1
            return number
        if self.free:
            number = self.free.pop()
            self.terms[number] = term
            self.uses[number] = 1
        else:
            number = len(self.terms)
            self.terms.append(term)
            self.uses.append(1)
        self.ids[term] = number
        return number

    def release(self, number: int) -> None:
        """One use fewer; the term leaves at its last."""
        left = self.uses[number] - 1
        self.uses[number] = left
        if not left:
            del self.ids[self.terms[number]]
            self.terms[number] = None
            self.free.append(number)

    def take(self, key: tuple, s: Term, p: Term, o: Term) -> tuple[int, int, int]:
        """The ids of a triple entering the graph, one use more each; ``key`` holds them, None for a new term."""
        uses, acquire = self.uses, self.acquire
        subject, predicate, object_ = key
        if subject is None:
            subject = acquire(s)
        else:
            uses[subject] += 1
        if predicate is None:
            predicate = acquire(p)
        else:
            uses[predicate] += 1
        if object_ is None:
            object_ = acquire(o)
        else:
            uses[object_] += 1
        return subject, predicate, object_

    def give_back(self, key: Sequence[int]) -> None:
        """One use fewer of each id of a triple leaving the graph."""
        uses = self.uses
        for number in key:
            left = uses[number] - 1
            if left:
                uses[number] = left
            else:
                self.release(number)

    def decode(self, numbers: Sequence[int | None]) -> tuple[Term | None, ...]:
        terms = self.terms
        return tuple(None if number is None else terms[number] for number in numbers)
