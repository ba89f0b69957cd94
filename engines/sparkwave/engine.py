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
   are the removed matches. The queue of stamps is in time order (stamps only grow), so collection
   touches only what leaves.
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

from collections import Counter, deque
from collections.abc import Iterable
from sys import intern
from typing import ClassVar

from common.errors import EngineError, StreamError
from engines.model.stream import DELETE, NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, check_supported
from engines.rdfs import RDF_TYPE
from engines.sparkwave.epsilon import EpsilonNetwork
from engines.sparkwave.network import ReteNetwork

SPARKWAVE_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "event", "unbounded"}),
    deletions=True,
    entailment=frozenset({"none", "rdfs"}),
    static=True,
    filters=True,
    output="delta",
)


_ABSENT = object()


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
        self.query = query
        self.window = query.window
        self.rete = ReteNetwork()
        self.production = self.rete.add_production(query.patterns, query.filters, query.variables)
        # without entailment the ε-network has no node, and every triple enters at the α root
        self.epsilon = EpsilonNetwork(schema if query.entailment == "rdfs" else (), query.patterns)
        for node in self.epsilon.nodes():
            is_class = node.kind == "C"
            node.alpha = None if node.term == RDF_TYPE and not is_class else (
                self.rete.alpha.wired(RDF_TYPE, node.term) if is_class else self.rete.alpha.wired(node.term)
            )
        self.wmes = self.rete.stamps  # the working memory: triple -> stamp (None: static)
        self.support: dict[Triple, int] = {}  # unbounded: how many present sources derive each WME (and static ones)
        # the collection queue in time order: the triples stamped at each instant, flat, and per instant its
        # stamp and how many (no per-event container)
        self.expiry: deque[Triple] = deque()
        self.expiry_stamps: deque[int] = deque()
        self.expiry_counts: deque[int] = deque()
        self.present: set[Triple] = set()  # unbounded: the streamed triples in D(τ)
        self._last_ts: int | None = None
        self._first = True
        for triple in set(static):
            for closed, node in self.epsilon.closure(triple):
                self._support(closed, node, None)

    # ------------------------------------------------------------------ working memory

    def _memories(self, triple: Triple, node) -> list:
        candidates = node.alpha if node is not None and node.alpha is not None else self.rete.alpha.candidates(triple)
        return [memory for memory in candidates if memory.passes(triple)]

    def _insert(self, triple: Triple, node, stamp: int | None) -> Triple | None:
        """A new WME into the α-memories it passes, joins run deepest node first; its interned triple, None if it passes none."""
        memories = self._memories(triple, node)
        if not memories:
            return None
        s, p, o = triple
        triple = (intern(s), intern(p), intern(o))  # one string per distinct term, however many batches bring it
        self.wmes[triple] = stamp
        for memory in memories:
            memory.add(triple)
        if len(memories) == 1:
            joins = memories[0].successors
        else:  # deepest first across all its memories too (Doorenbos), or a join would make a token twice
            joins = sorted({join for memory in memories for join in memory.successors},
                           key=lambda join: -join.output.depth)
        for join in joins:
            join.right_activate(triple, stamp)
        return triple

    def _retract(self, triple: Triple) -> None:
        memories = self.rete.alpha.passed_by(triple)
        for memory in memories:
            for join in memory.successors:
                join.right_retract(triple)  # before the triple leaves the α-memories: rematch reads them
        for memory in memories:
            memory.remove(triple)
        del self.wmes[triple]

    def _support(self, triple: Triple, node, stamp: int | None) -> None:
        if triple in self.wmes:
            self.support[triple] += 1
            return
        triple = self._insert(triple, node, stamp)
        if triple is not None:
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

    # ------------------------------------------------------------------ events

    def push(self, event: Event) -> Delta:
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
        fresh: dict[Triple, object] = {}
        stamped: list[Triple] = []
        wmes = self.wmes
        for update in event.updates:
            for triple, node in self.epsilon.closure(update.triple):
                stamp = wmes.get(triple, _ABSENT)
                if stamp is _ABSENT:
                    fresh.setdefault(triple, node)
                elif stamp is not None and stamp < now:
                    s, p, o = triple
                    triple = (intern(s), intern(p), intern(o))
                    wmes[triple] = now
                    stamped.append(triple)
        for triple, node in fresh.items():
            triple = self._insert(triple, node, now)
            if triple is not None:
                stamped.append(triple)
        if stamped:
            self.expiry.extend(stamped)
            self.expiry_stamps.append(now)
            self.expiry_counts.append(len(stamped))

    def _collect(self, start: int) -> None:
        """Algorithm 1: every triple stamped before the window's start leaves, with its tokens."""
        expiry, stamps, counts, wmes = self.expiry, self.expiry_stamps, self.expiry_counts, self.wmes
        while stamps and stamps[0] < start:
            stamp = stamps.popleft()
            for _ in range(counts.popleft()):
                triple = expiry.popleft()
                if wmes.get(triple) == stamp:  # not re-stamped since (nor static, nor gone)
                    self._retract(triple)

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

    def _delta(self) -> Delta:
        production = self.production
        touched = production.touched
        if self._first:
            self._first = False  # before the first event nothing was reported: static answers appear now
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

    def answers(self) -> Counter[Mapping]:
        """M(τ) after the last event: the production's mappings (none reported before the first event)."""
        if self._first:
            return Counter()
        return Counter(dict.fromkeys(map(self.production.mapping, self.production.keys()), 1))

    def stats(self) -> dict[str, int]:
        return {
            **self.epsilon.stats(),
            **self.rete.stats(),
            "wmes": len(self.wmes),
            "expiry_queue": len(self.expiry),
            "answers": 0 if self._first else len(self.production.keys()),
        }

