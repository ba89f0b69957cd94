"""Sparkwave over named windows: one β-network over a graph per window, each token tested against its own triples' bounds."""

from __future__ import annotations

import pytest

from common.errors import EngineError, StreamError
from engines.model.query import parse_query
from engines.model.stream import INSERT, Event, Update
from engines.sparkwave import SparkwaveEngine
from engines.sparkwave.beta import INF

EX = "http://ex/"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
SUBCLASS = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>"
S1, S2 = f"{EX}s1", f"{EX}s2"


def x(name: str) -> str:
    return f"<{EX}{name}>"


def named_query(where: str, entailment: str = "none", *, second_stream: str = "s2"):
    """``:a`` slides over 4 ms of ``:s1`` by 1 ms; ``:b`` tumbles over 10 ms of ``:s2`` (or ``second_stream``)."""
    text = (f"PREFIX : <{EX}>\nSELECT *\nFROM NAMED WINDOW :a ON :s1 [RANGE PT0.004S STEP PT0.001S]\n"
            f"FROM NAMED WINDOW :b ON :{second_stream} [RANGE PT0.010S TUMBLING]\nWHERE {{ {where} }}")
    return parse_query(text, entailment=entailment)


def event(index: int, ts: int, stream: str, *triples) -> Event:
    return Event(index, ts, tuple(Update(INSERT, *t) for t in triples), stream)


def test_a_token_of_two_windows_is_bounded_by_the_triple_that_leaves_first():
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :q ?z }"))
    assert len(engine.graphs) == 2 and engine.stats()["join_nodes"] == 2  # one chain reads both graphs
    engine.push(event(0, 0, S1, (x("a"), x("p"), x("b"))))  # in :a until 0 + 4 - 1
    delta = engine.push(event(1, 2, S2, (x("b"), x("q"), x("c"))))  # in :b until 9, the end of its tumble
    assert delta.added == [(x("a"), x("b"), x("c"))]
    complete = engine.rete.beta_memories()[-1].untils()
    assert complete == {(x("a"), x("b"), x("c")): 3}
    # an event on :s2 moves the clock past :a's bound: the :s1 triple leaves, and the token with it
    assert engine.push(event(2, 4, S2)).removed == [(x("a"), x("b"), x("c"))]
    assert engine.stats()["tokens"] == 0 and engine.stats()["wmes"] == 1


def test_a_triple_in_one_window_is_not_in_the_other():
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :p ?z }"))
    # both patterns test :p, but each reads its own graph's α-memory: a triple of :s1 is in :a only
    assert engine.stats()["alpha_memories"] == 2
    assert not engine.push(event(0, 0, S1, (x("a"), x("p"), x("b")), (x("b"), x("p"), x("c")))).added
    assert engine.push(event(1, 1, S2, (x("b"), x("p"), x("c")))).added == [(x("a"), x("b"), x("c"))]


def test_patterns_outside_every_block_match_the_static_graph_alone():
    static = [(x("b"), x("q"), x("c")), (x("a"), x("p"), x("b"))]
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :r ?w } ?y :q ?z"), static=static)
    static_graph = next(graph for graph in engine.graphs if graph.key.window is None)
    assert static_graph.wmes[(x("b"), x("q"), x("c"))] == INF
    assert (x("a"), x("p"), x("b")) not in static_graph.wmes  # no pattern of the static graph tests :p
    # the static (a p b) is not in window :a: nothing matches until :s1 brings it
    assert not engine.push(event(0, 0, S2, (x("b"), x("r"), x("d")))).added
    assert engine.push(event(1, 1, S1, (x("a"), x("p"), x("b")))).added == [(x("a"), x("b"), x("d"), x("c"))]


def test_each_window_is_closed_with_the_schema_apart():
    schema = [(x("Student"), SUBCLASS, x("Person"))]
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x a :Person } WINDOW :b { ?x :name ?n }", "rdfs"),
                             schema=schema)
    engine.push(event(0, 0, S2, (x("ann"), x("name"), '"Ann"'), (x("ann"), TYPE, x("Student"))))
    assert not engine.answers()  # the type entailed in :b is not in :a
    assert engine.push(event(1, 1, S1, (x("ann"), TYPE, x("Student")))).added == [(x("ann"), '"Ann"')]


def test_two_windows_over_one_stream_keep_a_triple_for_as_long_as_each_holds_it():
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :p ?z }", second_stream="s1"))
    window_a, window_b = engine.graphs
    assert engine.push(event(0, 0, S1, (x("a"), x("p"), x("b")), (x("b"), x("p"), x("c")))).added == [
        (x("a"), x("b"), x("c"))]
    assert window_a.wmes[(x("a"), x("p"), x("b"))] == 3 and window_b.wmes[(x("a"), x("p"), x("b"))] == 9
    assert engine.push(event(1, 4, S1)).removed == [(x("a"), x("b"), x("c"))]  # :a has moved past ts 0, :b has not
    assert len(window_a.wmes) == 0 and len(window_b.wmes) == 2
    assert engine.push(event(2, 5, S1, (x("a"), x("p"), x("b")))).added == [(x("a"), x("b"), x("c"))]


def test_an_event_of_a_stream_no_window_reads_only_slides_the_windows():
    """Another registered query's stream (DESIGN.md section 2, Several streams): its triples enter no window, but
    its instant moves every window to its timestamp; an event naming no stream (not merged) is still refused."""
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :q ?z }"))
    engine.push(event(0, 0, S1, (x("a"), x("p"), x("b"))))
    assert engine.push(event(1, 2, S2, (x("b"), x("q"), x("c")))).added == [(x("a"), x("b"), x("c"))]
    assert not engine.push(event(2, 3, f"{EX}s3", (x("a"), x("p"), x("b")), (x("b"), x("q"), x("d"))))
    assert engine.push(event(3, 4, f"{EX}s3")).removed == [(x("a"), x("b"), x("c"))]  # :a slid past ts 0
    with pytest.raises(StreamError, match="which no named window reads"):
        engine.push(event(4, 5, "", (x("a"), x("p"), x("b"))))


def test_a_query_over_named_windows_shares_an_engine_with_such_queries_only():
    engine = SparkwaveEngine(named_query("WINDOW :a { ?x :p ?y } WINDOW :b { ?y :q ?z }"))
    one_window = parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y }}", window="sliding:4:1")
    with pytest.raises(EngineError, match="shares an engine only with queries over named windows"):
        engine.add_query(one_window)
    assert engine.add_query(named_query("WINDOW :a { ?x :q ?y } WINDOW :b { ?y :q ?z }")) == 1
