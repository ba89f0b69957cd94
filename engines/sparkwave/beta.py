"""The β-network (sections 3.2 and 3.5): join nodes make tokens, each a partial match whose τ_start is still in the window.

A token is ``(parent, triple)`` (section 3.2). It is kept as its row, the values its match binds in
the chain's order: the row is the parent's row extended by the values the triple binds, so it names
the parent (its prefix) and, through the join node's pattern, every triple of the chain; no two
tokens of one memory have the same row. A β-memory keeps each token with its ``τ_start`` (section
3.5): as a held row (the row, then ``τ_start``) in a hash index on each child join node's join
variables (no nested loops over a memory), or, in a memory with no child, as a dict from row to
``τ_start``. A first join's token is its triple's α item itself when the two are equal (the row is
the item's values and ``τ_start`` its stamp). A new token's ``τ_start`` is its parent's lowered to its triple's stamp; static
triples (stamp None) never lower it. A join node makes a token only when ``τ_start`` is still in the
window at the current instant, and only when the FILTERs whose variables are all bound by then hold.
``τ_end`` is not kept: no test reads it (the window test is on ``τ_start``, see the package notes).

Stamps only grow (a triple seen again, or derived again, is re-stamped), so a stored ``τ_start`` is a
lower bound of the true one. When the bound fails the test, the chain's triples are read back from
the row and the starts along it are refreshed; only if the fresh ``τ_start`` fails does the join
refuse. It fails exactly when the token holds a triple that left the window at this instant and that
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
    """The tokens one join node made (the root: its one empty token), each a row and its τ_start, indexed for each child.

    While the memory has no child its tokens are ``rows``, a dict from row to τ_start (the last memory of a
    chain: its rows are the complete matches). From its first child on, ``rows`` is None and each token is
    one held row (the row's values, then τ_start: ``engines.sparkwave.bags``) in every child's index, the
    first index standing for the memory: no dict from row to start beside the indexes.
    """

    __slots__ = ("node", "depth", "width", "size", "rows", "indexes", "children", "productions")

    def __init__(self, node: JoinNode | None, depth: int, width: int) -> None:
        self.node = node  # the join node filling this memory (None: the root)
        self.depth = depth
        self.width = width  # the length of its rows
        self.size = 0
        self.rows: dict[tuple, float] | None = {}  # row -> τ_start, until the first child
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
        """Every token as its held row (values, then τ_start)."""
        if self.rows is not None:
            return [row + (start,) for row, start in self.rows.items()]
        return [held for bag in self.indexes[0][1].values() for held in bag_items(bag)]

    def starts(self) -> dict[tuple, float]:
        """Every token's row and τ_start."""
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

    def add(self, row: tuple, start, held: tuple | None = None) -> None:
        """The token ``row`` with ``τ_start`` ``start``; ``held``: an equal held row to keep instead of a new one."""
        self.size += 1
        rows = self.rows
        if rows is not None:
            rows[row] = start
        else:
            width = self.width
            if held is None:
                held = row + (start,)
            for key_of, buckets in self.indexes:
                held_add(buckets, key_of(held), held, width)
        for production in self.productions:
            production.add(row)
        for child in self.children:
            child.left_activate(row, start)

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

    def restart(self, row: tuple, start) -> None:
        """Set the τ_start of the token ``row`` (present)."""
        if self.rows is not None:
            self.rows[row] = start
            return
        held, width = row + (start,), self.width
        for key_of, buckets in self.indexes:
            held_replace(buckets, key_of(row), held, width)

    def refresh(self, row: tuple):
        """Recompute ``τ_start`` along the chain of ``row`` (this memory's) from its triples' current stamps."""
        chain = []
        memory = self
        while memory.node is not None:
            chain.append(memory)
            memory = memory.node.parent
        start = INF
        for memory in reversed(chain):
            stamp = memory.node.stamp_of(row)
            if stamp is not None and stamp < start:
                start = stamp
            memory.restart(row[:memory.width], start)
        return start


class Clock:
    """The earliest stamp still in the window at the current instant (``-inf`` for unbounded windows)."""

    __slots__ = ("window_start",)

    def __init__(self) -> None:
        self.window_start: float = -INF


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
            if self.item_rows and stamp is not None:  # the root's one token: the new token is the item itself
                self._make((), INF, new, stamp, item)
                return
            for held in bag_items(bag):
                self._make(held[:width], held[width], new, stamp)

    def left_activate(self, row: tuple, start) -> None:
        bag = self.alpha_buckets.get(self.left_key(row))
        if bag is not None:
            new_values, stamp_at = self.new_item_values, self.stamp_at
            for item in bag_items(bag):
                self._make(row, start, new_values(item), item[stamp_at])

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

    def _make(self, parent_row: tuple, parent_start, new: tuple, stamp, held: tuple | None = None) -> None:
        """The token of ``parent_row`` extended by the values ``new`` of a triple stamped ``stamp``, if in the window.

        ``held``: the held row it would have (its triple's α item, for a first join), kept instead of a copy."""
        start = parent_start
        if stamp is not None and stamp < start:
            start = stamp
        window_start = self.clock.window_start
        if start < window_start:
            if stamp is not None and stamp < window_start:
                self.tokens_refused += 1
                return  # the triple itself has left the window
            start = self.parent.refresh(parent_row)  # the bound is stale: a triple was re-stamped
            if stamp is not None and stamp < start:
                start = stamp
            if start < window_start:
                self.tokens_refused += 1
                return
        row = parent_row + new
        if self.accept is not None and not self.accept(row):
            return
        self.output.add(row, start, held)
