"""The window adapter turns each instant's window change into one update event for an unbounded engine, and passes everything else through."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.adapters import can_adapt, windowed
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Delta, Event, Update, Window
from engines.protocol import Capabilities

EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


class Recorder:
    """An unbounded update engine that records what it is built with and fed."""

    name = "recorder"
    capabilities = Capabilities(windows=frozenset({"unbounded"}), deletions=True, entailment=frozenset({"rdfs"}),
                                static=False, filters=False, output="istream", matches=False)

    def __init__(self, query, *, static=(), schema=(), **options):
        self.query, self.static, self.schema, self.options = query, tuple(static), tuple(schema), options
        self.events: list[Event] = []

    def push(self, event):
        self.events.append(event)
        return Delta(added=[("pushed",)])

    def answers(self):
        return Counter({("held",): 1})

    def stats(self):
        return {"events": len(self.events)}


QUERY = parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y }}", window="sliding:10:1")


def test_only_unbounded_update_engines_can_be_adapted():
    assert can_adapt(Recorder)

    class WindowOnly(Recorder):
        capabilities = Capabilities(windows=frozenset({"sliding"}), deletions=True, entailment=frozenset({"none"}),
                                    static=True, filters=True)

    class InsertOnly(Recorder):
        capabilities = Capabilities(windows=frozenset({"unbounded"}), deletions=False, entailment=frozenset({"none"}),
                                    static=True, filters=True)

    assert not can_adapt(WindowOnly) and not can_adapt(InsertOnly)
    with pytest.raises(TypeError, match="recorder does not take unbounded insert/delete streams"):
        windowed(InsertOnly)


def test_the_adapted_engine_takes_every_window_and_keeps_the_inner_capabilities():
    adapted = windowed(Recorder)
    assert adapted.name == "recorder+window" and adapted.inner is Recorder and adapted.__name__ == "WindowedRecorder"
    assert adapted.capabilities == Capabilities(
        windows=frozenset({"sliding", "event", "unbounded"}), deletions=True, entailment=frozenset({"rdfs"}),
        static=False, filters=False, output="istream", matches=False)


def test_the_inner_engine_gets_the_query_unbounded_with_static_schema_and_options():
    static, schema = [(iri("s"), iri("p"), iri("o"))], [(iri("A"), iri("subClassOf"), iri("B"))]
    engine = windowed(Recorder)(QUERY, static=static, schema=schema, depth=3)
    inner = engine.engine
    assert inner.query.window == Window("unbounded") and inner.query.patterns == QUERY.patterns
    assert inner.static == tuple(static) and inner.schema == tuple(schema) and inner.options == {"depth": 3}


def test_each_instant_becomes_one_event_of_expirations_then_arrivals_at_the_same_index_and_time():
    engine = windowed(Recorder)(QUERY)
    a, b = (iri("a"), iri("p"), iri("b")), (iri("c"), iri("p"), iri("d"))
    delta = engine.push(Event(7, 100, (Update(INSERT, *a),)))
    assert delta.added == [("pushed",)] and engine.answers() == Counter({("held",): 1})
    engine.push(Event(8, 115, (Update(INSERT, *b),)))  # the window now starts at 106: a leaves
    first, second = engine.engine.events
    assert (first.index, first.ts, first.updates) == (7, 100, (Update(INSERT, *a),))
    assert (second.index, second.ts, second.updates) == (8, 115, (Update(DELETE, *a), Update(INSERT, *b)))
    assert engine.stats() == {"window_triples": 1, "events": 2}


def test_close_reaches_an_inner_engine_that_has_one_and_is_harmless_otherwise():
    class Closing(Recorder):
        closed = 0

        def close(self):
            self.closed += 1

    engine = windowed(Closing)(QUERY)
    engine.close()
    assert engine.engine.closed == 1
    windowed(Recorder)(QUERY).close()  # Recorder has no close(): nothing to call


def test_a_deletion_in_a_windowed_stream_is_refused_with_its_event_and_window_kind():
    from common.errors import StreamError

    engine = windowed(Recorder)(QUERY)
    with pytest.raises(StreamError, match="event 3: deletions are allowed with unbounded windows only, not sliding"):
        engine.push(Event(3, 0, (Update(DELETE, iri("a"), iri("p"), iri("b")),)))
