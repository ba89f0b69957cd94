"""S-Inc and S-Rev agree with the rdflib oracle (through ``harness.verify``) and with the re-evaluation baseline."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import EngineError
from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.spectra import SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine
from harness.engines_setup import engine_class_for
from harness.verify import verify
from tests.conformance.checks import CHECKS
from tests.strategies import queries, streams, windows

ENGINES = [SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine]


def _query(check):
    return parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)


def _supported(engine_cls, check) -> bool:
    try:
        engine_class_for(engine_cls, _query(check), check.stream())
    except EngineError:
        return False
    return True


SUPPORTED = [
    pytest.param(engine_cls, check, id=f"{engine_cls.name}:{check.name}")
    for engine_cls in ENGINES
    for check in CHECKS
    if _supported(engine_cls, check)
]


def test_conformance_checks_cover_sliding_event_and_static():
    names = {check.name for _, check in (p.values for p in SUPPORTED)}
    assert {"sliding-chain-duplicates", "tumbling-boundary", "event-window-burst", "static-join"} <= names


@pytest.mark.parametrize(("engine_cls", "check"), SUPPORTED)
def test_conformance_check_agrees_with_oracle(engine_cls, check):
    result = verify(engine_cls, _query(check), check.stream(), oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_streams_agree_with_rdflib_oracle(engine_cls, data):
    window = data.draw(windows(kinds=("sliding", "event")))
    query = data.draw(queries(window))
    stream = data.draw(streams(max_events=8, static=data.draw(st.booleans())))
    result = verify(engine_cls, query, stream, oracle="rdflib")
    assert result.agrees, f"first divergence: {result.first}"


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_streams_agree_with_reeval(engine_cls, data):
    window = data.draw(windows(kinds=("sliding", "event")))
    query = data.draw(queries(window))
    stream = data.draw(streams(static=data.draw(st.booleans())))
    ours = engine_cls(query, static=stream.static)
    theirs = ReevalEngine(query, static=stream.static)
    for event in stream.events:
        ours.push(event)
        theirs.push(event)
        assert set(ours.answers()) == set(theirs.answers()), f"answers differ at event {event.index}"


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@pytest.mark.parametrize("window", ["sliding:40:1", "sliding:30:7", "event"])
def test_long_stream_agrees_with_reeval(engine_cls, window):
    """Thousands of instants: the timelist compacts, dictionary ids are freed and reused many times."""
    import random

    from engines.model.stream import Event, Update

    rng = random.Random(7)
    nodes = [f"<http://ex/n{i}>" for i in range(30)]
    predicates = ["<http://ex/p>", "<http://ex/q>"]
    text = "PREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y . ?y :q ?z . ?z :p ?x }"
    query = parse_query(text, window=window)
    ours, theirs = engine_cls(query), ReevalEngine(query)
    ts = 0
    matched = 0
    for index in range(3000):
        ts += rng.choice((0, 1, 1, 2))
        updates = tuple(
            Update(1, rng.choice(nodes), rng.choice(predicates), rng.choice(nodes)) for _ in range(rng.choice((1, 1, 3)))
        )
        event = Event(index, ts, updates)
        delta = ours.push(event)
        theirs.push(event)
        matched += len(delta.added)
        assert set(ours.answers()) == set(theirs.answers()), f"answers differ at event {index}"
    assert ours.stats()["dictionary_terms"] <= len(nodes) + len(predicates)
    if window != "event":
        assert matched > 0
