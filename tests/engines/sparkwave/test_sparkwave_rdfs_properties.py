"""Under --entailment rdfs, with schema and static data, sparkwave equals reeval at every instant, and its ε-network's closure is the oracle's.

tests/test_differential.py draws no schema and no entailment, so the RDFS regime is checked here:
every engine that declares ``rdfs`` is compared with ``reeval`` (itself held to both oracles with
rdfs by tests/test_properties.py) on random streams of every window kind, with static data and
random schemas of all six axiom kinds. The ε-network alone is compared triple by triple with the
shared closure (``engines.rdfs``) and with the oracle's owlrl closure; a reduced network must keep
every entailed triple that a pattern of its query can match.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.model.stream import Window
from engines.rdfs import Schema
from engines.registry import get_engine, known_engines
from engines.sparkwave.epsilon import EpsilonNetwork
from harness.engines_setup import build_engine
from oracles.entailment import Entailer
from tests.strategies import CLASSES, NODES, PREDICATES, TYPE, queries, schemas, streams, triples, windows

RDFS_ENGINES = [
    name for name in known_engines()
    if name != "reeval" and get_engine(name).capabilities.matches and "rdfs" in get_engine(name).capabilities.entailment
    and name != "oxigraph"  # oxigraph merges numeric literals (tests/engines/test_oxigraph_divergence.py)
]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EVERYTHING = [("?s", "?p", "?o")]


def _trace(name, query, stream):
    engine = build_engine(name, query, stream)
    held: set = set()
    for event in stream.events:
        delta = engine.push(event)
        assert not set(delta.added) & held, f"{name} added an answer it held"
        assert set(delta.removed) <= held, f"{name} removed an answer it did not hold"
        held = (held - set(delta.removed)) | set(delta.added)
        assert held == set(engine.answers())
        yield event.index, frozenset(held)


@pytest.mark.parametrize("engine_name", RDFS_ENGINES)
@FAST
@given(data=st.data())
def test_rdfs_answers_equal_reeval(engine_name, data):
    window = data.draw(windows())
    stream = data.draw(streams(deletions=window.kind == "unbounded", static=True, schema=True,
                               type_links=data.draw(st.booleans())))  # issue 21: rdf:type in the property hierarchy
    query = data.draw(queries(window, entailment="rdfs"))
    expected = list(_trace("reeval", query, stream))
    for (index, got), (_, want) in zip(_trace(engine_name, query, stream), expected, strict=True):
        assert got == want, f"{engine_name} at event {index}: missing {want - got}, extra {got - want}"


def _network_closure(network: EpsilonNetwork, triple) -> set:
    closed = [t for t, _ in network.closure(triple)]
    assert len(closed) == len(set(closed)), "the ε-network delivered a triple twice"
    return set(closed)


@FAST
@given(schema=st.booleans().flatmap(lambda type_links: schemas(type_links=type_links)), triple=triples)
def test_full_network_closure_is_the_shared_closure_and_the_oracles(schema, triple):
    network = EpsilonNetwork(schema, EVERYTHING)
    closed = _network_closure(network, triple)
    assert closed == set(Schema(schema).consequences(triple))
    assert closed == set(Entailer(schema).triple_closure(triple))


def _matches(pattern, triple) -> bool:
    binding: dict = {}
    for term, value in zip(pattern, triple):
        if term[0] == "?":
            if binding.setdefault(term, value) != value:
                return False
        elif term != value:
            return False
    return True


def _check_reduced_network(schema, patterns, triple) -> None:
    reduced = _network_closure(EpsilonNetwork(schema, patterns), triple)
    full = set(Schema(schema).consequences(triple))
    assert reduced <= full
    for pattern in patterns:
        assert {t for t in full if _matches(pattern, t)} <= reduced, f"{triple}: pattern {pattern} lost a match"


@FAST
@given(data=st.data(), schema=schemas(), triple=triples)
def test_reduced_network_keeps_every_triple_a_pattern_can_match(data, schema, triple):
    query = data.draw(queries(Window("unbounded"), entailment="rdfs"))
    _check_reduced_network(schema, query.patterns, triple)


# every property with a class as object, and every type: the triples a schema around rdf:type acts on
PROBES = [(NODES[0], predicate, cls) for predicate in (*PREDICATES, TYPE) for cls in CLASSES]


@FAST
@given(data=st.data(), schema=schemas(type_links=True))
def test_reduced_network_with_rdf_type_in_the_property_hierarchy(data, schema):
    # issue 21: with isA ⊑ rdf:type ⊑ cat and no pattern on rdf:type, the reduction dropped rdf:type's node,
    # and (u isA A) lost (u cat C) for A ⊑ C; rare in the test above, so drawn here every time with every probe
    query = data.draw(queries(Window("unbounded"), entailment="rdfs"))
    for triple in PROBES:
        _check_reduced_network(schema, query.patterns, triple)
