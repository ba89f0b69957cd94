"""On the shared random streams and queries, both delta engines agree with the brute force and with reeval after every event."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engines.adapters import windowed
from engines.baselines.reeval import ReevalEngine
from engines.delta import DeltaEngine, DeltaGenericEngine
from engines.model.stream import Window
from tests.engines.delta.brute import BruteForce
from tests.strategies import queries, streams, windows

UNBOUNDED = Window("unbounded")


def _check(engines, held, event, expected: set) -> None:
    for engine in engines:
        delta = engine.push(event)
        assert not set(delta.added) & held[engine.name], f"{engine.name} added an answer already held"
        assert set(delta.removed) <= held[engine.name], f"{engine.name} removed an answer not held"
        held[engine.name] = (held[engine.name] - set(delta.removed)) | set(delta.added)
        assert held[engine.name] == expected, engine.name
        assert engine.answers() == Counter(expected), engine.name


@given(query=queries(UNBOUNDED), stream=streams(deletions=True, static=True))
def test_delta_engines_equal_brute_force_with_static_data(query, stream):
    brute = BruteForce(query, stream.static)
    engines = [DeltaEngine(query, static=stream.static), DeltaGenericEngine(query, static=stream.static)]
    held = {engine.name: set() for engine in engines}
    for event in stream.events:
        brute.push(event)
        _check(engines, held, event, brute.answers())


@given(query=queries(UNBOUNDED), stream=streams(deletions=True, static=True))
def test_delta_engines_equal_reeval(query, stream):
    baseline = ReevalEngine(query, static=stream.static)
    engines = [DeltaEngine(query, static=stream.static), DeltaGenericEngine(query, static=stream.static)]
    held = {engine.name: set() for engine in engines}
    expected: set = set()
    for event in stream.events:
        delta = baseline.push(event)
        expected = (expected - set(delta.removed)) | set(delta.added)
        _check(engines, held, event, expected)


@given(data=st.data())
def test_windowed_delta_engines_equal_reeval(data):
    """Behind the lead's window adapter, windowed insert streams give reeval's answers too."""
    window = data.draw(windows(kinds=("sliding", "event")))
    query = data.draw(queries(window))
    stream = data.draw(streams())
    baseline = ReevalEngine(query)
    engines = [windowed(DeltaEngine)(query), windowed(DeltaGenericEngine)(query)]
    held = {engine.name: set() for engine in engines}
    expected: set = set()
    for event in stream.events:
        delta = baseline.push(event)
        expected = (expected - set(delta.removed)) | set(delta.added)
        _check(engines, held, event, expected)
