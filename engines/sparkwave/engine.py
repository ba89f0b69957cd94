"""The Sparkwave engine keeps its production's mappings equal to M(τ) after every event, and reports their change.

One event, in the engine's one thread (section 3.7):

1. ε-network: every update's triple is closed under the schema (``EpsilonNetwork.closure``).
2. Windows (sliding, tumbling, event): each closed triple already in working memory is re-stamped
   with the event's stamp (a derived triple carries its source's stamp; a triple's stamp is its
   latest source's, so it leaves with the last of them). Only then are the new ones inserted into
   the α-memories they pass, right-activating their join nodes: re-stamping first means no join
   of this event can miss a triple that this event brings back.
3. Collection (Algorithm 1): the triples whose stamp is before the window's start at this instant
   leave every α-memory, with the tokens built on them; the complete matches among those tokens
   are the removed matches. Each α-memory's queue of the items it owns (a WME's first memory owns
   it) is in time order (stamps only grow), so collection touches only what leaves.
4. Unbounded windows: updates apply in order; a triple's support counts its present sources (the
   static triples and the distinct streamed triples deriving it), and a delete that drops it to
   zero retracts the triple (Rete retraction). An insert of a present triple, or a delete of an
   absent one, changes nothing (sets, DESIGN.md section 2).
5. The production counts complete matches per mapping; the event's delta is the mappings whose
   count went from zero to positive or back, netted over the event. Its mappings are M(τ): nothing
   else keeps the reported answers.

The event window is a sliding window over event indexes: the clock is the event's index and the
window starts at it. Static triples go through the ε-network at construction, stamp None: never
collected and never in a token's interval; their answers are first reported at the first event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from sys import intern
from typing import ClassVar

from common.errors import EngineError, StreamError
from engines.model.stream import DELETE, NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, MultiDelta, check_supported
from engines.rdfs import RDF_TYPE
from engines.sparkwave.alpha import WorkingMemory, passing
from engines.sparkwave.bags import held_find
from engines.sparkwave.epsilon import EpsilonNetwork
from engines.sparkwave.expiry import ExpiryQueue
from engines.sparkwave.network import ReteNetwork

SPARKWAVE_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "event", "unbounded"}),
    deletions=True,
    entailment=frozenset({"none", "rdfs"}),
    static=True,
    filters=True,
    output="delta",
    shares="α-memories and join nodes of the queries with one window and entailment (one network per window)",
)


class SparkwaveEngine:
    """Sparkwave: an ε-network for RDFS and OWL inverse/symmetric entailment in front of a Rete network with time windows."""

    name: ClassVar[str] = "sparkwave"
    capabilities: ClassVar[Capabilities] = SPARKWAVE_CAPABILITIES

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        if options:
            raise EngineError(f"engine 'sparkwave' takes no options, got {', '.join(sorted(options))}")
        check_supported(type(self), query)
        # kept (not copied) to rebuild the network when queries are added
        self.static = static if isinstance(static, (tuple, list, set, frozenset)) else tuple(static)
        self.schema = tuple(schema)
        self._build((query,))

    def _build(self, queries: tuple[ContinuousQuery, ...]) -> None:
        """The network of ``queries`` (one window and entailment): a production each, shared α-memories and join nodes."""
        query = queries[0]
        self.query = query
        self.queries = self.network_queries = queries  # registered, and built into the network
        self.window = query.window
        self.rete = ReteNetwork()
        self.productions = [self.rete.add_production(q.patterns, q.filters, q.variables) for q in queries]
        self.production = self.productions[0]
        # without entailment the ε-network has no node, and every triple enters at the α root
        patterns = [pattern for q in queries for pattern in q.patterns]
        self.epsilon = EpsilonNetwork(self.schema if query.entailment == "rdfs" else (), patterns)
        for node in self.epsilon.nodes():
            is_class = node.kind == "C"
            node.alpha = None if node.term == RDF_TYPE and not is_class else (
                self.rete.alpha.wired(RDF_TYPE, node.term) if is_class else self.rete.alpha.wired(node.term)
            )
        self.wmes = WorkingMemory(self.rete.alpha)  # triple -> stamp (None: static), read from the α-memories
        self.support: dict[Triple, int] = {}  # unbounded: how many present sources derive each WME (and static ones)
        self.expiry = ExpiryQueue()  # windows: the stamped items in stamp order (Algorithm 1's collection)
        self.superseded = 0  # queued entries whose WME was re-stamped since (the collector skips them)
        self.present: set[Triple] = set()  # unbounded: the streamed triples in D(τ)
        self._last_ts: int | None = None
        self._first = True
        for triple in set(self.static):
            for closed, node in self.epsilon.closure(triple):
                self._support(closed, node, None)

    def add_query(self, query: ContinuousQuery) -> int:
        """Register a further query (``engines.sparkwave.query_set``): same window, same network."""
        from engines.sparkwave.query_set import add_query

        return add_query(self, query)

    # ------------------------------------------------------------------ working memory

    def _memories(self, triple: Triple, node) -> Sequence:
        candidates = node.alpha if node is not None and node.alpha is not None else self.rete.alpha.candidates(triple)
        return passing(candidates, triple)

    def _insert(self, triple: Triple, memories: Sequence, stamp: int | None) -> tuple:
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

    def _retract(self, triple: Triple) -> None:
        memories = self.rete.alpha.passed_by(triple)
        for memory in memories:
            for join in memory.successors:
                join.right_retract(triple)  # before the triple leaves the α-memories: rematch reads them
        for memory in memories:
            memory.remove(triple)

    def _support(self, triple: Triple, node, stamp: int | None) -> None:
        memories = self._memories(triple, node)
        if not memories:
            return  # it passes no α test: nothing holds it
        if memories[0].find(triple) is not None:
            self.support[triple] += 1
        else:
            self._insert(triple, memories, stamp)
            self.support[triple] = 1

    def _unsupport(self, triple: Triple) -> None:
        support = self.support.get(triple)
        if support is None:
            return  # it passes no α test: nothing holds it
        if support > 1:
            self.support[triple] = support - 1
        else:
            del self.support[triple]
            self._retract(triple)
            self.wmes.count -= 1

    # ------------------------------------------------------------------ events

    def push(self, event: Event) -> Delta | MultiDelta:
        if self.network_queries is not self.queries:  # queries were added: one build for all of them
            self._build(self.queries)
        if self._last_ts is not None and event.ts < self._last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self._last_ts}")
        self._last_ts = event.ts
        if self.window.kind == "unbounded":
            self._apply_updates(event)
        else:
            if any(update.op == DELETE for update in event.updates):
                raise StreamError(
                    f"event {event.index}: deletions are allowed with unbounded windows only, not {self.window.kind}"
                )
            now = event.index if self.window.kind == "event" else event.ts
            start = now if self.window.kind == "event" else self.window.start(now)
            self.rete.clock.window_start = start
            self._arrive(event, now)
            self._collect(start)
        return self._delta()

    def _arrive(self, event: Event, now: int) -> None:
        fresh: dict[Triple, list] = {}
        stamped: list[tuple] = []  # the items stamped now, and their owners' codes
        owners: list[int] = []
        memories_of = self._memories
        for update in event.updates:
            for triple, node in self.epsilon.closure(update.triple):
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
                stamp = item[owner.width]
                if stamp is not None and stamp < now:
                    self.superseded += 1  # its queued entry is stale from now on
                    stamped.append(owner.restamp(item, now))
                    owners.append(owner.code)
                    for memory in memories[1:]:
                        memory.restamp(memory.find(triple), now)
        for triple, memories in fresh.items():
            stamped.append(self._insert(triple, memories, now))
            owners.append(memories[0].code)
        if stamped:
            self.expiry.push(now, stamped, owners)

    def _collect(self, start: int) -> None:
        """Algorithm 1: every triple stamped before the window's start leaves, with its tokens."""
        expiry = self.expiry
        due = expiry.due(start)
        if not due:
            return
        memories, retract = self.rete.alpha.by_code, self._retract
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

    def _apply_updates(self, event: Event) -> None:
        present = self.present
        for update in event.updates:
            triple = update.triple
            if update.op == DELETE:
                if triple in present:
                    present.discard(triple)
                    for closed, _ in self.epsilon.closure(triple):
                        self._unsupport(closed)
            elif triple not in present:
                present.add(triple)
                for closed, node in self.epsilon.closure(triple):
                    self._support(closed, node, event.ts)

    def _delta(self) -> Delta | MultiDelta:
        first, self._first = self._first, False
        if len(self.productions) == 1:
            return self._production_delta(self.production, first)
        return MultiDelta([self._production_delta(production, first) for production in self.productions])

    def _production_delta(self, production, first: bool) -> Delta:
        touched = production.touched
        if first:  # before the first event nothing was reported: static answers appear now
            for key in touched:
                touched[key] = 0
            for key in production.keys():
                touched.setdefault(key, 0)
        if not touched:
            return NO_CHANGE
        added, removed = [], []
        for key, before in touched.items():
            if production.holds(key):
                if not before:
                    added.append(production.mapping(key))
            elif before:
                removed.append(production.mapping(key))
        touched.clear()
        return Delta(added=added, removed=removed) if added or removed else NO_CHANGE

    def answers(self, query_id: int = 0) -> Counter[Mapping]:
        """M(τ) after the last event: the production's mappings (none reported before the first event)."""
        if self._first:
            return Counter()
        production = self.productions[query_id]
        return Counter(dict.fromkeys(map(production.mapping, production.keys()), 1))

    def stats(self) -> dict[str, int]:
        return {
            **self.epsilon.stats(),
            **self.rete.stats(),
            "wmes": len(self.wmes),
            "expiry_queue": len(self.expiry),
            "answers": 0 if self._first else sum(len(production.keys()) for production in self.productions),
        }

