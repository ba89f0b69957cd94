"""Several queries over named windows in one engine: each query's answers, at every instant of the merge of every
stream any of them reads, are its answers alone at those instants, and the oracle's (DESIGN.md section 2, Several
streams, "Several queries").

The worked example is DESIGN.md's; the conformance pairs register each named-window check's query with every other
check's query that reads its streams; the random cases draw two or three queries over streams drawn from three.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from common.errors import EngineError, StreamError
from engines.model.query import parse_query
from engines.model.stream import Event
from engines.registry import get_engine, known_engines
from harness.engines_setup import build_query_set
from harness.streams.merged import MergedStream, merge_events
from harness.streams.named_inputs import union_streams
from oracles.evaluate import oracle_answers
from tests.conformance.checks import PREFIXES, build_stream
from tests.conformance.streams_checks import STREAMS_CHECKS, windows
from tests.oxigraph_divergence import oxigraph_may_diverge
from tests.strategies_streams import many_streams_cases
from tests.test_many_queries import _assert_each_as_alone, _held_after_each_event

SEVERAL = [name for name in known_engines()
           if get_engine(name).capabilities.matches and get_engine(name).capabilities.streams > 1]
SHARING = [name for name in SEVERAL if get_engine(name).capabilities.shares]

# DESIGN.md section 2, "Several queries": q1 reads s1 and s2, q2 reads s2 and s3, over one pattern class and window on s2
Q1 = PREFIXES + "SELECT * " + windows("w1 s1 RANGE PT0.003S STEP PT0.001S", "w2 s2 RANGE PT0.003S STEP PT0.001S") \
    + " WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }"
Q2 = PREFIXES + "SELECT * " + windows("v2 s2 RANGE PT0.003S STEP PT0.001S", "v3 s3 RANGE PT0.005S STEP PT0.001S") \
    + " WHERE { WINDOW :v2 { ?b :q ?c } WINDOW :v3 { ?c :r ?k } }"
STREAMS = {
    "s1": [(0, ["+ :a :p :b"]), (5, ["+ :c :p :b"])],
    "s2": [(1, ["+ :b :q :x"]), (6, ["+ :b :q :y"])],
    "s3": [(2, ["+ :x :r :k"]), (4, ["+ :y :r :k"])],
}
# per instant of the merge (s1 at 0, s2 at 1, s3 at 2, s3 at 4, s1 at 5, s2 at 6): each query's added and removed
EXPECTED = {
    "q1": [((), ()), (("a b x",), ()), ((), ()), ((), ("a b x",)), ((), ()), (("c b y",), ())],
    "q2": [((), ()), ((), ()), (("b x k",), ()), ((), ("b x k",)), ((), ()), (("b y k",), ())],
}


def _worked_example():
    queries = [parse_query(Q1, name="q1"), parse_query(Q2, name="q2")]
    sources = tuple((f"http://ex/{name}", build_stream(events)) for name, events in STREAMS.items())
    return queries, MergedStream(sources).materialise()


def _mapping(text: str) -> tuple[str, ...]:
    return tuple(f"<http://ex/{name}>" for name in text.split())


@pytest.mark.parametrize("engine_name", SEVERAL)
def test_the_worked_example(engine_name):
    queries, stream = _worked_example()
    assert [event.stream[len("http://ex/"):] for event in stream.events] == ["s1", "s2", "s3", "s3", "s1", "s2"]
    engine = build_query_set(engine_name, queries, stream)
    for event in stream.events:
        deltas = engine.push(event)
        for query, delta in zip(queries, deltas, strict=True):
            added, removed = EXPECTED[query.name][event.index]
            assert (sorted(delta.added), sorted(delta.removed)) == (
                sorted(map(_mapping, added)), sorted(map(_mapping, removed))), f"{query.name} at {event.index}"
    _assert_each_as_alone(engine_name, queries, stream)


def test_the_worked_example_is_the_oracles():
    queries, stream = _worked_example()
    for query in queries:
        held = set()
        for (index, _, answers), (added, removed) in zip(oracle_answers(query, stream), EXPECTED[query.name],
                                                         strict=True):
            held = (held - set(map(_mapping, removed))) | set(map(_mapping, added))
            assert answers == held, f"{query.name} at instant {index}"


@pytest.mark.parametrize(("engine_name", "held", "count"), [
    ("reeval", "window_stores", 3), ("tpjoin-lazy", "views", 3), ("tpjoin-eager", "views", 3)])
def test_the_shared_pattern_and_window_is_held_once(engine_name, held, count):
    """q1's w2 and q2's v2: one stream, one window, one pattern class: one store (reeval), one view (TP-Join)."""
    queries, stream = _worked_example()
    engine = build_query_set(engine_name, queries, stream)
    for event in stream.events:
        engine.push(event)
    assert engine.stats()[held] == count


@pytest.mark.parametrize("engine_name", SHARING)
def test_named_and_one_window_queries_do_not_share_an_engine(engine_name):
    queries, stream = _worked_example()
    one_window = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y }", window="sliding:3:1")
    engine = build_query_set(engine_name, queries[:1], stream)
    with pytest.raises(EngineError, match="only with queries over named windows"):
        engine.add_query(one_window)


def _pairs():
    for check in STREAMS_CHECKS:
        base = parse_query(check.query_text(), entailment=check.entailment, name=check.name)
        for other in STREAMS_CHECKS:
            query = parse_query(other.query_text(), entailment=other.entailment, name=other.name)
            if other is not check and set(query.streams) <= set(base.streams):
                yield check, [base, query]


PAIRS = [pytest.param(engine_name, check, drawn, id=f"{engine_name}:{check.name}+{drawn[1].name}")
         for engine_name in SEVERAL for check, drawn in _pairs()]


@pytest.mark.parametrize(("engine_name", "check", "drawn"), PAIRS)
def test_checks_registered_in_pairs_answer_as_alone_and_as_the_oracle(engine_name, check, drawn):
    stream = check.stream()
    if any(get_engine(engine_name).capabilities.refusal(query, has_static=bool(stream.static)) for query in drawn):
        return  # outside this engine's capabilities (refusals are tested in the conformance suite)
    _assert_each_as_alone(engine_name, drawn, stream)
    _assert_each_as_the_oracle(engine_name, drawn, stream)


def _assert_each_as_the_oracle(engine_name, drawn, stream) -> None:
    together = list(_held_after_each_event(build_query_set(engine_name, drawn, stream), stream, len(drawn)))
    for query_id, query in enumerate(drawn):
        for held, (index, _, want) in zip(together, oracle_answers(query, stream), strict=True):
            got = held[query_id]
            assert got == want, f"{query.name} at instant {index}: missing {want - got}, extra {got - want}"


@pytest.mark.parametrize("engine_name", SEVERAL)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=many_streams_cases())
def test_random_queries_over_several_streams_together_answer_as_alone_and_as_the_oracle(engine_name, case):
    drawn, stream = case
    if any(get_engine(engine_name).capabilities.refusal(query, has_static=bool(stream.static)) for query in drawn):
        return
    if engine_name == "oxigraph" and any(oxigraph_may_diverge(query, stream) for query in drawn):
        return  # shown in tests/engines/test_oxigraph_divergence.py
    _assert_each_as_alone(engine_name, drawn, stream)
    _assert_each_as_the_oracle(engine_name, drawn, stream)


def test_the_merge_of_several_queries_is_in_the_order_they_first_declare_their_streams():
    """Equal timestamps: the stream the first query declares first comes first, whatever the second declares."""
    queries, _ = _worked_example()
    reversed_q2 = parse_query(Q2.replace(windows("v2 s2 RANGE PT0.003S STEP PT0.001S",
                                                 "v3 s3 RANGE PT0.005S STEP PT0.001S"),
                                         windows("v3 s3 RANGE PT0.005S STEP PT0.001S",
                                                 "v2 s2 RANGE PT0.003S STEP PT0.001S")), name="q2")
    assert union_streams([queries[0], reversed_q2]) == ("http://ex/s1", "http://ex/s2", "http://ex/s3")
    assert union_streams([reversed_q2, queries[0]]) == ("http://ex/s3", "http://ex/s2", "http://ex/s1")
    order = union_streams([reversed_q2, queries[0]])
    tied = [(iri, build_stream([(3, [f"+ :{iri[-2:]} :p :o"])]).events) for iri in order]
    assert [event.stream for event in merge_events(tied)] == ["http://ex/s3", "http://ex/s2", "http://ex/s1"]


@pytest.mark.parametrize("engine_name", SEVERAL)
def test_an_event_naming_no_stream_is_refused_by_queries_registered_together(engine_name):
    """One stream fed as is, not merged: which of the queries' streams it is, is not known."""
    queries, stream = _worked_example()
    engine = build_query_set(engine_name, queries, stream)
    first = stream.events[0]
    with pytest.raises(StreamError, match="which no named window reads"):
        engine.push(Event(first.index, first.ts, first.updates, ""))
