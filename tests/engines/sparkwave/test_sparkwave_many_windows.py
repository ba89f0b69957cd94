"""Queries with different time windows (and entailments) in one Sparkwave network answer as each does in an instance of its own."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.model.query import parse_query
from engines.model.stream import INSERT, Event, Update
from engines.protocol import per_query
from engines.sparkwave import SparkwaveEngine
from tests.strategies import queries, streams, windows
from tests.strategies_streams import streams_cases

EX = "http://ex/"


def _held(engine, events, count: int) -> list[list[frozenset]]:
    """Per event, each query's answers built from its deltas."""
    held = [set() for _ in range(count)]
    trace = []
    for event in events:
        for query_id, delta in enumerate(per_query(engine.push(event))):
            held[query_id] = (held[query_id] - set(delta.removed)) | set(delta.added)
        trace.append([frozenset(answers) for answers in held])
    return trace


def _assert_one_network_answers_as_instances(drawn, stream) -> None:
    together = SparkwaveEngine(drawn[0], static=stream.static, schema=stream.schema)
    for query in drawn[1:]:
        together.add_query(query)
    trace = _held(together, stream.events, len(drawn))
    assert "query_set" not in together.__dict__ and len(together.productions) == len(drawn)  # one network
    for query_id, query in enumerate(drawn):
        alone = SparkwaveEngine(query, static=stream.static, schema=stream.schema)
        for index, (held, (want,)) in enumerate(zip(trace, _held(alone, stream.events, 1), strict=True)):
            got = held[query_id]
            assert got == want, f"query {query_id} ({query.window}) at event {index}: missing {want - got}, extra {got - want}"


@st.composite
def windowed_cases(draw):
    stream = draw(streams(static=draw(st.booleans()), schema=draw(st.booleans())))
    drawn = [draw(queries(draw(windows(("sliding",))), entailment=draw(st.sampled_from(("none", "rdfs")))))
             for _ in range(draw(st.integers(2, 5)))]
    return drawn, stream


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=windowed_cases())
def test_queries_of_different_windows_share_one_network(case):
    _assert_one_network_answers_as_instances(*case)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(first=streams_cases(), ranges=st.lists(st.integers(1, 9), min_size=1, max_size=3))
def test_queries_over_named_windows_of_different_ranges_share_one_network(first, ranges):
    query, stream = first
    # the same query text with other ranges (at least the slide): the same streams, other windows
    drawn = [query]
    for range_ms in ranges:
        text = query.text
        for named in query.named_windows:
            clause = re.compile(rf"(FROM NAMED WINDOW {re.escape(named.name)} ON \S+ \[RANGE )PT0\.\d+S")
            text = clause.sub(rf"\g<1>PT0.{max(range_ms, named.window.slide_ms):03d}S", text)
        drawn.append(parse_query(text))
    _assert_one_network_answers_as_instances(drawn, stream)


def test_patterns_of_one_window_share_memories_across_queries_and_other_windows_do_not():
    def query(window: str, where: str):
        return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {where} }}", window=window)

    engine = SparkwaveEngine(query("sliding:4:1", "?x :p ?y . ?y :q ?z"))
    engine.add_query(query("sliding:4:1", "?x :p ?y . ?y :q ?z"))
    engine.add_query(query("tumbling:10", "?x :p ?y . ?y :q ?z"))
    engine.push(Event(0, 0, (Update(INSERT, f"<{EX}a>", f"<{EX}p>", f"<{EX}b>"),)))  # builds the network
    stats = engine.stats()
    assert len(engine.graphs) == 2 and engine.rete.shared_join_nodes == 2  # the two sliding:4:1 chains are one
    assert stats["alpha_memories"] == 4 and stats["join_nodes"] == 4  # the tumbling:10 query's are its own
