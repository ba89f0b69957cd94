"""Both delta engines equal the reference oracle (rdflib) after every event, static data and deletions included.

Needs ``oracles.evaluate`` (written by the lead); until it exists this module is skipped as a
whole, and the brute force and ``reeval`` comparisons carry the checking.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings

from engines.delta import DeltaEngine, DeltaGenericEngine
from engines.model.stream import Window
from tests.strategies import queries, streams

evaluate = pytest.importorskip("oracles.evaluate")


@settings(max_examples=40)
@given(query=queries(Window("unbounded")), stream=streams(deletions=True, static=True, max_events=10))
def test_delta_engines_equal_the_oracle(query, stream):
    expected = {index: answers for index, _, answers in evaluate.oracle_answers(query, stream, oracle="rdflib")}
    for engine_cls in (DeltaEngine, DeltaGenericEngine):
        engine = engine_cls(query, static=stream.static)
        held: set = set()
        for event in stream.events:
            delta = engine.push(event)
            held = (held - set(delta.removed)) | set(delta.added)
            assert held == expected[event.index], f"{engine_cls.name} at event {event.index}"
            assert engine.answers() == Counter(expected[event.index])
