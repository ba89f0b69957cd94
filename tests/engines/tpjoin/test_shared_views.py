"""Shared views: a query set's patterns fall into classes up to variable renaming, and the class router finds exactly the classes ``Partitioner`` would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.model.stream import Window
from engines.tpjoin.dictionary import SynchronisedDictionary
from engines.tpjoin.partition import Partitioner
from engines.tpjoin.shared_views import SharedViews
from tests.strategies import queries, streams

from .helpers import query

WINDOW = Window.sliding(4, 1)


def _shared(*queries) -> SharedViews:
    shared = SharedViews(static=())
    for registered in queries:
        shared.register(query(registered) if isinstance(registered, str) else registered)
    shared.finish()
    return shared


def test_patterns_equal_up_to_renaming_are_one_class_and_one_view():
    shared = _shared("?x :takes :c1 . ?x a :Student", "?s :takes :c2 . ?s a :Student", "?t a :Student")
    assert len(shared.class_shapes) == 3  # takes c1, takes c2, Student
    student = {views[1] for views in shared.query_views[:2]} | {shared.query_views[2][0]}
    assert len(student) == 1 and len(shared.views) == 3
    assert sorted(shared.readers[student.pop()]) == [(0, 1), (1, 1), (2, 0)]


def test_a_repeated_variable_a_filter_or_a_repeated_pattern_makes_another_view():
    shared = _shared("?x :knows ?y", "?x :knows ?x", "?x :knows ?y FILTER(?y != :a)", "?b :knows ?c FILTER(?c != :a)",
                     "?x :knows ?y . ?y :knows ?z")
    assert len(shared.class_shapes) == 3  # plain, ?x ?x, filtered (queries 2 and 3 renamed)
    assert shared.query_views[2] == shared.query_views[3]
    first, second = shared.query_views[4]
    assert first == shared.query_views[0][0] and second != first  # the second occurrence reads a copy


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_class_router_keeps_what_the_partitioner_keeps(data):
    drawn = [data.draw(queries(WINDOW)) for _ in range(data.draw(st.integers(1, 5)))]
    stream = data.draw(streams())
    shared = _shared(*drawn)
    partitioner = Partitioner(shared.class_shapes, SynchronisedDictionary())
    for event in stream.events:
        for _, s, p, o in event.updates:
            by_partitioner = partitioner.route(s, p, o)
            by_router = shared.route(s, p, o)
            assert (by_router and list(by_router[1])) == (by_partitioner and sorted(by_partitioner[1]))
            if partitioner.predicates is not None and p not in partitioner.predicates:
                assert by_router is None


def test_a_later_reader_that_probes_by_object_gives_the_shared_view_a_value_table():
    shared = _shared("?x :p ?y", "?a :p ?b . ?b :q ?c")
    view = shared.query_views[0][0]
    assert shared.query_views[1][0] == view and shared.views[view].pairs.tables[1] is not None
    assert _shared("?x :p ?y").views[0].pairs.tables[1] is None  # no reader probes it by object
