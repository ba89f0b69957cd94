"""M(τ_i) after every event (or at chosen events), re-evaluated from scratch by an oracle as the stream passes once: what every engine is judged against.

At each instant the window content D(τ_i) comes from ``oracles.window`` (a ``PassingWindow``, which
holds the window's events and nothing older); G = D ∪ S (the static graph), closed under
``oracles.entailment`` when the query asks for ``rdfs`` with the stream's schema; the oracle
(``rdflib``, the reference; ``plain``, the independent second oracle; or ``oxigraph``, a further
cross-check where it keeps term identity) evaluates the query over G from scratch. Only the *content* is maintained incrementally (the oracle's graph is updated by
difference at each evaluated instant, with the triples that entered and left since the last); the
query is always evaluated anew. A query over named windows gets each window's graph D_k(τ_i) from
``oracles.named_windows`` and the static graph apart, each closed on its own (rdflib and plain take
it; oxigraph and Spark say they cannot).

G(τ) is held as a count per triple (``InstantGraph``): a window triple counts once for each triple of its
closure (itself alone without entailment: the closure of a graph is the union of its triples' closures),
each triple of the static graph, closed on its own, once for good. A triple is in G while its count is
positive, so an entailed triple stays while any window triple entailing it does, and a static triple
never leaves; nothing is kept for a triple no longer in G.

``OracleRun`` is pushed the events one by one (``cgpm verify`` pushes the events its engine reads, so
the stream is read once); ``oracle_answers`` runs one over a stream's events itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from common.errors import ConfigError, WindowError
from engines.model.stream import ContinuousQuery, Event, Mapping, Triple
from oracles.entailment import Entailer
from oracles.named_windows import PassingNamedWindows
from oracles.oxigraph_oracle import OxigraphOracle
from oracles.plain_oracle import PlainOracle
from oracles.rdflib_oracle import RdflibOracle
from oracles.window import PassingWindow

ORACLES = {"rdflib": RdflibOracle, "plain": PlainOracle, "oxigraph": OxigraphOracle}


def _oracle(name: str, query: ContinuousQuery):
    try:
        return ORACLES[name](query)
    except KeyError:
        raise ConfigError(f"unknown oracle {name!r}; expected one of {', '.join(ORACLES)}") from None


def answers_over_graph(
    query: ContinuousQuery, triples: Iterable[Triple], oracle: str = "rdflib", schema: Iterable[Triple] = ()
) -> frozenset[Mapping]:
    """M over one graph (closed with ``schema`` when the query's entailment is ``rdfs``)."""
    evaluator = _oracle(oracle, query)
    graph = frozenset(triples)
    if query.entailment == "rdfs":
        graph = Entailer(schema).close(graph)
    evaluator.set_content(graph)
    return evaluator.answers()


class InstantGraph:
    """One graph of the query (the default graph, or a named window's) as counts over its closure."""

    def __init__(self, static: Iterable[Triple] = (), entailer: Entailer | None = None) -> None:
        self.entailer = entailer
        self.count: dict[Triple, int] = {}
        closed = entailer.close(static) if entailer is not None else frozenset(static)
        for triple in closed:
            self.count[triple] = 1
        self.pending: list[Triple] = sorted(closed)  # the static graph, added at the first call

    def _closure(self, triple: Triple) -> Iterable[Triple]:
        return (triple,) if self.entailer is None else self.entailer.triple_closure(triple)

    def apply(self, entered: Iterable[Triple], left: Iterable[Triple]) -> tuple[list[Triple], list[Triple]]:
        """(added, removed): the triples of G that ``entered`` window triples brought in and ``left`` ones took out."""
        crossed: dict[Triple, bool] = {}  # triple -> was it in G before this call
        count = self.count
        for triple in left:
            for entailed in self._closure(triple):
                held = count[entailed] - 1
                if held:
                    count[entailed] = held
                else:
                    del count[entailed]
                    crossed.setdefault(entailed, True)
        for triple in entered:
            for entailed in self._closure(triple):
                held = count.get(entailed, 0)
                count[entailed] = held + 1
                if not held:
                    crossed.setdefault(entailed, False)
        added = self.pending + [triple for triple, was in crossed.items() if not was and triple in count]
        removed = [triple for triple, was in crossed.items() if was and triple not in count]
        self.pending = []
        return added, removed


class OracleRun:
    """One query's oracle over a stream pushed event by event: the window and G held as counts, M(τ) evaluated when asked."""

    def __init__(self, query: ContinuousQuery, static: Iterable[Triple] = (), schema: Iterable[Triple] = (),
                 oracle: str = "rdflib") -> None:
        self.evaluator = _oracle(oracle, query)
        entailer = Entailer(schema) if query.entailment == "rdfs" else None
        self.named = bool(query.named_windows)
        if self.named:
            self.window = PassingNamedWindows(query.named_windows)
            self.static = InstantGraph(static, entailer)
            self.graphs = [InstantGraph((), entailer) for _ in query.named_windows]
        else:
            self.window = PassingWindow(query.window)
            self.graphs = [InstantGraph(static, entailer)]
        self._answers: frozenset[Mapping] | None = None

    def push(self, event: Event) -> None:
        """Process ``event``: the window becomes D(τ) just after it."""
        self.window.push(event)
        self._answers = None

    def answers(self) -> frozenset[Mapping]:
        """M(τ) after the last event pushed (M over the static graph alone before the first)."""
        if self._answers is not None:
            return self._answers
        if self.named:
            added, _ = self.static.apply((), ())
            self.evaluator.update(added, ())
            for k, (window, graph) in enumerate(zip(self.window.windows, self.graphs, strict=True)):
                self.evaluator.update(*graph.apply(*window.changes()), window=k)
        else:
            self.evaluator.update(*self.graphs[0].apply(*self.window.changes()))
        self._answers = self.evaluator.answers()
        return self._answers


def _targets(instants: Iterable[int] | None) -> Iterator[int] | None:
    """The wanted event indices in increasing order: a collection is sorted; an iterator is taken as it comes, increasing."""
    if instants is None:
        return None
    if isinstance(instants, (list, tuple, set, frozenset)):
        return iter(sorted(set(instants)))
    return iter(instants)


def oracle_answers(
    query: ContinuousQuery, stream, instants: Iterable[int] | None = None, oracle: str = "rdflib"
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(event_index, ts, M(τ))`` after each event, or only after the events whose indices are given, in one pass of ``stream.events``.

    ``stream`` is a ``Stream`` or anything with ``events`` (read once, in order), ``static`` and ``schema``."""
    run = OracleRun(query, stream.static, stream.schema, oracle)
    targets = _targets(instants)
    target = None if targets is None else next(targets, None)
    for event in stream.events:
        if targets is not None:
            if target is None:
                return
            if event.index > target:
                break
        run.push(event)
        if targets is None or event.index == target:
            yield event.index, event.ts, run.answers()
            if targets is not None:
                following = next(targets, None)
                if following is not None and following <= target:
                    raise WindowError(f"instants must increase: {following} after {target}")
                target = following
    if target is not None:
        raise WindowError(f"no event with index {target} in the stream")
