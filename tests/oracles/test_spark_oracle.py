"""The Spark oracle gives the plain oracle's M(τ) at every instant: hand-worked windows, random streams and queries, RDFS.

Everything runs one shared local session (marked ``spark``) on few, small Hypothesis examples, each a
whole answer history compared instant by instant with ``oracles.evaluate.oracle_answers(oracle="plain")``.
The interval logic's edges are in ``test_spark_oracle_edges``, the timeline's running counts in
``test_spark_timeline``, the directory entry and leave-and-return streams in ``test_spark_directory``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import StreamError, WindowError
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from oracles.evaluate import oracle_answers
from tests.strategies import queries, schemas, streams, windows

EX = "http://ex/"
A, B, C = f"<{EX}a>", f"<{EX}b>", f"<{EX}c>"
P, Q = f"<{EX}p>", f"<{EX}q>"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"


def spark_answers(spark, query, stream, instants=None):
    from oracles.spark import oracle_answers as history_answers

    return list(history_answers(spark, query, stream, instants))


def assert_same_as_plain(spark, query, stream):
    expected = list(oracle_answers(query, stream, oracle="plain"))
    actual = spark_answers(spark, query, stream)
    assert [(i, ts) for i, ts, _ in actual] == [(i, ts) for i, ts, _ in expected]
    for (index, ts, want), (_, _, got) in zip(expected, actual):
        assert got == want, f"event {index} ts {ts}: plain-only {sorted(want - got)}, spark-only {sorted(got - want)}"


# ---------------------------------------------------------------- hand-worked histories


def ins(*triple):
    return Update(INSERT, *triple)


def dele(*triple):
    return Update(DELETE, *triple)


@pytest.mark.spark
def test_deletions_and_reinsertions_in_one_event_on_an_unbounded_stream(spark):
    stream = Stream((
        Event(0, 0, (ins(A, P, B), ins(B, Q, C))),
        Event(1, 1, (dele(A, P, B), ins(A, P, B))),  # the last update wins: still present
        Event(2, 1, (ins(A, P, B), dele(A, P, B))),  # now absent
        Event(3, 2, (dele(A, P, B),)),  # deleting an absent triple changes nothing
        Event(4, 3, (ins(A, P, B), ins(A, P, B))),
    ), static=((C, Q, A),))
    query = parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}", window="unbounded")
    answers = [set(m) for _, _, m in spark_answers(spark, query, stream)]
    assert answers == [{(A, B, C)}, {(A, B, C)}, set(), set(), {(A, B, C)}]
    assert_same_as_plain(spark, query, stream)


@pytest.mark.spark
def test_a_sliding_window_expires_the_match_with_its_oldest_triple(spark):
    stream = Stream(tuple(Event(i, ts, (u,)) for i, (ts, u) in enumerate([
        (0, ins(A, P, B)), (2, ins(B, Q, C)), (3, ins(A, P, B)), (5, ins(C, P, A)), (9, ins(A, Q, A)),
    ])))
    query = parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y . ?y <{EX}q> ?z }}", window="sliding:3:1")
    answers = [set(m) for _, _, m in spark_answers(spark, query, stream)]
    # (a p b) at 0 and 3, (b q c) at 2: the match is present from event 1 until τ_b passes 2 (at ts 5)
    assert answers == [set(), {(A, B, C)}, {(A, B, C)}, set(), set()]
    assert_same_as_plain(spark, query, stream)


@pytest.mark.spark
def test_chosen_instants_and_a_query_without_variables(spark):
    stream = Stream((Event(10, 0, (ins(A, P, B),)), Event(11, 5, (ins(B, P, C),)), Event(12, 9, (ins(C, P, A),))))
    query = parse_query(f"SELECT * WHERE {{ <{EX}a> <{EX}p> <{EX}b> }}", window="tumbling:5")
    assert [(i, set(m)) for i, _, m in spark_answers(spark, query, stream, instants=[12, 10])] == [(10, {()}), (12, set())]
    with pytest.raises(WindowError, match="no event with index 3"):
        spark_answers(spark, query, stream, instants=[3])


@pytest.mark.spark
def test_deletions_under_a_window_are_refused(spark):
    stream = Stream((Event(0, 0, (ins(A, P, B),)), Event(1, 1, (dele(A, P, B),))))
    query = parse_query(f"SELECT * WHERE {{ ?x <{EX}p> ?y }}", window="sliding:3:1")
    with pytest.raises(StreamError, match="deletions are only allowed with an unbounded window"):
        spark_answers(spark, query, stream)


@pytest.mark.spark
def test_a_schema_giving_rules_to_rdf_type_is_closed_as_the_plain_oracle_closes_it(spark):
    # issue 21: p ⊑ rdf:type ⊑ q with a class hierarchy; such a schema was refused before
    rdf_type = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
    schema = ((P, f"<{RDFS}subPropertyOf>", rdf_type), (rdf_type, f"<{RDFS}subPropertyOf>", Q),
              (B, f"<{RDFS}subClassOf>", C))
    stream = Stream((Event(0, 0, (ins(A, P, B),)),), schema=schema)
    query = parse_query(f"SELECT * WHERE {{ ?x <{EX}q> ?y }}", window="unbounded", entailment="rdfs")
    assert_same_as_plain(spark, query, stream)
    assert spark_answers(spark, query, stream)[-1][2] == {(A, B), (A, C)}


# ---------------------------------------------------------------- random streams, queries and windows


@st.composite
def stream_cases(draw, entailment: str = "none"):
    window = draw(windows())
    stream = draw(streams(deletions=window.kind == "unbounded", static=draw(st.booleans()), max_events=10))
    if entailment == "rdfs":
        stream = Stream(stream.events, stream.static, tuple(draw(schemas(type_links=draw(st.booleans())))), {})
    return draw(queries(window, entailment=entailment)), stream


SPARK_EXAMPLES = settings(max_examples=8, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.mark.spark
@SPARK_EXAMPLES
@given(stream_cases())
def test_agrees_with_the_plain_oracle_on_random_streams(spark, case):
    query, stream = case
    assert_same_as_plain(spark, query, stream)


@pytest.mark.spark
@settings(SPARK_EXAMPLES, max_examples=3)
@given(stream_cases(entailment="rdfs"))
def test_agrees_with_the_plain_oracle_under_rdfs(spark, case):
    query, stream = case
    assert_same_as_plain(spark, query, stream)
