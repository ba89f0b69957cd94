"""The α-network (section 3.2): one node per intra-triple test, shared by every pattern with that test; its memory holds the triples that pass, each with its stamp.

A pattern's intra-triple test is its constants (by position) and its repeated variables (``?x :p
?x`` tests subject = object). Patterns with the same test share one node and one memory, whatever
their variable names: ``?x :p ?y . ?y :p ?z`` has one α-memory for both patterns.

A working-memory element (WME) is one distinct triple of the window's closure: a triple streamed
twice, or streamed and derived, or derived twice, is one WME, with one stamp (the latest stamp of its
sources, None for static data). The working memory is the α-memories themselves: a memory keeps each
WME it holds as one *item*, the triple's terms at the memory's variable positions (the constants are
the test's, so ``?x :name ?n`` keeps ``(x, n, stamp)``) followed by the WME's stamp, in held-row
buckets (``engines.sparkwave.bags``) of hash indexes keyed on triple positions: a home index on the
first variable position, which finds a triple's item, and one index per join node reading the memory
on the positions that join tests (section 3.2's hash joins; the home index when they are the same). A
join with no shared variable reads the index on no position, whose one bucket is the whole memory. A
WME that passes several memories has an item in each, with the same stamp.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from engines.model.stream import Triple, TriplePattern, is_variable
from engines.rdfs import RDF_TYPE
from engines.sparkwave.bags import bag_items, held_add, held_find, held_remove, held_replace

AlphaTest = tuple[str | None, str | None, str | None, tuple[tuple[int, ...], ...]]


def key_getter(positions: Sequence[int]):
    """A function from a row or triple to its hash key on ``positions`` (a term for one position, a tuple for more)."""
    if not positions:
        return lambda _: ()
    return itemgetter(*positions)


def values_getter(positions) -> Callable[[tuple], tuple]:
    """A function from a triple (or row) to the tuple of its values at ``positions``."""
    if not positions:
        return lambda _: ()
    if len(positions) == 1:
        position = positions[0]
        return lambda triple: (triple[position],)
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


def _triple_maker(test: AlphaTest, slots: tuple[int, ...]) -> Callable[[tuple], Triple]:
    """A function from an item to its triple: the test's constants with the item's values at ``slots``."""
    s, p, o, _ = test
    if slots == (0, 2):
        return lambda item: (item[0], p, item[1])
    if slots == (0,):
        return lambda item: (item[0], p, o)
    if slots == (0, 1, 2):
        return lambda item: item[:3]

    def triple_of(item: tuple) -> Triple:
        triple = [s, p, o]
        for index, position in enumerate(slots):
            triple[position] = item[index]
        return (triple[0], triple[1], triple[2])
    return triple_of


class AlphaMemory:
    """The triples passing one intra-triple test as items (variable-position terms, then stamp), hash-indexed."""

    __slots__ = ("test", "code", "size", "slots", "width", "values_of", "triple_of", "home", "indexes", "successors",
                 "_s", "_o", "_equal")

    def __init__(self, test: AlphaTest, code: int = 0) -> None:
        self.test = test
        self.code = code  # its position in the network's ``by_code``
        self._s, _, self._o, self._equal = test
        self.slots = tuple(position for position in range(3) if test[position] is None)  # the item's triple positions
        self.width = len(self.slots)
        self.values_of = values_getter(self.slots)  # a triple's item values
        self.triple_of = _triple_maker(test, self.slots)  # an item's triple
        self.size = 0
        # triple positions -> (key getter on items, key getter on triples, {key: bucket of items})
        self.indexes: dict[tuple[int, ...], tuple] = {}
        self.home = self._index(self.slots[:1])
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

    def _index(self, positions: tuple[int, ...]) -> tuple:
        index = self.indexes.get(positions)
        if index is None:
            item_key = key_getter([self.slots.index(position) for position in positions])
            buckets: dict = {}
            if self.size:  # a join node added to a memory already holding items: index them
                for bag in self.home[2].values():
                    for item in bag_items(bag):
                        held_add(buckets, item_key(item), item, self.width)
            index = self.indexes[positions] = (item_key, key_getter(positions), buckets)
        return index

    def index_on(self, positions: tuple[int, ...]) -> dict:
        """The buckets of items keyed on the triple ``positions`` (variable positions of the test)."""
        return self._index(tuple(positions))[2]

    def item_getter(self, positions: Sequence[int]) -> Callable[[tuple], tuple]:
        """A function from an item to the tuple of its triple's values at ``positions``."""
        return values_getter(tuple(self.slots.index(position) for position in positions))

    def find(self, triple: Triple) -> tuple | None:
        """The item of ``triple`` (which passes the test), or None."""
        _, triple_key, buckets = self.home
        return held_find(buckets.get(triple_key(triple)), self.values_of(triple), self.width)

    def current(self, item: tuple) -> tuple | None:
        """The item this memory holds now for the triple of ``item`` (None: it left)."""
        item_key, _, buckets = self.home
        return held_find(buckets.get(item_key(item)), item[:self.width], self.width)

    def add(self, values: tuple, stamp) -> tuple:
        """A new WME's item (its values interned by the caller) into every index."""
        self.size += 1
        item, width = values + (stamp,), self.width
        for item_key, _, buckets in self.indexes.values():
            held_add(buckets, item_key(item), item, width)
        return item

    def restamp(self, item: tuple, stamp) -> tuple:
        """The WME of ``item`` (held here) re-stamped: its new item."""
        width = self.width
        item = item[:width] + (stamp,)
        for item_key, _, buckets in self.indexes.values():
            held_replace(buckets, item_key(item), item, width)
        return item

    def remove(self, triple: Triple) -> None:
        self.size -= 1
        values, width = self.values_of(triple), self.width
        for item_key, _, buckets in self.indexes.values():
            held_remove(buckets, item_key(values), values, width)


