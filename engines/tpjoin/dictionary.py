"""The synchronised dictionary of section 3.3: one id per distinct term, from a persistent part that never forgets and an adaptive part that follows the views.

The persistent part encodes the query's constants and the static (background) graph; its ids are
``0 .. P-1`` and stay valid for the query's life. The adaptive part encodes the terms of the
stream triples that enter the views, with ids from ``P`` up; both parts give the same id to the
same string, so a view's subject id equals a pattern constant's id exactly when the terms are equal.

Forgetting (the paper's "cleared after the views are processed or when the window expires"):

- event-based: ``clear_adaptive()`` after each event drops every adaptive term;
- incremental: adaptive ids are reference-counted by the window's kept triples (``hold`` and
  ``release``; the counts are an array indexed by id, 8 bytes a term instead of a dict entry); ``sweep()`` at the end of an event frees the ids encoded during it that no kept
  triple holds (a triple encoded in the first pass and pruned in the second). A freed id is reused
  by a later ``encode``; until then it still decodes, so expiring matches can be reported.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence


class SynchronisedDictionary:
    __slots__ = ("_persistent", "_adaptive", "_terms", "_holders", "_free", "_fresh", "persistent_size")

    def __init__(self, persistent_terms: Iterable[str] = ()) -> None:
        self._persistent: dict[str, int] = {}
        self._terms: list[str] = []
        for term in persistent_terms:
            if term not in self._persistent:
                self._persistent[term] = len(self._terms)
                self._terms.append(term)
        self.persistent_size = len(self._terms)
        self._adaptive: dict[str, int] = {}
        self._holders = array("q")  # adaptive id - persistent_size -> how many kept triples hold it
        self._free: list[int] = []
        self._fresh: list[int] = []

    def add_persistent(self, terms: Iterable[str]) -> None:
        """More persistent terms (a query set's later query's constants): only before any adaptive term."""
        if self._adaptive or len(self._terms) != self.persistent_size:
            raise ValueError("persistent terms are added before any stream term is encoded")
        for term in terms:
            if term not in self._persistent:
                self._persistent[term] = len(self._terms)
                self._terms.append(term)
        self.persistent_size = len(self._terms)

    def persistent_id(self, term: str) -> int | None:
        return self._persistent.get(term)

    def encode(self, term: str) -> int:
        term_id = self._persistent.get(term)
        if term_id is not None:
            return term_id
        term_id = self._adaptive.get(term)
        if term_id is None:
            if self._free:
                term_id = self._free.pop()
                self._terms[term_id] = term
            else:
                term_id = len(self._terms)
                self._terms.append(term)
            self._adaptive[term] = term_id
            self._fresh.append(term_id)
        return term_id

    def hold(self, ids: Sequence[int]) -> None:
        """A kept triple now holds its adaptive terms."""
        self.hold_all((ids,))

    def hold_all(self, triples: Iterable[Sequence[int]]) -> None:
        """Kept triples now hold their adaptive terms (the counts grown once for all of them)."""
        holders, floor = self._holders, self.persistent_size
        if len(holders) < len(self._terms) - floor:
            self._grow_holders()
        for ids in triples:
            for term_id in ids:
                if term_id >= floor:
                    holders[term_id - floor] += 1

    def _grow_holders(self) -> None:
        """A count for every adaptive id (0 for the new ones): grown here, not by ``encode``, which the event
        models call for every term of every event and which never hold a term."""
        missing = len(self._terms) - self.persistent_size - len(self._holders)
        self._holders.frombytes(bytes(missing * self._holders.itemsize))

    def release(self, ids: Sequence[int]) -> None:
        """A kept triple left: forget the adaptive terms no other kept triple holds."""
        holders, floor = self._holders, self.persistent_size
        for term_id in ids:
            if term_id >= floor:
                count = holders[term_id - floor] - 1
                holders[term_id - floor] = count
                if not count:
                    self._forget(term_id)

    def _forget(self, term_id: int) -> None:
        del self._adaptive[self._terms[term_id]]
        self._free.append(term_id)

    def sweep(self) -> None:
        """Free the ids encoded since the last sweep that no kept triple holds."""
        holders, adaptive, terms, floor = self._holders, self._adaptive, self._terms, self.persistent_size
        if self._fresh and len(holders) < len(terms) - floor:
            self._grow_holders()
        for term_id in self._fresh:
            if not holders[term_id - floor] and adaptive.get(terms[term_id]) == term_id:
                self._forget(term_id)
        self._fresh.clear()

    def clear_adaptive(self) -> None:
        """Forget every adaptive term (event-based: the event's views have been processed)."""
        self._adaptive.clear()
        del self._holders[:]
        self._free.clear()
        self._fresh.clear()
        del self._terms[self.persistent_size:]

    def decode(self, term_id: int) -> str:
        return self._terms[term_id]

    @property
    def terms(self) -> list[str]:
        """The live id -> term list (decoders hold it; do not modify)."""
        return self._terms

    def adaptive_size(self) -> int:
        return len(self._adaptive)

    def __len__(self) -> int:
        return self.persistent_size + len(self._adaptive)
