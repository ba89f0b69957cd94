"""M(τ_i) after every event (or at chosen events), re-evaluated from scratch by an oracle: what every engine is judged against.

At each instant the window content D(τ_i) comes from ``oracles.window``; G = D ∪ S (the static
graph), closed under ``oracles.entailment`` when the query asks for ``rdfs`` with the stream's
schema; the oracle (``rdflib``, the reference; ``plain``, the independent second oracle; or
``oxigraph``, a further cross-check where it keeps term identity) evaluates the query over G from
scratch. Only the *content* is maintained incrementally (the oracle's graph is updated by
difference, the closure of each triple is cached); the query is always evaluated anew. A query over
named windows gets each window's graph D_k(τ_i) from ``oracles.named_windows`` and the static graph
apart, each closed on its own (rdflib and plain take it; oxigraph and Spark say they cannot).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from common.errors import ConfigError, WindowError
from engines.model.stream import ContinuousQuery, Mapping, Stream, Triple
from oracles.entailment import Entailer
from oracles.named_windows import named_window_contents
from oracles.oxigraph_oracle import OxigraphOracle
from oracles.plain_oracle import PlainOracle
from oracles.rdflib_oracle import RdflibOracle
from oracles.window import window_contents

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


def oracle_answers(
    query: ContinuousQuery, stream: Stream, instants: Iterable[int] | None = None, oracle: str = "rdflib"
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(event_index, ts, M(τ))`` after each event, or only after the events whose indices are given."""
    evaluator = _oracle(oracle, query)
    events = stream.events
    positions = None
    if instants is not None:
        position_of = {event.index: position for position, event in enumerate(events)}
        wanted = sorted(set(instants))
        missing = [index for index in wanted if index not in position_of]
        if missing:
            raise WindowError(f"no event with index {missing[0]} in the stream")
        positions = [position_of[index] for index in wanted]
    entailer = Entailer(stream.schema) if query.entailment == "rdfs" else None
    static = frozenset(stream.static)
    if entailer is not None:
        static = entailer.close(static)
    if query.named_windows:
        for position, contents in named_window_contents(events, query.named_windows, positions):
            graphs = [entailer.close(content) for content in contents] if entailer is not None else contents
            evaluator.set_graphs(static, graphs)
            event = events[position]
            yield event.index, event.ts, evaluator.answers()
        return
    for position, content in window_contents(events, query.window, positions):
        graph = (entailer.close(content) | static) if entailer is not None else (content | static)
        evaluator.set_content(graph)
        event = events[position]
        yield event.index, event.ts, evaluator.answers()
