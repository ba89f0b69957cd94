"""S-Inc and S-Rev agree with a brute-force evaluation of the semantics at every instant, on random small streams and queries."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.model.query import parse_query
from engines.model.stream import Event, Stream, Update, Window
from engines.spectra import SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine
from tests.engines.spectra.brute import answers_at_every_instant
from tests.strategies import queries, streams, windows

ENGINES = [SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine]
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
EX = "http://ex/"


def check_engine(engine_cls, query, stream: Stream) -> None:
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    previous: set = set()
    for event, expected in zip(stream.events, answers_at_every_instant(query, stream)):
        delta = engine.push(event)
        assert len(delta.added) == len(set(delta.added)), "a match was added twice in one delta"
        assert len(delta.removed) == len(set(delta.removed)), "a match was removed twice in one delta"
        assert set(delta.added) == expected - previous, f"Δ⁺ wrong at event {event.index}"
        assert set(delta.removed) == previous - expected, f"Δ⁻ wrong at event {event.index}"
        assert engine.answers() == Counter(expected), f"answers wrong at event {event.index}"
        previous = expected


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@FAST
@given(data=st.data())
def test_agrees_with_brute_force_on_random_streams(engine_cls, data) -> None:
    window = data.draw(windows(kinds=("sliding", "event")))
    query = data.draw(queries(window, filters=True))
    stream = data.draw(streams(static=data.draw(st.booleans())))
    check_engine(engine_cls, query, stream)


# Few terms, long streams: many joins, many evictions, many re-stamped duplicates.
DENSE_NODES = [f"<{EX}{n}>" for n in "abc"]
DENSE_PREDICATES = [f"<{EX}{n}>" for n in "pq"]
dense_triples = st.tuples(
    st.sampled_from(DENSE_NODES), st.sampled_from(DENSE_PREDICATES), st.sampled_from(DENSE_NODES + ['"1"'])
)


@st.composite
def dense_streams(draw) -> Stream:
    ts = 0
    events = []
    for index in range(draw(st.integers(1, 40))):
        ts += draw(st.sampled_from((0, 0, 1, 1, 2, 5)))
        size = draw(st.sampled_from((0, 1, 1, 1, 2, 4)))
        updates = tuple(Update(1, *draw(dense_triples)) for _ in range(size))
        events.append(Event(index, ts, updates))
    static = tuple(draw(st.lists(dense_triples, max_size=3)))
    return Stream(tuple(events), static)


DENSE_QUERIES = [
    "SELECT * WHERE { ?x :p ?y . ?y :p ?z }",  # chain, self-join on one predicate
    "SELECT * WHERE { ?x :p ?y . ?y :q ?z . ?z :p ?x }",  # cycle
    "SELECT * WHERE { ?x :p ?y . ?x :q ?z . ?x :p ?w }",  # star with a repeated predicate
    "SELECT * WHERE { ?x :p ?y . ?y :q ?z . ?y :p ?w . ?w :q ?v }",  # snowflake
    "SELECT * WHERE { ?x :p ?x . ?x :q ?y }",  # a variable repeated in one pattern
    "SELECT * WHERE { ?x ?p ?y . ?y :q :a }",  # a variable predicate and a constant object
    "SELECT * WHERE { :a ?p ?y . ?y ?p :b }",  # a variable predicate shared by two patterns
    "SELECT * WHERE { ?x :p ?y . ?z :q ?w }",  # disconnected: a cross product
    "SELECT * WHERE { :a :p :b . ?x :q ?y }",  # a pattern of constants only
    "SELECT * WHERE { ?s ?p ?o }",  # everything
    "SELECT * WHERE { ?x :p ?y . ?y ?r ?x }",  # a cycle closed by a variable predicate: a check on a wide row
    "SELECT * WHERE { ?x ?r ?y . ?y ?r ?z }",  # two wide rows sharing two variables
    "SELECT * WHERE { :a :p :b . :b :p :a }",  # no variable at all: the answer is () or nothing
    "SELECT * WHERE { ?x ?x ?x . ?x :q ?y }",  # one variable in every position
]


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@FAST
@given(
    text=st.sampled_from(DENSE_QUERIES),
    window=st.one_of(
        st.builds(lambda r, s: Window.sliding(r, min(s, r)), st.integers(1, 12), st.integers(1, 12)),
        st.just(Window("event")),
    ),
    stream=dense_streams(),
)
def test_agrees_with_brute_force_on_dense_streams(engine_cls, text, window, stream) -> None:
    query = parse_query(f"PREFIX : <{EX}>\n{text}", window=window)
    check_engine(engine_cls, query, stream)
