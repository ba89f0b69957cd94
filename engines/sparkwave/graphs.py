"""A window graph keeps each WME of one graph once, in its own α-memories, stamped with the last instant it is in its window.

The graphs (DESIGN.md section 2). With one window a query's patterns match one graph, ``D(τ) ∪ S``: the
window's content with the static graph. Over named windows, the patterns of a ``WINDOW w_k`` block match
``D_k(τ)`` alone (the window ``w_k`` over its stream) and the patterns outside every block match the static
graph ``S`` alone, each closed with the schema apart. A graph is named by its ``GraphKey``: the stream it
reads (None: every event, the one stream of a one-window query), its window (None: no event enters, the
static graph alone), whether it holds the static graph, and its entailment. Patterns with one key match one
graph, whatever query they come from, so they read one set of α-memories. Each graph has its own ε-network
(from the schema and its own patterns: ``EpsilonNetwork``'s pre-processing sees only what the graph's
patterns test), α-network and collection queue; the β-network above them is one (``ReteNetwork``), and a
chain of join nodes may read α-memories of several graphs.

Stamps: the window bound carried by each WME (the paper's section 3.5 keeps the bound on each token). A
WME's stamp is the last instant at which it is in its window, computed once per event from the event by
the graph's window (``bound_of``): for ``sliding(ω, x)`` a triple of timestamp ``ts`` is in the window at
``τ`` while ``τ_b(τ) = (⌊(τ − ω)/x⌋ + 1)·x <= ts``, that is until ``τ = ⌊ts/x⌋·x + ω − 1``; for an event
window, the clock is the event index and a triple is in the window at its own event only; unbounded
windows and static triples: infinity. So bounds of triples of different windows compare on one clock, a
token's bound is the least of its triples' (``engines.sparkwave.beta``), and a triple leaves when the
current instant passes its stamp. A triple streamed again, or derived again, is re-stamped with the later
bound (its stamp is its latest source's: it leaves with the last of them). Stamps grow with the events
of one graph, so its collection queue stays in stamp order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from sys import intern
from typing import NamedTuple

from engines.model.stream import DELETE, Event, Triple, TriplePattern, Window
from engines.rdfs import RDF_TYPE
from engines.sparkwave.alpha import AlphaNetwork, WorkingMemory, passing
from engines.sparkwave.bags import held_find
from engines.sparkwave.beta import INF
from engines.sparkwave.epsilon import EpsilonNetwork
from engines.sparkwave.expiry import ExpiryQueue


class GraphKey(NamedTuple):
    """What names a graph: patterns with equal keys match the same WMEs."""

    stream: str | None  # the stream it reads; None: every event (one-window queries)
    window: Window | None  # None: the static graph alone, which no event enters
    static: bool  # whether the static graph is part of it
    entailment: str


def bound_function(window: Window | None) -> Callable[[Event], float]:
    """The stamp a triple of an event gets in a graph of ``window``: the last instant it is in the window."""
    if window is None or window.kind == "unbounded":
        return lambda event: INF
    if window.kind == "event":
        return lambda event: event.index
    slide, last_offset = window.slide_ms, window.range_ms - 1
    if slide == 1:
        return lambda event: event.ts + last_offset
    return lambda event: event.ts // slide * slide + last_offset


class WindowGraph:
    """One graph's WMEs: its ε-network, its α-memories (the working memory), and their collection queue."""

    def __init__(self, key: GraphKey) -> None:
        self.key = key
        self.stream = key.stream
        self.bound_of = bound_function(key.window)
        self.alpha = AlphaNetwork()
        self.patterns: list[TriplePattern] = []  # of every production reading this graph, gathered by the builder
        self.epsilon: EpsilonNetwork | None = None  # built by ``wire`` once every pattern is known
        self.wmes = WorkingMemory(self.alpha)  # triple -> stamp, read from the α-memories
        self.support: dict[Triple, int] = {}  # unbounded: how many present sources derive each WME (and static ones)
        self.present: set[Triple] = set()  # unbounded: the streamed triples in D(τ)
        self.expiry = ExpiryQueue()  # the stamped items in stamp order (Algorithm 1's collection)
        self.superseded = 0  # queued entries whose WME was re-stamped since (the collector skips them)

    def wire(self, schema: Sequence[Triple], static: Iterable[Triple]) -> None:
        """The ε-network from the schema (with ``rdfs``) and this graph's patterns, linked to its α-memories; the static triples in."""
        self.epsilon = EpsilonNetwork(schema if self.key.entailment == "rdfs" else (), self.patterns)
        for node in self.epsilon.nodes():
            is_class = node.kind == "C"
            node.alpha = None if node.term == RDF_TYPE and not is_class else (
                self.alpha.wired(RDF_TYPE, node.term) if is_class else self.alpha.wired(node.term)
            )
        if self.key.static:
            for triple in static:
                for closed, node in self.epsilon.closure(triple):
                    self.add_support(closed, node)

    # ------------------------------------------------------------------ working memory

    def memories(self, triple: Triple, node) -> Sequence:
        """The α-memories ``triple`` passes, found through its ε node's links or the α root."""
        candidates = node.alpha if node is not None and node.alpha is not None else self.alpha.candidates(triple)
        return passing(candidates, triple)

    def insert(self, triple: Triple, memories: Sequence, stamp) -> tuple:
        """A new WME into the α-memories it passes (``memories``), joins run deepest node first; its owner's item."""
        s, p, o = triple
        triple = (intern(s), intern(p), intern(o))  # one string per distinct term, however many batches bring it
        self.wmes.count += 1
        if len(memories) == 1:
            memory = memories[0]
            item = memory.add(memory.values_of(triple), stamp)
            for join in memory.successors:
                join.right_activate(triple, stamp, item)
            return item
        items = {memory: memory.add(memory.values_of(triple), stamp) for memory in memories}
        # deepest first across all its memories too (Doorenbos), or a join would make a token twice
        for join in sorted({join for memory in memories for join in memory.successors},
                           key=lambda join: -join.output.depth):
            join.right_activate(triple, stamp, items[join.alpha])
        return items[memories[0]]

    def retract(self, triple: Triple) -> None:
        memories = self.alpha.passed_by(triple)
        for memory in memories:
            for join in memory.successors:
                join.right_retract(triple)  # before the triple leaves the α-memories: rematch reads them
        for memory in memories:
            memory.remove(triple)

    def add_support(self, triple: Triple, node) -> None:
        """One more present source of ``triple`` (static, or streamed into an unbounded window): in at the first."""
        memories = self.memories(triple, node)
        if not memories:
            return  # it passes no α test: nothing holds it
        if memories[0].find(triple) is not None:
            self.support[triple] += 1
        else:
            self.insert(triple, memories, INF)
            self.support[triple] = 1

    def remove_support(self, triple: Triple) -> None:
        support = self.support.get(triple)
        if support is None:
            return  # it passes no α test: nothing holds it
        if support > 1:
            self.support[triple] = support - 1
        else:
            del self.support[triple]
            self.retract(triple)
            self.wmes.count -= 1

    # ------------------------------------------------------------------ events

    def arrive(self, event: Event) -> None:
        """A windowed event's triples and what they entail: re-stamped if held, then the new ones inserted."""
        stamp = self.bound_of(event)
        fresh: dict[Triple, list] = {}
        stamped: list[tuple] = []  # the items stamped now, and their owners' codes
        owners: list[int] = []
        memories_of, closure = self.memories, self.epsilon.closure
        for update in event.updates:
            for triple, node in closure(update.triple):
                memories = memories_of(triple, node)
                if not memories:
                    continue  # it passes no α test: not a WME
                owner = memories[0]
                _, triple_key, buckets = owner.home
                bag = buckets.get(triple_key(triple))
                item = None if bag is None else held_find(bag, owner.values_of(triple), owner.width)
                if item is None:
                    if triple not in fresh:
                        fresh[triple] = memories
                    continue
                if item[owner.width] < stamp:  # a static triple's stamp (infinite) never is
                    self.superseded += 1  # its queued entry is stale from now on
                    stamped.append(owner.restamp(item, stamp))
                    owners.append(owner.code)
                    for memory in memories[1:]:
                        memory.restamp(memory.find(triple), stamp)
        for triple, memories in fresh.items():
            stamped.append(self.insert(triple, memories, stamp))
            owners.append(memories[0].code)
        if stamped:
            self.expiry.push(stamp, stamped, owners)

    def collect(self, now) -> None:
        """Algorithm 1: every triple whose stamp is before the instant ``now`` leaves, with its tokens."""
        expiry = self.expiry
        due = expiry.due(now)
        if not due:
            return
        memories, retract = self.alpha.by_code, self.retract
        stale = 0
        if not self.superseded:  # no entry was superseded by a re-stamp: every due item is still held, as queued
            for item, owner in expiry.take(due):
                retract(memories[owner].triple_of(item))
        else:
            for item, owner in expiry.take(due):
                memory = memories[owner]
                item_key, _, buckets = memory.home
                bag = buckets.get(item_key(item))
                if bag is item or (bag is not None and type(bag) is not tuple
                                   and held_find(bag, item[:memory.width], memory.width) is item):
                    retract(memory.triple_of(item))
                else:
                    stale += 1  # re-stamped since: it leaves with its later entry
            self.superseded -= stale
        self.wmes.count -= due - stale

    def apply_updates(self, event: Event) -> None:
        """An unbounded window's updates in order: a triple's support counts its present sources (Rete retraction at zero)."""
        present = self.present
        for update in event.updates:
            triple = update.triple
            if update.op == DELETE:
                if triple in present:
                    present.discard(triple)
                    for closed, _ in self.epsilon.closure(triple):
                        self.remove_support(closed)
            elif triple not in present:
                present.add(triple)
                for closed, node in self.epsilon.closure(triple):
                    self.add_support(closed, node)

    def stats(self) -> dict[str, int]:
        return {**self.epsilon.stats(), "wmes": len(self.wmes), "expiry_queue": len(self.expiry)}
