"""The β-network (sections 3.2 and 3.5): join nodes make tokens, each a partial match whose interval can still be in the window.

A token is ``(parent, wme)`` (section 3.2), with the row of values its match binds (kept so that
hash keys and FILTERs read it without walking the chain) and its interval ``[τ_start, τ_end]``
(section 3.5): a new token's interval is its parent's widened by its triple's stamp; static
triples (stamp None) never widen it. A join node makes a token only when ``τ_start`` is still in
the window at the current instant, and only when the FILTERs whose variables are all bound by
then hold.

Stamps only grow (a triple seen again, or derived again, is re-stamped), so a stored interval's
``τ_start`` is a lower bound of the true one. When the bound fails the test, the token's chain is
walked and the intervals along it are refreshed; only if the fresh ``τ_start`` fails does the join
refuse. It fails exactly when the token holds a triple that left the window at this instant and
that the collector has not taken yet (the engine collects after the event's joins, as Sparkwave's
collector runs behind the matcher).

Memories are hash tables on the join variables, one per child join node (no nested loops over a
memory). Retraction (section 3.7) deletes a token with its descendants; each token is filed under
its parent (children), its triple (``wme.tokens``) and its memory's indexes.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.sparkwave.alpha import WME, AlphaMemory, key_getter

INF = float("inf")


class Token:
    __slots__ = ("parent", "wme", "row", "start", "end", "children", "memory")

    def __init__(self, parent, wme, row, start, end, memory) -> None:
        self.parent = parent
        self.wme = wme
        self.row = row
        self.start = start
        self.end = end
        self.children: set | None = None
        self.memory = memory


def refresh(token: Token) -> None:
    """Recompute the intervals along ``token``'s chain from the current stamps of its triples."""
    chain = []
    while token.wme is not None:
        chain.append(token)
        token = token.parent
    start, end = INF, -INF
    for link in reversed(chain):
        stamp = link.wme.stamp
        if stamp is not None:
            if stamp < start:
                start = stamp
            if stamp > end:
                end = stamp
        link.start, link.end = start, end


class Production:
    """A terminal node: the query's full mappings, counted by complete matches, and their changes in the current event."""

    def __init__(self, mapping_of: Callable) -> None:
        self.mapping_of = mapping_of
        self.counts: dict[tuple, int] = {}
        self.touched: dict[tuple, int] = {}  # mapping -> its count before the current event

    def add(self, row) -> None:
        mapping = self.mapping_of(row)
        count = self.counts.get(mapping, 0)
        if mapping not in self.touched:
            self.touched[mapping] = count
        self.counts[mapping] = count + 1

    def remove(self, row) -> None:
        mapping = self.mapping_of(row)
        count = self.counts[mapping]
        if mapping not in self.touched:
            self.touched[mapping] = count
        if count == 1:
            del self.counts[mapping]
        else:
            self.counts[mapping] = count - 1


class BetaMemory:
    """The tokens one join node made (or the root's one empty token), indexed for each child join node."""

    __slots__ = ("depth", "size", "indexes", "children", "productions")

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.size = 0
        self.indexes: list[tuple] = []  # (key getter on rows, {key: set of tokens}), one per child
        self.children: list[JoinNode] = []
        self.productions: list[Production] = []

    def add(self, token: Token) -> None:
        self.size += 1
        row = token.row
        for key_of, buckets in self.indexes:
            key = key_of(row)
            bucket = buckets.get(key)
            if bucket is None:
                buckets[key] = {token}
            else:
                bucket.add(token)
        for production in self.productions:
            production.add(row)
        for child in self.children:
            child.left_activate(token)

    def remove(self, token: Token) -> None:
        self.size -= 1
        row = token.row
        for key_of, buckets in self.indexes:
            key = key_of(row)
            bucket = buckets[key]
            bucket.discard(token)
            if not bucket:
                del buckets[key]
        for production in self.productions:
            production.remove(row)


class Clock:
    """The earliest stamp still in the window at the current instant (``-inf`` for unbounded windows)."""

    __slots__ = ("window_start",)

    def __init__(self) -> None:
        self.window_start: float = -INF


class JoinNode:
    """Joins its parent memory's tokens with an α-memory's triples on the shared variables, in both directions."""

    __slots__ = ("parent", "alpha", "left_key", "right_key", "new_positions", "accept", "output", "clock",
                 "tokens_refused", "parent_buckets", "alpha_buckets")

    def __init__(self, parent: BetaMemory, alpha: AlphaMemory, left_positions, right_positions, new_positions,
                 accept, clock: Clock) -> None:
        self.parent = parent
        self.alpha = alpha
        self.left_key = key_getter(left_positions)
        self.right_key = key_getter(right_positions)
        self.new_positions = tuple(new_positions)
        self.accept = accept
        self.output = BetaMemory(parent.depth + 1)
        self.clock = clock
        self.tokens_refused = 0
        self.parent_buckets: dict = {}
        parent.indexes.append((self.left_key, self.parent_buckets))
        parent.children.append(self)
        self.alpha_buckets = alpha.index_on(tuple(right_positions))
        alpha.successors.append(self)
        alpha.successors.sort(key=lambda node: -node.output.depth)

    def right_activate(self, wme: WME) -> None:
        bucket = self.parent_buckets.get(self.right_key(wme.triple))
        if bucket:
            for parent in list(bucket):
                self._make(parent, wme)

    def left_activate(self, token: Token) -> None:
        bucket = self.alpha_buckets.get(self.left_key(token.row))
        if bucket:
            for wme in list(bucket):
                self._make(token, wme)

    def _make(self, parent: Token, wme: WME) -> None:
        start, end, stamp = parent.start, parent.end, wme.stamp
        if stamp is not None:
            if stamp < start:
                start = stamp
            if stamp > end:
                end = stamp
        window_start = self.clock.window_start
        if start < window_start:
            if stamp is not None and stamp < window_start:
                self.tokens_refused += 1
                return  # the triple itself has left the window
            refresh(parent)  # the parent's bound is stale: a triple of it was re-stamped
            start, end = parent.start, parent.end
            if stamp is not None:
                start, end = min(start, stamp), max(end, stamp)
            if start < window_start:
                self.tokens_refused += 1
                return
        triple = wme.triple
        row = parent.row + tuple(triple[i] for i in self.new_positions)
        if self.accept is not None and not self.accept(row):
            return
        token = Token(parent, wme, row, start, end, self.output)
        if parent.children is None:
            parent.children = {token}
        else:
            parent.children.add(token)
        wme.tokens.add(token)
        self.output.add(token)


def delete_token(token: Token) -> None:
    """Remove a token and every token built on it from their memories (Rete retraction); a second call does nothing."""
    memory = token.memory
    if memory is None:
        return  # already gone: one triple can hold two tokens of one chain (a pattern joined with itself)
    token.memory = None
    if token.children:
        for child in list(token.children):
            delete_token(child)
    memory.remove(token)
    siblings = token.parent.children
    if siblings is not None:
        siblings.discard(token)
    token.wme.tokens.discard(token)
