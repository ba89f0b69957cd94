"""Engines behind the protocol give the same answers as in-process: Python engines served by engines.external.serve,
and the reference engine in JavaScript (skipped when this machine has no ``node``)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from engines.external import client
from engines.model.query import parse_query
from engines.model.stream import Event, Stream, Update
from harness.engines_setup import build_engine
from harness.verify import verify
from tests.conformance.checks import CHECKS
from tests.engine_answers import deltas_of as _deltas

REPOSITORY = Path(__file__).resolve().parents[3]
REEVAL_SERVED = REPOSITORY / "benchmarks" / "external" / "reeval-py.toml"
NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the JavaScript engines cannot run")


@pytest.mark.parametrize("name", ["rdfs-entailment", "filter-variables-and-logic", "unbounded-deletes", "static-join"])
def test_reeval_served_over_the_protocol_agrees_with_the_oracle(name):
    check = next(c for c in CHECKS if c.name == name)
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    result = verify(str(REEVAL_SERVED), query, check.stream(), oracle="rdflib")
    assert result.agrees and result.engine == "reeval-py-external", result.first


def _random_stream(count: int, seed: int = 7) -> Stream:
    chooser = random.Random(seed)
    nodes = [f"<http://ex/n{i}>" for i in range(12)]
    events, ts = [], 0
    for index in range(count):
        ts += chooser.choice((0, 1, 1, 2))
        updates = tuple(Update(1, chooser.choice(nodes), "<http://ex/p>", chooser.choice(nodes))
                        for _ in range(chooser.choice((0, 1, 1, 2))))
        events.append(Event(index, ts, updates))
    return Stream(tuple(events))


@NEEDS_NODE
def test_reeval_js_answers_each_event_as_reeval_does_with_many_events_in_flight(monkeypatch):
    monkeypatch.setattr(client, "MAX_AHEAD", 16)  # many more events than may be in flight at once
    stream = _random_stream(1500)
    query = parse_query("SELECT * WHERE { ?x <http://ex/p> ?y . ?y <http://ex/p> ?z }", window="sliding:6:2")
    expected = _deltas("reeval", query, stream)
    assert sum(len(added) for added, _ in expected) > 100
    assert _deltas("reeval-js", query, stream) == expected


@NEEDS_NODE
def test_rsp_js_refuses_windows_it_cannot_match_exactly():
    from common.errors import EngineError
    from engines.registry import get_engine

    descriptor = get_engine("rsp-js").descriptor
    if descriptor.unavailable():
        pytest.skip(descriptor.unavailable())
    query = parse_query("SELECT * WHERE { ?x <http://ex/p> ?y }", window="unbounded")
    with pytest.raises(EngineError, match="does not support unbounded windows"):
        build_engine("rsp-js", query, _random_stream(3))
    # and the driver itself refuses, should its capabilities be bypassed
    with pytest.raises(EngineError, match=r"refused: unbounded windows are not supported \(event and sliding only\)"):
        get_engine("rsp-js")(query)
