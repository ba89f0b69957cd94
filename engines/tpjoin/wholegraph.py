"""E-CGPM* (the paper's E-CGPM without Algorithm 1): every pattern's join candidates are the whole event graph, found by a scan at join time, and nothing else.

Section 6, figure 7: "we use our system with (E-CGPM) and without (E-CGPM*) the graph
partitioning and the view materialisation phase (Algorithm 1) ... In case of E-CGPM*, each triple
pattern uses a whole graph to join with another". So the event is kept as it arrives (encoded,
deduplicated, unindexed: ``WholeGraph``), and at each automaton state the join

1. scans every triple of the event (with the static rows) and keeps those that instantiate the
   state's pattern (predicate, constants, repeated variable, atomic FILTERs: the tests Algorithm 1
   would have made once per triple, made here once per triple *per pattern*);
2. hash-joins them with the merged mappings on the variables they share (the same hash-merge join
   E-CGPM runs, with the hash table built from the scan instead of read from a view's multimap),
   or takes their cross product, or the sort-merge join when a comparison FILTER ties them.

No more and no less than that: the automaton, its join order (SortAndCombine sees |event| for every
pattern, since there are no views to count), early termination, complex FILTERs and answers are
E-CGPM's; there is no per-pattern index, no predicate index and no reuse of one state's scan by
another. The triples are still encoded (the automaton joins ids), every triple of the event. Static
(background) triples, which the paper's runs did not have, are part of the whole graph every join
scans, as the event's own are.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from engines.model.stream import is_variable
from engines.tpjoin.partition import PatternShape

Selector = Callable[[dict], list]


class WholeGraph:
    """The event graph as an insertion-ordered set of encoded triples, with no index: E-CGPM*'s only "view"."""

    __slots__ = ("triples",)

    def __init__(self) -> None:
        self.triples: dict[tuple[int, int, int], None] = {}

    def add(self, triple: tuple[int, int, int]) -> bool:
        if triple in self.triples:
            return False
        self.triples[triple] = None
        return True

    def remove(self, triple: tuple[int, int, int]) -> bool:
        return self.triples.pop(triple, False) is None

    def __contains__(self, triple: tuple[int, int, int]) -> bool:
        return triple in self.triples

    def __len__(self) -> int:
        return len(self.triples)

    @property
    def size(self) -> int:
        """The number of triples, as ``View.size`` reads it."""
        return len(self.triples)

    def clear(self) -> None:
        self.triples.clear()


def _getter(positions: list[int]):
    """Triple -> the tuple of its values at ``positions`` (() for none)."""
    if not positions:
        return lambda triple: ()
    if len(positions) == 1:
        position = positions[0]
        return lambda triple: (triple[position],)
    return itemgetter(*positions)


def scan_join(shape: PatternShape, graph: WholeGraph, bound: list[str], select: Selector):
    """The join of one state over the whole graph: scan and test (``select``), then hash on the shared variables."""
    pattern = shape.pattern
    seen: set[str] = set()
    key_positions, key_indices, tail_positions = [], [], []
    for position, item in enumerate(pattern):
        if not is_variable(item) or item in seen:
            continue  # constants and repeats were tested by ``select``
        seen.add(item)
        if item in bound:
            key_positions.append(position)
            key_indices.append(bound.index(item))
        else:
            tail_positions.append(position)
    tail_of = _getter(tail_positions)
    triples = graph.triples

    if not key_positions:
        def join(merged):
            tails = [tail_of(t) for t in select(triples)]
            return [m + tail for m in merged for tail in tails] if tails else []
        return join

    key_of = _getter(key_positions)
    probe_of = _getter(key_indices)

    def join(merged):
        table: dict[tuple, list[tuple]] = {}  # the hash-merge join's build side: the scan's survivors by join key
        for t in select(triples):
            key = key_of(t)
            tails = table.get(key)
            if tails is None:
                table[key] = [tail_of(t)]
            else:
                tails.append(tail_of(t))
        if not table:
            return []
        out: list[tuple] = []
        get = table.get
        for m in merged:
            tails = get(probe_of(m))
            if tails is not None:
                out.extend([m + tail for tail in tails])
        return out

    return join
