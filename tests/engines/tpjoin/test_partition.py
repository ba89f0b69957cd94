"""Algorithm 1: predicates, constants, repeated variables and atomic FILTERs prune at partitioning; complex FILTERs wait for the join."""

from __future__ import annotations

from engines.tpjoin.dictionary import SynchronisedDictionary
from engines.tpjoin.event import TPJoinEventEngine
from engines.tpjoin.incremental import TPJoinIncrementalEngine
from engines.tpjoin.partition import Partitioner, shape_patterns

from .helpers import event, integer, iri, mapping, query


def _at(text: str, pattern: str) -> int:
    """The index of ``pattern`` ("?h :weather ?w") in the parsed query (the reader orders the patterns)."""
    wanted = tuple(item if item.startswith("?") else iri(item[1:]) for item in pattern.split())
    return query(text).patterns.index(wanted)


def _partitioner(text: str) -> tuple[Partitioner, SynchronisedDictionary, list]:
    q = query(text)
    shapes, complex_filters = shape_patterns(q)
    constants = [item for pattern in q.patterns for item in pattern if not item.startswith("?")]
    dictionary = SynchronisedDictionary(constants)
    return Partitioner(shapes, dictionary), dictionary, complex_filters


def test_predicate_constant_and_atomic_filter_prune_before_the_views():
    text = "?h :weather ?w . ?h :power ?v . ?h :owner :alice . FILTER(?w = :sunny) FILTER(?v > 10)"
    partitioner, dictionary, complex_filters = _partitioner(text)
    weather, power, owner = (_at(text, p) for p in ("?h :weather ?w", "?h :power ?v", "?h :owner :alice"))
    assert complex_filters == []
    assert partitioner.predicates == frozenset(iri(p) for p in ("weather", "power", "owner"))  # what pass 1 keeps
    size = len(dictionary)
    assert partitioner.route(iri("h1"), iri("colour"), iri("red")) is None  # pass 1: predicate
    assert len(dictionary) == size  # a triple dropped in pass 1 is never encoded
    assert partitioner.route(iri("h1"), iri("weather"), iri("raining")) is None  # pass 2: atomic FILTER
    kept = partitioner.route(iri("h2"), iri("weather"), iri("sunny"))
    assert kept is not None and kept[1] == (weather,)
    assert partitioner.route(iri("h1"), iri("power"), integer(7)) is None
    assert partitioner.route(iri("h1"), iri("power"), '"10.5"^^<http://www.w3.org/2001/XMLSchema#decimal>')[1] == (power,)
    assert partitioner.route(iri("h1"), iri("owner"), iri("bob")) is None  # pass 2: constant object, by id
    assert partitioner.route(iri("h1"), iri("owner"), iri("alice"))[1] == (owner,)


def test_constants_are_in_the_persistent_dictionary_and_compared_by_id():
    partitioner, dictionary, _ = _partitioner("?h :owner :alice")
    alice = dictionary.persistent_id(iri("alice"))
    triple, _ = partitioner.route(iri("h1"), iri("owner"), iri("alice"))
    assert triple[2] == alice < dictionary.persistent_size <= triple[0]


def test_repeated_variable_and_variable_predicate():
    text = "?x :knows ?x . ?x ?p :b"
    partitioner, _, _ = _partitioner(text)
    knows, any_predicate = _at(text, "?x :knows ?x"), _at(text, "?x ?p :b")
    assert partitioner.predicates is None  # ?p: pass 1 keeps every predicate
    assert partitioner.route(iri("a"), iri("knows"), iri("c")) is None
    assert partitioner.route(iri("a"), iri("knows"), iri("a"))[1] == (knows,)
    assert partitioner.route(iri("a"), iri("likes"), iri("b"))[1] == (any_predicate,)  # any predicate for ?p
    assert partitioner.route(iri("b"), iri("knows"), iri("b"))[1] == tuple(sorted((knows, any_predicate)))


def test_complex_filters_are_kept_for_the_join():
    _, _, complex_filters = _partitioner("?t :fare ?f . ?t :tip ?x . FILTER(?x * 4 > ?f && ?f > 1)")
    assert len(complex_filters) == 1  # the conjunct over ?x and ?f; ?f > 1 is atomic


def test_pruned_triples_never_reach_the_views_or_stay_in_the_dictionary():
    engine = TPJoinIncrementalEngine(query("?h :power ?v . FILTER(?v > 10)", "unbounded"))
    engine.push(event(0, 0, "h1 power 7", "h2 power 12", "h3 colour red"))
    stats = engine.stats()
    assert stats["view_triples"] == 1 and stats["window_triples"] == 1
    assert engine.dictionary.adaptive_size() == 2  # h2 and 12: the pruned triples' terms were swept


def test_event_engine_clears_the_adaptive_dictionary_after_each_event():
    engine = TPJoinEventEngine(query("?h :power ?v"))
    delta = engine.push(event(0, 0, "h1 power 7", "h2 power 12"))
    assert set(delta.added) == {mapping("h1", "7"), mapping("h2", "12")}
    assert engine.compiled.dictionary.adaptive_size() == 0
    assert len(engine.compiled.dictionary) == engine.compiled.dictionary.persistent_size
    assert engine.stats()["view_triples"] == 0
