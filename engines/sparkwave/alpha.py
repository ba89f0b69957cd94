"""The α-network (section 3.2): one node per intra-triple test, shared by every pattern with that test; its memory holds the triples that pass.

A pattern's intra-triple test is its constants (by position) and its repeated variables (``?x :p
?x`` tests subject = object). Patterns with the same test share one node and one memory, whatever
their variable names: ``?x :p ?y . ?y :p ?z`` has one α-memory for both patterns.

A working-memory element (WME) is one distinct triple of the window's closure: a triple streamed
twice, or streamed and derived, or derived twice, is one WME. The working memory (``ReteNetwork.stamps``)
maps each WME's triple, its terms interned so that each distinct term is one string, to its stamp (the
latest stamp of its sources, None for static data); there is no per-triple object. An α-memory keeps
one hash index per join node it feeds, keyed on the triple positions that join tests (section 3.2's
hash joins), its buckets the triples themselves (``engines.sparkwave.bags``); a join with no shared
variable reads the whole memory as the index's one bucket. The first join node of a chain is never
left-activated (its parent is the root's one empty token), so its memory keeps no index for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engines.model.stream import Triple, TriplePattern, is_variable
from engines.rdfs import RDF_TYPE
from engines.sparkwave.bags import bag_add, bag_remove

AlphaTest = tuple[str | None, str | None, str | None, tuple[tuple[int, ...], ...]]


def key_getter(positions: Sequence[int]):
    """A function from a row or triple to its hash key on ``positions`` (a term for one position, a tuple for more)."""
    if not positions:
        return lambda _: ()
    return itemgetter(*positions)


def alpha_test(pattern: TriplePattern) -> AlphaTest:
    """The intra-triple test of a pattern: its constants and the groups of positions holding one variable."""
    constants = tuple(None if is_variable(term) else term for term in pattern)
    groups: dict[str, list[int]] = {}
    for position, term in enumerate(pattern):
        if is_variable(term):
            groups.setdefault(term, []).append(position)
    equal = tuple(tuple(g) for g in groups.values() if len(g) > 1)
    return (*constants, equal)


class AlphaMemory:
    """The triples passing one intra-triple test, hash-indexed for each join node reading them."""

    __slots__ = ("test", "size", "indexes", "successors", "_s", "_o", "_equal")

    def __init__(self, test: AlphaTest) -> None:
        self.test = test
        self._s, _, self._o, self._equal = test
        self.size = 0
        self.indexes: dict[tuple[int, ...], tuple] = {}  # positions -> (key getter, {key: bucket of triples})
        self.successors: list = []  # join nodes, deepest first (Doorenbos): no match is made twice

    def passes(self, triple: Triple) -> bool:
        if self._s is not None and triple[0] != self._s:
            return False
        if self._o is not None and triple[2] != self._o:
            return False
        for group in self._equal:
            first = triple[group[0]]
            if any(triple[p] != first for p in group[1:]):
                return False
        return True

    def index_on(self, positions: tuple[int, ...]) -> dict:
        if positions not in self.indexes:
            self.indexes[positions] = (key_getter(positions), {})
        return self.indexes[positions][1]

    def add(self, triple: Triple) -> None:
        self.size += 1
        for key_of, buckets in self.indexes.values():
            bag_add(buckets, key_of(triple), triple)

    def remove(self, triple: Triple) -> None:
        self.size -= 1
        for key_of, buckets in self.indexes.values():
            bag_remove(buckets, key_of(triple), triple)


class AlphaNetwork:
    """The α nodes of a network, found from a triple by its predicate (and class, for rdf:type) through the α root."""

    def __init__(self) -> None:
        self.memories: dict[AlphaTest, AlphaMemory] = {}
        self._by_predicate: dict[str, list[AlphaMemory]] = {}
        self._by_class: dict[str, list[AlphaMemory]] = {}  # rdf:type patterns with a constant class
        self._any_predicate: list[AlphaMemory] = []
        self._wired: dict[tuple[str, str | None], tuple[AlphaMemory, ...]] = {}

    def memory_for(self, pattern: TriplePattern) -> AlphaMemory:
        """The shared memory of the pattern's test, made on first use."""
        test = alpha_test(pattern)
        memory = self.memories.get(test)
        if memory is None:
            memory = self.memories[test] = AlphaMemory(test)
            _, p, o, _ = test
            if p is None:
                self._any_predicate.append(memory)
            elif p == RDF_TYPE and o is not None:
                self._by_class.setdefault(o, []).append(memory)
            else:
                self._by_predicate.setdefault(p, []).append(memory)
            self._wired.clear()
        return memory

    def wired(self, predicate: str, cls: str | None = None) -> tuple[AlphaMemory, ...]:
        """The memories a triple of ``predicate`` (of class ``cls`` when it is rdf:type) may enter: an ε node's α links."""
        key = (predicate, cls)
        found = self._wired.get(key)
        if found is None:
            found = tuple(self._by_predicate.get(predicate, ())) + tuple(self._any_predicate)
            if predicate == RDF_TYPE and cls is not None:
                found = tuple(self._by_class.get(cls, ())) + found
            self._wired[key] = found
        return found

    def candidates(self, triple: Triple) -> tuple[AlphaMemory, ...]:
        """The α root: the memories whose constant predicate (and class) fit the triple."""
        return self.wired(triple[1], triple[2] if triple[1] == RDF_TYPE else None)

    def passed_by(self, triple: Triple) -> list[AlphaMemory]:
        """The memories whose test ``triple`` passes (the same whichever ε node it came from)."""
        return [memory for memory in self.candidates(triple) if memory.passes(triple)]

    def stats(self) -> dict[str, int]:
        return {
            "alpha_memories": len(self.memories),
            "alpha_entries": sum(memory.size for memory in self.memories.values()),
        }
