"""Random queries over two and three streams: reeval equals the oracles at every merged instant, and every engine
that takes several streams equals reeval."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engines.registry import get_engine, known_engines
from oracles.evaluate import oracle_answers
from tests.oxigraph_divergence import oxigraph_may_diverge
from tests.strategies_streams import streams_cases
from tests.test_differential import _trace

SEVERAL = [name for name in known_engines()
           if get_engine(name).capabilities.matches and get_engine(name).capabilities.streams > 1 and name != "reeval"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=st.one_of(streams_cases(), streams_cases(entailment="rdfs")))
def test_reeval_equals_the_oracle_on_several_streams(case):
    query, stream = case
    expected = oracle_answers(query, stream, oracle="rdflib")
    for (index, got), (_, _, want) in zip(_trace("reeval", query, stream), expected, strict=True):
        assert got == want, f"reeval at instant {index}: missing {want - got}, extra {got - want}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=streams_cases())
def test_the_plain_oracle_equals_rdflib_on_several_streams(case):
    query, stream = case
    assert list(oracle_answers(query, stream, oracle="plain")) == list(oracle_answers(query, stream, oracle="rdflib"))


@pytest.mark.parametrize("engine_name", SEVERAL)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=st.one_of(streams_cases(), streams_cases(entailment="rdfs")))
def test_engine_equals_reeval_on_several_streams(engine_name, case):
    query, stream = case
    if get_engine(engine_name).capabilities.refusal(query, has_static=bool(stream.static)) is not None:
        return  # outside this engine's capabilities (refusals are tested in the conformance suite)
    if engine_name == "oxigraph":
        assume(not oxigraph_may_diverge(query, stream))  # shown in tests/engines/test_oxigraph_divergence.py
    expected = _trace("reeval", query, stream)
    for (index, got), (_, want) in zip(_trace(engine_name, query, stream), expected, strict=True):
        assert got == want, f"{engine_name} at instant {index}: missing {want - got}, extra {got - want}"
