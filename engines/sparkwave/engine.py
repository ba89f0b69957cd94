"""The Sparkwave engine keeps its productions' mappings equal to M(τ) after every event, and reports their change.

One event, in the engine's one thread (section 3.7), for each graph that reads the event's stream
(``engines.sparkwave.graphs``: the one window, or each named window over that stream):

1. ε-network: every update's triple is closed under the schema (``EpsilonNetwork.closure``).
2. Windows (sliding, tumbling, event): each closed triple already in working memory is re-stamped
   with the event's bound in the graph's window, the last instant it stays in (a derived triple
   carries its source's; a triple's stamp is its latest source's, so it leaves with the last of
   them). Only then are the new ones inserted into the α-memories they pass, right-activating their
   join nodes: re-stamping first means no join of this event can miss a triple that this event
   brings back. A join tests each token's own bound against the instant (``beta``), so one chain
   joins triples of windows of different ranges over different streams.
3. Collection (Algorithm 1), in every windowed graph, read or not: the triples whose stamp is before
   the current instant leave every α-memory, with the tokens built on them (an event on one stream
   can empty another stream's window); the complete matches among those tokens are the removed
   matches. A graph's queue of the items it stamped is in stamp order (stamps only grow in one
   graph), so collection touches only what leaves.
4. Unbounded windows: updates apply in order; a triple's support counts its present sources (the
   static triples and the distinct streamed triples deriving it), and a delete that drops it to
   zero retracts the triple (Rete retraction). An insert of a present triple, or a delete of an
   absent one, changes nothing (sets, DESIGN.md section 2).
5. Each production counts complete matches per mapping; the event's delta is the mappings whose
   count went from zero to positive or back, netted over the event. Its mappings are M(τ): nothing
   else keeps the reported answers.

The instant is the event's timestamp, or its index for an event window (a sliding window over event
indexes, whose triples stay for their own event only). Static triples go through the ε-network of
each graph holding the static data at the first build, stamp infinite: never collected and never
lowering a token's bound; their answers are first reported at the first event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from common.errors import EngineError, StreamError
from engines.model.stream import DELETE, NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities, MultiDelta, check_supported
from engines.sparkwave.graphs import GraphKey, WindowGraph
from engines.sparkwave.network import ReteNetwork

SPARKWAVE_CAPABILITIES = Capabilities(
    windows=frozenset({"sliding", "event", "unbounded"}),
    deletions=True,
    entailment=frozenset({"none", "rdfs"}),
    static=True,
    filters=True,
    output="delta",
    shares="α-memories and join nodes of patterns over the same graph; one network for all time-window queries "
           "(window bounds per token), one per event or unbounded window",
    streams=64,  # named windows: a graph each, under one β-network; no limit of its design
)


def graph_keys(query: ContinuousQuery) -> list[GraphKey]:
    """The key of the graph each pattern of ``query`` matches (DESIGN.md section 2, Several streams)."""
    if not query.named_windows:
        return [GraphKey(None, query.window, True, query.entailment)] * len(query.patterns)
    static = GraphKey(None, None, True, query.entailment)
    return [static if k is None else GraphKey(query.named_windows[k].stream, query.named_windows[k].window, False,
                                              query.entailment)
            for k in query.pattern_windows]


def network_kind(query: ContinuousQuery) -> str:
    """Which queries one network can hold: time windows (sliding, tumbling, named) share one clock, the timestamp."""
    return "named" if query.named_windows else query.window.kind


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
        """The network of ``queries`` (of one kind): a production each, over the graphs their patterns match."""
        query = queries[0]
        self.query = query
        self.queries = self.network_queries = queries  # registered, and built into the network
        self.window = query.window
        self.kind = query.window.kind  # named windows are sliding: their clock is the timestamp
        self.rete = ReteNetwork()
        graphs: dict[GraphKey, WindowGraph] = {}
        self.productions = []
        for q in queries:
            keys = graph_keys(q)
            for key, pattern in zip(keys, q.patterns, strict=True):
                graphs.setdefault(key, WindowGraph(key)).patterns.append(pattern)
            alphas = [graphs[key].alpha for key in keys]
            self.productions.append(self.rete.add_production(q.patterns, q.filters, q.variables, alphas))
        self.production = self.productions[0]
        static = set(self.static) if any(key.static for key in graphs) else ()
        for graph in graphs.values():  # after every production: an ε node links to the α-memories made by then
            graph.wire(self.schema, static)
        self.graphs = list(graphs.values())
        self.windowed = [graph for graph in self.graphs if graph.key.window is not None]
        self._readers: dict[str, list[WindowGraph]] = {}
        self._last_ts: int | None = None
        self._first = True

    def add_query(self, query: ContinuousQuery) -> int:
        """Register a further query (``engines.sparkwave.query_set``): one network for the queries of one kind."""
        from engines.sparkwave.query_set import add_query

        return add_query(self, query)

    # ------------------------------------------------------------------ events

    def readers(self, event: Event) -> list[WindowGraph]:
        """The windowed graphs an event enters: those over its stream, and those of one-window queries (every event)."""
        found = [graph for graph in self.windowed if graph.stream is None or graph.stream == event.stream]
        if not found and not event.stream:  # one stream fed as is, not the harness's merge
            raise StreamError(f"event {event.index} comes from stream '', which no named window reads: a query over "
                              "named windows reads its streams merged")
        # a stream no window reads (another registered query's, in a cgpm merge) only moves the clock: windows expire
        self._readers[event.stream] = found
        return found

    def push(self, event: Event) -> Delta | MultiDelta:
        if self.network_queries is not self.queries:  # queries were added: one build for all of them
            self._build(self.queries)
        if self._last_ts is not None and event.ts < self._last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self._last_ts}")
        self._last_ts = event.ts
        if self.kind == "unbounded":
            for graph in self.windowed:
                graph.apply_updates(event)
        else:
            if any(update.op == DELETE for update in event.updates):
                raise StreamError(
                    f"event {event.index}: deletions are allowed with unbounded windows only, not {self.window.kind}"
                )
            now = event.index if self.kind == "event" else event.ts
            self.rete.clock.now = now
            readers = self._readers.get(event.stream)
            for graph in self.readers(event) if readers is None else readers:
                graph.arrive(event)
            for graph in self.windowed:
                graph.collect(now)
        return self._delta()

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
        graphs: Counter[str] = Counter()
        for graph in self.graphs:
            graphs.update(graph.stats())
        return {
            **graphs,
            **self.rete.stats(),
            "answers": 0 if self._first else sum(len(production.keys()) for production in self.productions),
        }

