"""The β-network (sections 3.2 and 3.5): join nodes make tokens, each a partial match whose triples are all still in their windows.

A token is ``(parent, triple)`` (section 3.2). It is kept as its row, the values its match binds in
the chain's order: the row is the parent's row extended by the values the triple binds, so it names
the parent (its prefix) and, through the join node's pattern, every triple of the chain; no two
tokens of one memory have the same row.

Window bounds per token (section 3.5). A triple's stamp is the last instant it is in its window
(``engines.sparkwave.graphs``: each window computes it from the timestamp, so triples of windows of
different ranges, slides or streams carry comparable bounds; a static triple's is infinite). A token's
bound ``until`` is the least stamp of its triples: the last instant at which the whole match is in the
windows, the paper's interval ``T^k(k)`` read through each triple's own window. It is computed
incrementally as the paper's interval is (a new token's ``until`` is its parent's lowered to its
triple's stamp), and a join node makes a token only when ``until`` is not before the current instant
(``Clock.now``), and only when the FILTERs whose variables are all bound by then hold. So one join node
serves patterns of different windows: the test reads the token, not the node. A β-memory keeps each
token with its ``until``: as a held row (the row, then ``until``) in a hash index on each child join
node's join variables (no nested loops over a memory), or, in a memory with no child, as a dict from
row to ``until``. A first join's token is its triple's α item itself (the row is the item's values and
``until`` its stamp).

Stamps only grow (a triple seen again, or derived again, is re-stamped), so a stored ``until`` is a
lower bound of the true one. When the bound fails the test, the chain's triples are read back from
the row and the bounds along it are refreshed; only if the fresh ``until`` fails does the join
refuse. It fails exactly when the token holds a triple that left its window at this instant and that
the collector has not taken yet (the engine collects after the event's joins, as Sparkwave's
collector runs behind the matcher).

Retraction (section 3.7) is rematch-based (Doorenbos, "Production Matching for Large Learning
Systems", 1995): the tokens a leaving triple holds are the joins it makes now, found through the
same hash indexes as when it arrived, and the tokens built on a token are its row's joins at the
child node; so no token keeps links to its children or its triple, and a triple keeps no list of
its tokens. It is exact because a row names its chain and every stored token's triples are present.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.model.stream import Triple
from engines.sparkwave.alpha import AlphaMemory, key_getter, values_getter
from engines.sparkwave.bags import bag_items, held_add, held_find, held_remove, held_replace

INF = float("inf")
_ABSENT = object()


class Production:
    """A terminal node: the query's full mappings, counted by complete matches, and their changes in the current event.

    When every variable of the row is selected, a mapping has one match and is its row reordered: the
    memory's rows stand for the mappings, no count is kept (``memory`` given, ``counts`` None), and
    ``touched`` is keyed by row; ``mapping`` reorders a key only when an answer is reported.
    """

    def __init__(self, mapping_of: Callable, memory: BetaMemory | None = None) -> None:
        self.mapping_of = mapping_of
        self.memory = memory
        self.counts: dict[tuple, int] | None = {} if memory is None else None
        self.touched: dict[tuple, int] = {}  # mapping (or row) -> its count before the current event

    def add(self, row) -> None:
        if self.counts is None:
            self.touched.setdefault(row, 0)  # the row was not in the memory: a new match, a new mapping
            return
        mapping = self.mapping_of(row)
        count = self.counts.get(mapping, 0)
        if mapping not in self.touched:
            self.touched[mapping] = count
        self.counts[mapping] = count + 1

    def remove(self, row) -> None:
        if self.counts is None:
            self.touched.setdefault(row, 1)
            return
        mapping = self.mapping_of(row)
        count = self.counts[mapping]
        if mapping not in self.touched:
            self.touched[mapping] = count
        if count == 1:
            del self.counts[mapping]
        else:
            self.counts[mapping] = count - 1

    def holds(self, key: tuple) -> bool:
        return self.memory.has(key) if self.counts is None else key in self.counts

    def keys(self):
        """The present mappings (rows, when no count is kept)."""
        return self.memory.keys() if self.counts is None else self.counts.keys()

    def mapping(self, key: tuple) -> tuple:
        return self.mapping_of(key) if self.counts is None else key


class BetaMemory:
    """The tokens one join node made (the root: its one empty token), each a row and its until, indexed for each child.

    While the memory has no child its tokens are ``rows``, a dict from row to until (the last memory of a
    chain: its rows are the complete matches). From its first child on, ``rows`` is None and each token is
    one held row (the row's values, then until: ``engines.sparkwave.bags``) in every child's index, the
    first index standing for the memory: no dict from row to bound beside the indexes.
    """

    __slots__ = ("node", "depth", "width", "size", "rows", "indexes", "children", "productions")

    def __init__(self, node: JoinNode | None, depth: int, width: int) -> None:
        self.node = node  # the join node filling this memory (None: the root)
        self.depth = depth
        self.width = width  # the length of its rows
        self.size = 0
        self.rows: dict[tuple, float] | None = {}  # row -> until, while the memory has no child
        self.indexes: list[tuple] = []  # (key getter on rows, {key: bucket of held rows}), one per child
        self.children: list[JoinNode] = []
        self.productions: list[Production] = []

    def index_for(self, key_of) -> dict:
        """A new child's index of the tokens on ``key_of``; from now on the tokens are held rows in the indexes."""
        buckets: dict = {}
        width = self.width
        for held in self.held_rows():
            held_add(buckets, key_of(held), held, width)
        self.indexes.append((key_of, buckets))
        self.rows = None
        return buckets

    def held_rows(self) -> list[tuple]:
        """Every token as its held row (values, then until)."""
        if self.rows is not None:
            return [row + (until,) for row, until in self.rows.items()]
        return [held for bag in self.indexes[0][1].values() for held in bag_items(bag)]

    def untils(self) -> dict[tuple, float]:
        """Every token's row and until."""
        width = self.width
        return {held[:width]: held[width] for held in self.held_rows()}

    def has(self, row: tuple) -> bool:
        if self.rows is not None:
            return row in self.rows
        key_of, buckets = self.indexes[0]
        return held_find(buckets.get(key_of(row)), row, self.width) is not None

    def keys(self):
        """The rows of the tokens."""
        if self.rows is not None:
            return self.rows.keys()
        width = self.width
        return [held[:width] for held in self.held_rows()]

    def add(self, row: tuple, until, held: tuple | None = None) -> None:
        """The token ``row`` with its bound ``until``; ``held``: an equal held row to keep instead of a new one."""
        self.size += 1
        rows = self.rows
        if rows is not None:
            rows[row] = until
        else:
            width = self.width
            if held is None:
                held = row + (until,)
            for key_of, buckets in self.indexes:
                held_add(buckets, key_of(held), held, width)
        for production in self.productions:
            production.add(row)
        for child in self.children:
            child.left_activate(row, until)

    def delete(self, row: tuple) -> None:
        """Remove the token ``row`` and every token built on it (Rete retraction); an absent row is nothing to do."""
        rows = self.rows
        if rows is not None:
            if rows.pop(row, _ABSENT) is _ABSENT:
                return  # not made (refused or filtered), or already gone: a triple can hold two tokens of one chain
        else:
            width, indexes = self.width, self.indexes
            key_of, buckets = indexes[0]
            if not held_remove(buckets, key_of(row), row, width):
                return
            if len(indexes) > 1:
                for key_of, buckets in indexes[1:]:
                    held_remove(buckets, key_of(row), row, width)
            for child in self.children:
                child.left_retract(row)  # reads the α-memories and the children's memories, not this one
        self.size -= 1
        for production in self.productions:
            production.remove(row)

    def set_until(self, row: tuple, until) -> None:
        """Set the until of the token ``row`` (present)."""
        if self.rows is not None:
            self.rows[row] = until
            return
        held, width = row + (until,), self.width
        for key_of, buckets in self.indexes:
            held_replace(buckets, key_of(row), held, width)

    def refresh(self, row: tuple):
        """Recompute ``until`` along the chain of ``row`` (this memory's) from its triples' current stamps."""
        chain = []
        memory = self
        while memory.node is not None:
            chain.append(memory)
            memory = memory.node.parent
        until = INF
        for memory in reversed(chain):
            stamp = memory.node.stamp_of(row)
            if stamp < until:
                until = stamp
            memory.set_until(row[:memory.width], until)
        return until


class Clock:
    """The current instant (a timestamp; an event index for event windows), which every token's bound is tested against."""

    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now: float = -INF


class JoinNode:
    """Joins its parent memory's tokens with an α-memory's triples on the shared variables, in both directions."""

    __slots__ = ("parent", "alpha", "left_key", "right_key", "new_values", "new_item_values", "stamp_at", "item_rows",
                 "triple_of", "accept", "output", "clock", "tokens_refused", "parent_buckets", "alpha_buckets")

    def __init__(self, parent: BetaMemory, alpha: AlphaMemory, left_positions, right_positions, new_positions,
                 sources, accept, clock: Clock) -> None:
        self.parent = parent
        self.alpha = alpha
        self.left_key = key_getter(left_positions)
        self.right_key = key_getter(right_positions)
        self.new_values = values_getter(tuple(new_positions))  # the values a triple binds
        self.new_item_values = alpha.item_getter(new_positions)  # the same, read from its α item
        self.stamp_at = alpha.width  # an α item's stamp
        # a first join whose row is its triple's item values: a token is its triple's α item (values, then stamp)
        self.item_rows = parent.node is None and tuple(new_positions) == alpha.slots
        # the pattern's triple from a row: a constant, or the row position of the variable
        self.triple_of = lambda row: tuple(term if index is None else row[index] for term, index in sources)
        self.accept = accept
        self.output = BetaMemory(self, parent.depth + 1, parent.width + len(new_positions))
        self.clock = clock
        self.tokens_refused = 0
        self.parent_buckets = parent.index_for(self.left_key)  # the parent's tokens as held rows
        parent.children.append(self)
        # the root's one token never arrives again: a first join is only ever right-activated
        self.alpha_buckets = None if parent.node is None else alpha.index_on(tuple(right_positions))
        alpha.successors.append(self)
        alpha.successors.sort(key=lambda node: -node.output.depth)  # deepest first (Doorenbos): no match made twice

    def stamp_of(self, row: tuple):
        """The current stamp of the triple the token ``row`` (of this node's memory or below) holds here."""
        return self.alpha.find(self.triple_of(row))[self.stamp_at]

    def right_activate(self, triple: Triple, stamp, item: tuple) -> None:
        """The tokens ``triple`` (stamped ``stamp``, held as ``item`` by this node's α-memory) makes here."""
        bag = self.parent_buckets.get(self.right_key(triple))
        if bag is not None:
            width, new = self.parent.width, self.new_values(triple)
            if self.item_rows:  # the root's one token: the new token is the item itself
                self._make((), INF, new, stamp, item)
                return
            for held in bag_items(bag):
                self._make(held[:width], held[width], new, stamp)

    def left_activate(self, row: tuple, until) -> None:
        bag = self.alpha_buckets.get(self.left_key(row))
        if bag is not None:
            new_values, stamp_at = self.new_item_values, self.stamp_at
            for item in bag_items(bag):
                self._make(row, until, new_values(item), item[stamp_at])

    def right_retract(self, triple: Triple) -> None:
        """The tokens made here with ``triple`` leave: they are its joins with the parent memory (rematch)."""
        bag = self.parent_buckets.get(self.right_key(triple))
        if bag is not None:
            values, output, width = self.new_values(triple), self.output, self.parent.width
            for held in bag_items(bag):
                output.delete(held[:width] + values)

    def left_retract(self, row: tuple) -> None:
        """The tokens made here on the parent token ``row`` leave: they are its joins with the α-memory (rematch)."""
        bag = self.alpha_buckets.get(self.left_key(row))
        if bag is not None:
            new_values, output = self.new_item_values, self.output
            for item in bag_items(bag):
                output.delete(row + new_values(item))

    def _make(self, parent_row: tuple, parent_until, new: tuple, stamp, held: tuple | None = None) -> None:
        """The token of ``parent_row`` extended by the values ``new`` of a triple stamped ``stamp``, if in its windows.

        ``held``: the held row it would have (its triple's α item, for a first join), kept instead of a copy."""
        until = parent_until
        if stamp < until:
            until = stamp
        now = self.clock.now
        if until < now:
            if stamp < now:
                self.tokens_refused += 1
                return  # the triple itself has left its window
            until = self.parent.refresh(parent_row)  # the bound is stale: a triple was re-stamped
            if stamp < until:
                until = stamp
            if until < now:
                self.tokens_refused += 1
                return
        row = parent_row + new
        if self.accept is not None and not self.accept(row):
            return
        self.output.add(row, until, held)
