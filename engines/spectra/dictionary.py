"""Every term a SPECTRA engine keeps is encoded as a small int while some kept triple holds it, and decodes back to the same N-Triples string.

The paper (Section 5) dictionary-encodes the summarised triples so that joins compare numbers
instead of strings. Only terms of triples that survive summarisation are encoded, so pruned
triples never grow the dictionary. Beyond the paper, ids are reference-counted by the triples in
the window (static triples hold theirs for ever): when the last triple holding a term leaves,
the term is forgotten and its id reused, so the dictionary follows the window instead of growing
with every term the stream ever had.

A released id still decodes to its term until ``recycle`` makes it reusable: the matches that expire
with it are decoded by the engine after the eviction that released it, and the conductor recycles only
at its next eviction, in a later event, so no ``encode`` in between can hand the id to another term.
This holds by construction, whatever order encoding and eviction take within one event.
"""

from __future__ import annotations

from collections.abc import Sequence


class TermDictionary:
    """A two-way map between terms and dense ids, with a count of the kept triples that hold each id."""

    __slots__ = ("_ids", "_terms", "_holders", "_free", "_released")

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._terms: list[str] = []
        self._holders: list[int] = []
        self._free: list[int] = []
        self._released: list[int] = []  # forgotten, still decoding, not yet reusable

    def encode(self, term: str) -> int:
        term_id = self._ids.get(term)
        if term_id is None:
            if self._free:
                term_id = self._free.pop()
                self._terms[term_id] = term
                self._holders[term_id] = 0
            else:
                term_id = len(self._terms)
                self._terms.append(term)
                self._holders.append(0)
            self._ids[term] = term_id
        return term_id

    def encode_triple(self, s: str, p: str, o: str) -> tuple[int, int, int]:
        ids = self._ids
        s_id = ids.get(s)
        p_id = ids.get(p)
        o_id = ids.get(o)
        if s_id is None or p_id is None or o_id is None:
            return (self.encode(s), self.encode(p), self.encode(o))
        return (s_id, p_id, o_id)

    def hold(self, triple: Sequence[int]) -> None:
        """A kept triple now holds its terms."""
        holders = self._holders
        for term_id in triple:
            holders[term_id] += 1

    def release(self, triple: Sequence[int]) -> None:
        """A kept triple left: forget the terms no other kept triple holds (their ids decode until ``recycle``)."""
        holders = self._holders
        for term_id in triple:
            holders[term_id] -= 1
            if not holders[term_id]:
                del self._ids[self._terms[term_id]]
                self._released.append(term_id)

    def recycle(self) -> None:
        """The ids released so far may now be reused: every answer holding them has been decoded."""
        if self._released:
            self._free.extend(self._released)
            self._released.clear()

    def decode(self, term_id: int) -> str:
        return self._terms[term_id]

    def decoder(self) -> Decoder:
        return Decoder(self._terms)

    def __len__(self) -> int:
        """Terms currently held."""
        return len(self._ids)

    def __contains__(self, term: str) -> bool:
        return term in self._ids


class Decoder:
    """Turns encoded mappings back into term tuples; holds the dictionary's live term list."""

    __slots__ = ("_terms",)

    def __init__(self, terms: list[str]) -> None:
        self._terms = terms

    def __call__(self, ids: Sequence[int]) -> tuple[str, ...]:
        terms = self._terms
        return tuple([terms[i] for i in ids])
