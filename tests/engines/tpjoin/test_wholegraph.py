"""E-CGPM* (``tpjoin-event-nopart``): no views, every join scans the whole event, and the answers are E-CGPM's."""

from __future__ import annotations

import pytest

from engines.baselines.reeval import ReevalEngine
from engines.tpjoin.event import TPJoinEventEngine, TPJoinEventNoPartitionEngine
from engines.tpjoin.wholegraph import WholeGraph

from .helpers import event, query

CASES = [
    "?a :price ?x . ?b :cost ?y . FILTER(?y < ?x)",  # sort-merge over the scan
    "?x :knows ?x . ?x :likes ?y",  # repeated variable, tested by the scan
    "?x ?p :b . ?x :knows ?y",  # variable predicate
    "?t :fare ?f . ?t :tip ?x . FILTER(?x * 4 > ?f) FILTER(?f > 9)",  # complex and atomic FILTERs
    "?a :p ?b . ?b :q ?c . ?c :r ?a",  # cycle: a two-variable hash key
    "?a :p ?b . ?c :q ?d",  # cross product
    "?a :price ?x . ?b ?q ?y . FILTER(?y < ?x)",  # sort-merge over the scan binding a variable predicate
    "?a :price ?x . ?b ?b ?y . FILTER(?y < ?x)",  # sort-merge, the predicate repeats the subject
    "?x ?x ?y",  # predicate = subject, alone
    "?y ?x ?x . ?y :likes ?z",  # predicate = object
    # the dictionary numbers the query's constants from 0 in pattern order: the object constant gets id 1 here,
    # the predicate id 1 in the next, and the scan must test each constant by its position, not by its id
    "?x :likes :b",
    ":c :knows ?y",
]
TRIPLES = [
    "a1 price 5", "a2 price 10", "b1 cost 3", "b2 cost 7", "b3 cost x", "a knows a", "a likes c", "c knows c",
    "d knows e", "a likes b", "c p b", "t1 fare 10", "t1 tip 3", "t2 fare 10", "t2 tip 2", "t3 fare 8", "t3 tip 9",
    "a p b", "b q c", "c r a", "c r b", "e q d",
    "b1 b1 4", "k k c", "c k k", "a k k", "a k c",
]


@pytest.mark.parametrize("text", CASES)
def test_answers_are_those_of_the_partitioned_engine_and_of_reeval(text):
    static = [tuple(f"<http://ex/{name}>" for name in "b q z".split())]
    engines = [cls(query(text), static=static) for cls in (TPJoinEventNoPartitionEngine, TPJoinEventEngine, ReevalEngine)]
    first, second = event(0, 0, *TRIPLES), event(1, 1, *TRIPLES[::2])
    results = [[(set(e.push(first).added), set(e.push(second).removed))] for e in engines]
    assert results[0] == results[1] == results[2]


def test_every_state_scans_the_whole_event():
    engine = TPJoinEventNoPartitionEngine(query("?t :taxi ?x . ?t :driver ?d . ?t :fare ?f"))
    assert all(isinstance(view, WholeGraph) for view in engine.compiled.views)
    assert len({id(view) for view in engine.compiled.views}) == 1  # one unindexed graph, no per-pattern view
    partitioner = engine.compiled.partitioner
    scanned = []

    def counting_selector(index, make=partitioner.selector):
        select = make(index)
        return lambda triples: scanned.append(len(triples)) or select(triples)

    partitioner.selector = counting_selector  # what each join is handed to scan
    added = engine.push(event(0, 0, "t1 taxi x", "t1 driver d", "t1 fare 10", "t2 taxi y", "u colour red")).added
    assert len(added) == 1
    assert scanned == [5, 5, 5]  # each of the three joins took every triple of the event, unrelated ones too
