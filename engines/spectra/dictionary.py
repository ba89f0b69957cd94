"""Every term a SPECTRA engine keeps is encoded once as a small int, and decodes back to the same N-Triples string.

The paper (Section 5) dictionary-encodes the summarised triples so that joins compare numbers
instead of strings. Only terms of triples that survive summarisation are encoded, so pruned
triples never grow the dictionary. Ids are never reused: the dictionary grows with the number of
distinct kept terms seen, not with the window (``stats`` reports its size).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class TermDictionary:
    """A two-way map between terms and dense ids ``0, 1, 2, ...``."""

    __slots__ = ("_ids", "_terms")

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._terms: list[str] = []

    def encode(self, term: str) -> int:
        term_id = self._ids.get(term)
        if term_id is None:
            term_id = len(self._terms)
            self._ids[term] = term_id
            self._terms.append(term)
        return term_id

    def encode_triple(self, s: str, p: str, o: str) -> tuple[int, int, int]:
        ids = self._ids
        s_id = ids.get(s)
        p_id = ids.get(p)
        o_id = ids.get(o)
        if s_id is None or p_id is None or o_id is None:
            return (self.encode(s), self.encode(p), self.encode(o))
        return (s_id, p_id, o_id)

    def lookup(self, term: str) -> int | None:
        """The id of ``term``, or None when it was never encoded."""
        return self._ids.get(term)

    def decode(self, term_id: int) -> str:
        return self._terms[term_id]

    def decode_all(self, ids: Sequence[int]) -> tuple[str, ...]:
        terms = self._terms
        return tuple([terms[i] for i in ids])

    def decoder(self) -> "Decoder":
        return Decoder(self._terms)

    def __len__(self) -> int:
        return len(self._terms)

    def __contains__(self, term: str) -> bool:
        return term in self._ids

    def encode_all(self, terms: Iterable[str]) -> tuple[int, ...]:
        return tuple(self.encode(t) for t in terms)


class Decoder:
    """Turns encoded mappings back into term tuples; holds the dictionary's live term list."""

    __slots__ = ("_terms",)

    def __init__(self, terms: list[str]) -> None:
        self._terms = terms

    def __call__(self, ids: Sequence[int]) -> tuple[str, ...]:
        terms = self._terms
        return tuple([terms[i] for i in ids])
