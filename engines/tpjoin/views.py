"""A materialised view holds exactly the encoded triples of its pattern that are in the current graph, as (subject, object) pairs of a Bidirectional MultiMap.

With a constant predicate (the paper's case) a pair is the triple. A view whose predicate varies
(a variable-predicate pattern, or the unpartitioned variant's whole-event view) also keeps the
predicates of each pair, so that a pair found through the multimap expands to its triples.
"""

from __future__ import annotations

from engines.tpjoin.multimap import BidirectionalMultiMap


class View:
    __slots__ = ("pairs", "predicates", "size", "_values_of")

    def __init__(self, with_predicates: bool = False, with_keys: bool = True) -> None:
        self.pairs = BidirectionalMultiMap(with_keys)
        self._values_of = self.pairs.tables[0]  # read inline by __contains__, once per stream triple in I-CGPM
        self.predicates: dict[tuple[int, int], list[int]] | None = {} if with_predicates else None
        # the number of triples, read as an attribute where ``len(view)`` (a Python-level __len__) would cost a call:
        # lazy I-CGPM's emptiness test runs once per row that leaves a view
        self.size = 0

    def keep_value_table(self) -> None:
        """From now on keep the value table (an empty view only: a query set's later reader probes it by object)."""
        if self.pairs.tables[1] is None:
            if self.size:
                raise ValueError("a view gains a value table only while it is empty")
            self.pairs = BidirectionalMultiMap(True)
            self._values_of = self.pairs.tables[0]

    def add(self, triple: tuple[int, int, int]) -> bool:
        """Add the triple; False when it is already in the view."""
        s, p, o = triple
        predicates = self.predicates
        if predicates is None:
            if not self.pairs.add(s, o):
                return False
        else:
            held = predicates.get((s, o))
            if held is None:
                predicates[(s, o)] = [p]
                self.pairs.add(s, o)
            elif p in held:
                return False
            else:
                held.append(p)
        self.size += 1
        return True

    def remove(self, triple: tuple[int, int, int]) -> bool:
        s, p, o = triple
        predicates = self.predicates
        if predicates is None:
            if not self.pairs.remove(s, o):
                return False
        else:
            held = predicates.get((s, o))
            if held is None or p not in held:
                return False
            held.remove(p)
            if not held:
                del predicates[(s, o)]
                self.pairs.remove(s, o)
        self.size -= 1
        return True

    def __contains__(self, triple: tuple[int, int, int]) -> bool:
        s, p, o = triple
        if self.predicates is None:
            partners = self._values_of.get(s)
            if partners is None:
                return False
            kind = partners.__class__
            return o in partners if kind is tuple or kind is set else partners == o
        held = self.predicates.get((s, o))
        return held is not None and p in held

    def __len__(self) -> int:
        return self.size

    def clear(self) -> None:
        self.pairs.clear()
        if self.predicates is not None:
            self.predicates.clear()
        self.size = 0