class Wired(tuple):
    """The α-memories a triple of one predicate (and class) may enter; ``all_pass``: it passes all their tests."""

    all_pass: bool


def passing(candidates: Wired, triple: Triple) -> Sequence[AlphaMemory]:
    """The memories of ``candidates`` (wired for ``triple``'s predicate and class) whose test ``triple`` passes."""
    return candidates if candidates.all_pass else [memory for memory in candidates if memory.passes(triple)]


class AlphaNetwork:
    """The α nodes of a network, found from a triple by its predicate (and class, for rdf:type) through the α root."""

    def __init__(self) -> None:
        self.memories: dict[AlphaTest, AlphaMemory] = {}
        self.by_code: list[AlphaMemory] = []  # the memories in the order they were made
        self._by_predicate: dict[str, list[AlphaMemory]] = {}
        self._by_class: dict[str, list[AlphaMemory]] = {}  # rdf:type patterns with a constant class
        self._any_predicate: list[AlphaMemory] = []
        self._wired: dict[tuple[str, str | None], Wired] = {}

    def memory_for(self, pattern: TriplePattern) -> AlphaMemory:
        """The shared memory of the pattern's test, made on first use."""
        test = alpha_test(pattern)
        memory = self.memories.get(test)
        if memory is None:
            memory = self.memories[test] = AlphaMemory(test, len(self.by_code))
            self.by_code.append(memory)
            _, p, o, _ = test
            if p is None:
                self._any_predicate.append(memory)
            elif p == RDF_TYPE and o is not None:
                self._by_class.setdefault(o, []).append(memory)
            else:
                self._by_predicate.setdefault(p, []).append(memory)
            self._wired.clear()
        return memory

    def wired(self, predicate: str, cls: str | None = None) -> Wired:
        """The memories a triple of ``predicate`` (of class ``cls`` when it is rdf:type) may enter: an ε node's α links."""
        key = (predicate, cls)
        found = self._wired.get(key)
        if found is None:
            memories = tuple(self._by_predicate.get(predicate, ())) + tuple(self._any_predicate)
            if predicate == RDF_TYPE and cls is not None:
                memories = tuple(self._by_class.get(cls, ())) + memories
            found = self._wired[key] = Wired(memories)
            # every triple of the key passes every test when the tests ask only what the key already says
            found.all_pass = all(memory._s is None and not memory._equal
                                 and (memory._o is None or (predicate == RDF_TYPE and memory._o == cls))
                                 for memory in memories)
        return found

    def candidates(self, triple: Triple) -> Wired:
        """The α root: the memories whose constant predicate (and class) fit the triple."""
        return self.wired(triple[1], triple[2] if triple[1] == RDF_TYPE else None)

    def passed_by(self, triple: Triple) -> Sequence[AlphaMemory]:
        """The memories whose test ``triple`` passes (the same whichever ε node it came from)."""
        return passing(self.candidates(triple), triple)

    def stats(self) -> dict[str, int]:
        return {
            "alpha_memories": len(self.memories),
            "alpha_entries": sum(memory.size for memory in self.memories.values()),
        }


class WorkingMemory:
    """The WMEs read from the α-memories: a triple's stamp (None: static), presence and how many distinct WMEs there are."""

    __slots__ = ("alpha", "count")

    def __init__(self, alpha: AlphaNetwork) -> None:
        self.alpha = alpha
        self.count = 0  # kept by the engine as WMEs enter and leave

    def __getitem__(self, triple: Triple):
        for memory in self.alpha.passed_by(triple):
            item = memory.find(triple)
            if item is not None:
                return item[memory.width]
        raise KeyError(triple)

    def __contains__(self, triple: Triple) -> bool:
        return any(memory.find(triple) is not None for memory in self.alpha.passed_by(triple))

    def __len__(self) -> int:
        return self.count
