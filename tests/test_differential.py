"""Every registered engine gives reeval's answers at every instant on random streams and queries it can run.

reeval is held to both oracles by test_properties; comparing other engines with it is the fast,
broad check. Metamorphic: splitting one event into several with the same timestamp changes
nothing at the instant the last of them is processed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from common.errors import EngineError
from engines.model.stream import Event, Stream
from engines.registry import get_engine, known_engines
from harness.engines_setup import build_engine
from tests.oxigraph_divergence import oxigraph_may_diverge, stream_merges_for_oxigraph
from tests.strategies import queries, streams, windows

MATCHERS = [name for name in known_engines() if get_engine(name).capabilities.matches]


def _held_after_each_event(engine, stream):
    held: set = set()
    for event in stream.events:
        delta = engine.push(event)
        if engine.capabilities.output == "istream":
            held = set(engine.answers())
        else:
            held = (held - set(delta.removed)) | set(delta.added)
        yield event.index, frozenset(held)


def _trace(name, query, stream):
    return list(_held_after_each_event(build_engine(name, query, stream), stream))


@st.composite
def cases(draw):
    window = draw(windows())
    stream = draw(streams(deletions=window.kind == "unbounded", static=draw(st.booleans())))
    return draw(queries(window)), stream


@pytest.mark.parametrize("engine_name", [n for n in MATCHERS if n != "reeval"])
@settings(max_examples=150, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=cases())
def test_engine_equals_reeval(engine_name, case):
    query, stream = case
    if engine_name == "oxigraph":
        assume(not oxigraph_may_diverge(query, stream))  # shown in tests/engines/test_oxigraph_divergence.py
    try:
        actual = _trace(engine_name, query, stream)
    except EngineError:
        return  # outside this engine's capabilities (a refusal, tested in the conformance suite)
    expected = _trace("reeval", query, stream)
    for (index, got), (_, want) in zip(actual, expected, strict=True):
        assert got == want, f"{engine_name} at event {index}: missing {want - got}, extra {got - want}"


def _split(stream: Stream, cuts) -> tuple[Stream, list[int]]:
    """Each multi-update event becomes several events with its timestamp; also where each original event ends."""
    events, ends = [], []
    for event in stream.events:
        updates = list(event.updates)
        while len(updates) > 1 and next(cuts):
            events.append((event.ts, tuple(updates[:1])))
            updates = updates[1:]
        events.append((event.ts, tuple(updates)))
        ends.append(len(events) - 1)
    split = tuple(Event(i, ts, updates) for i, (ts, updates) in enumerate(events))
    return Stream(split, stream.static, stream.schema, {}), ends


@pytest.mark.parametrize("engine_name", MATCHERS)
@settings(max_examples=60)
@given(case=cases(), cuts=st.lists(st.booleans(), min_size=100, max_size=100))
def test_splitting_events_keeps_answers_at_shared_instants(engine_name, case, cuts):
    query, stream = case
    if query.window.kind == "event":
        return  # the event window is defined by event boundaries; splitting changes it by design
    if engine_name == "oxigraph":
        # oxigraph against itself: only its merged literals matter, whose spelling follows insertion order
        assume(not stream_merges_for_oxigraph(query, stream))
    split, ends = _split(stream, iter(cuts + [False] * 10_000))
    try:
        whole = _trace(engine_name, query, stream)
        pieces = _trace(engine_name, query, split)
    except EngineError:
        return
    for (index, got), end in zip(whole, ends, strict=True):
        assert got == pieces[end][1], f"{engine_name}: event {index} differs when its updates arrive one by one"
